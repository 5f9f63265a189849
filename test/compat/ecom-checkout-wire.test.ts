/**
 * sitefx's Checkout must send what the official `checkout` and `redirects` modules send, call by call:
 * method, path, query and JSON body, key order aside. Each side is its own visitor with its own cart
 * and checkout, so the ids each names are its own; they are compared as `<id>`.
 */
import { assert, describe, it } from "@effect/vitest"
import { checkout, currentCart } from "@wix/ecom"
import { redirects } from "@wix/redirects"
import { createClient, OAuthStrategy } from "@wix/sdk"
import * as Effect from "effect/Effect"
import { Cart, Checkout, STORES_APP_ID } from "../../src/ecom/index.ts"
import { PlatformFetch } from "../../src/http/PlatformHttp.ts"
import { asVisitor } from "../data/support.ts"
import { officialClientsOnLocalPlatform } from "../support/official.ts"
import { rawResponse, unique } from "../support/store.ts"
import { type Sent, sentOf } from "../support/wire.ts"

const log: Array<Sent> = []
const record = async (request: Request) => {
  const path = new URL(request.url).pathname
  if (!path.startsWith("/ecom/v1/checkouts") && !path.startsWith("/_api/redirects-api/")) return
  const text = request.method === "GET" || request.method === "DELETE" ? "" : await request.clone().text()
  log.push(sentOf(request.method, new URL(request.url), text))
}
const onLocal = officialClientsOnLocalPlatform({}, record)
const sitefxFetch: typeof fetch = async (input, init) => {
  const request = new Request(input, init)
  await record(request)
  return onLocal.fetch(request)
}

const GUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/
/** Checkout ids are each side's own. */
const normalized = (sent: ReadonlyArray<Sent>) =>
  JSON.parse(JSON.stringify(sent, (_key, value: unknown) =>
    typeof value === "string" ? value.replace(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g, "<id>") : value))

const product = async (price: number): Promise<string> => {
  const res = await rawResponse(onLocal.platform, "POST", "/stores/v1/products", { product: { name: unique("Wire Checkout"), priceData: { price } } }, "admin", onLocal.fetch)
  return ((await res.json()) as { product: { id: string } }).product.id
}

describe("sitefx's Checkout sends what the official checkout and redirects modules send", () => {
  it("get, update the buyer, checkout URL, redirect session, mark as completed", async () => {
    const id = await product(9)
    const ref = { appId: STORES_APP_ID, catalogItemId: id }
    const client = createClient({ modules: { currentCart, checkout, redirects }, auth: OAuthStrategy({ clientId: onLocal.platform.clientId }) })
    const callbacks = { postFlowUrl: "http://localhost:3000/cart", thankYouPageUrl: "http://localhost:3000/thanks" }
    const address = { address: { country: "GB", city: "London", addressLine1: "12 Analytical Row" }, contactDetails: { firstName: "Ada", lastName: "Lovelace" } }

    await client.currentCart.addToCurrentCart({ lineItems: [{ catalogReference: ref, quantity: 1 }] })
    const { checkoutId } = await client.currentCart.createCheckoutFromCurrentCart({ channelType: currentCart.ChannelType.WEB })
    let from = log.length
    await client.checkout.getCheckout(checkoutId!)
    await client.checkout.updateCheckout(checkoutId!, { buyerInfo: { email: "ada@example.com" }, shippingInfo: { shippingDestination: address } })
    await client.checkout.getCheckoutUrl(checkoutId!)
    const official = await client.redirects.createRedirectSession({ ecomCheckout: { checkoutId: checkoutId! }, callbacks })
    await client.checkout.markCheckoutAsCompleted(checkoutId!)
    const o = log.slice(from)

    from = log.length
    const ours = await onLocal.run(asVisitor(Effect.gen(function*() {
      yield* Cart.add([{ catalogReference: ref, quantity: 1 }])
      const mine = yield* Checkout.createFromCurrentCart({ channelType: "WEB" })
      assert.match(mine, GUID)
      yield* Checkout.get(mine)
      const updated = yield* Checkout.update(mine, { buyerInfo: { email: "ada@example.com" }, shippingInfo: { shippingDestination: address } })
      assert.strictEqual(updated.buyerInfo?.email, "ada@example.com")
      const url = yield* Checkout.url(mine)
      const page = yield* Checkout.redirect(mine, callbacks)
      yield* Checkout.markCompleted(mine)
      const done = yield* Checkout.get(mine)
      return { url, page, completed: done.completed }
    })).pipe(Effect.provideService(PlatformFetch, sitefxFetch)) as Effect.Effect<{ url: string; page: string; completed: boolean | undefined }, unknown, never>)
    const s = log.slice(from)

    assert.deepStrictEqual(normalized(s.slice(0, o.length)), normalized(o))
    assert.deepStrictEqual(o.map((r) => `${r.method} ${normalized([r])[0].path}`), [
      "GET /ecom/v1/checkouts/<id>",
      "PATCH /ecom/v1/checkouts/<id>",
      "GET /ecom/v1/checkouts/<id>/checkout-url",
      "POST /_api/redirects-api/v1/redirect-session",
      "POST /ecom/v1/checkouts/<id>/mark-as-completed"
    ])
    assert.strictEqual(new URL(official.redirectSession!.fullUrl!).pathname, "/checkout")
    assert.strictEqual(new URL(ours.page).pathname, "/checkout")
    assert.strictEqual(new URL(ours.url).pathname, "/checkout")
    assert.isTrue(ours.completed)
  })

  it("refuses a missing id before any request", async () => {
    const from = log.length
    const error = await onLocal.run(asVisitor(Effect.flip(Checkout.get(""))) as Effect.Effect<unknown, never, never>)
    assert.strictEqual((error as { code: string }).code, "INVALID_ARGUMENT")
    assert.strictEqual(log.length, from)
  })
})
