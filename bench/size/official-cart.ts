// The official client doing the same: a visitor's current cart, a product added, the cart read, a checkout and its redirect session.
import { currentCart } from "@wix/ecom"
import { redirects } from "@wix/redirects"
import { createClient, OAuthStrategy } from "@wix/sdk"

const client = createClient({ modules: { currentCart, redirects }, auth: OAuthStrategy({ clientId: "my-client-id" }) })
const reference = { appId: "215238eb-22a5-4c36-9e7b-e7c08025e04e", catalogItemId: "product-id", options: { variantId: "variant-id" } }
const run = async () => {
  await client.currentCart.addToCurrentCart({ lineItems: [{ catalogReference: reference, quantity: 1 }] })
  const cart = await client.currentCart.getCurrentCart()
  const { checkoutId } = await client.currentCart.createCheckoutFromCurrentCart({ channelType: currentCart.ChannelType.WEB })
  const { redirectSession } = await client.redirects.createRedirectSession({
    ecomCheckout: { checkoutId: checkoutId! },
    callbacks: { postFlowUrl: "https://shop.example/cart", thankYouPageUrl: "https://shop.example/thanks" }
  })
  return { lines: cart.lineItems?.length ?? 0, url: redirectSession?.fullUrl }
}
run().then(console.log)
