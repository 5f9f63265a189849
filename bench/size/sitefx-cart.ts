// A visitor's cart page: the site client (tokens and platform, no sign-in flows), a product added to the current cart, the cart read, and the hosted checkout's address.
import * as Effect from "effect/Effect"
import { Cart, Checkout, STORES_APP_ID } from "sitefx/ecom"
import { siteClient } from "sitefx/session"

const session = siteClient({ clientId: "my-client-id", tokens: "localStorage" })
const reference = { appId: STORES_APP_ID, catalogItemId: "product-id", options: { variantId: "variant-id" } }
const program = Effect.gen(function*() {
  yield* Cart.add([{ catalogReference: reference, quantity: 1 }])
  const cart = yield* Cart.get()
  const checkoutId = yield* Cart.createCheckout()
  const url = yield* Checkout.redirect(checkoutId, { postFlowUrl: "https://shop.example/cart", thankYouPageUrl: "https://shop.example/thanks" })
  return { lines: cart.lineItems?.length ?? 0, url }
})
Effect.runPromise(program.pipe(Effect.provide(session))).then(console.log)
