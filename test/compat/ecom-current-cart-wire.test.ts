/**
 * sitefx's Cart must send what the official `currentCart` (Cart V1) and `currentCartV2` modules send,
 * call by call: method, path, query and JSON body, key order aside. Each side is its own visitor with
 * its own cart, so the line ids each names are its own; they are compared as `<line>`.
 */
import { assert, describe, it } from "@effect/vitest"
import { currentCart, currentCartV2 } from "@wix/ecom"
import { createClient, OAuthStrategy } from "@wix/sdk"
import * as Effect from "effect/Effect"
import { Cart, STORES_APP_ID } from "../../src/ecom/index.ts"
import { PlatformFetch } from "../../src/http/PlatformHttp.ts"
import { asVisitor } from "../data/support.ts"
import { officialClientsOnLocalPlatform } from "../support/official.ts"
import { rawResponse, unique } from "../support/store.ts"
import { type Sent, sentOf } from "../support/wire.ts"

const log: Array<Sent> = []
const record = async (request: Request) => {
  if (!new URL(request.url).pathname.startsWith("/ecom/")) return
  const text = request.method === "GET" || request.method === "DELETE" ? "" : await request.clone().text()
  log.push(sentOf(request.method, new URL(request.url), text))
}
const onLocal = officialClientsOnLocalPlatform({}, record)
const sitefxFetch: typeof fetch = async (input, init) => {
  const request = new Request(input, init)
  await record(request)
  return onLocal.fetch(request)
}

/** Line ids are each cart's own. */
const normalized = (sent: ReadonlyArray<Sent>) =>
  JSON.parse(JSON.stringify(sent, (key, value: unknown) => (key === "id" || key === "lineItemId" ? "<line>" : key === "lineItemIds" ? (value as Array<string>).map(() => "<line>") : value)))

const product = async (price: number): Promise<string> => {
  const res = await rawResponse(onLocal.platform, "POST", "/stores/v1/products", { product: { name: unique("Wire Cart"), priceData: { price } } }, "admin", onLocal.fetch)
  return ((await res.json()) as { product: { id: string } }).product.id
}

const compare = async (name: string, official: () => Promise<unknown>, sitefx: Effect.Effect<unknown, unknown, any>) => {
  let from = log.length
  await official()
  const o = log.slice(from)
  from = log.length
  await onLocal.run(asVisitor(sitefx).pipe(Effect.provideService(PlatformFetch, sitefxFetch)) as Effect.Effect<unknown, unknown, never>)
  const s = log.slice(from)
  assert.isAbove(o.length, 0, `${name}: the official client sent something`)
  assert.deepStrictEqual(normalized(s), normalized(o), name)
  return o
}

describe("sitefx's Cart sends what the official current-cart modules send", () => {
  it("Cart V1: add, get, update quantities, remove, estimate, checkout, delete", async () => {
    const id = await product(15)
    const ref = { appId: STORES_APP_ID, catalogItemId: id, options: { variantId: "00000000-0000-0000-0000-000000000000" } }
    const client = createClient({ modules: { currentCart }, auth: OAuthStrategy({ clientId: onLocal.platform.clientId }) })
    const sent = await compare(
      "a whole cart",
      async () => {
        const { cart } = await client.currentCart.addToCurrentCart({ lineItems: [{ catalogReference: ref, quantity: 2 }] })
        await client.currentCart.getCurrentCart()
        const line = cart!.lineItems![0]!._id!
        await client.currentCart.updateCurrentCartLineItemQuantity([{ _id: line, quantity: 3 }])
        await client.currentCart.estimateCurrentCartTotals({})
        await client.currentCart.createCheckoutFromCurrentCart({})
        await client.currentCart.removeLineItemsFromCurrentCart([line])
        await client.currentCart.deleteCurrentCart()
      },
      Effect.gen(function*() {
        const cart = yield* Cart.add([{ catalogReference: ref, quantity: 2 }])
        yield* Cart.get()
        const line = cart.lineItems![0]!.id!
        yield* Cart.updateQuantities([{ id: line, quantity: 3 }])
        yield* Cart.estimate()
        yield* Cart.createCheckout()
        yield* Cart.removeLineItems([line])
        yield* Cart.deleteCurrent()
      })
    )
    assert.deepStrictEqual(sent.map((r) => `${r.method} ${r.path}`), [
      "POST /ecom/v1/carts/current/add-to-cart",
      "GET /ecom/v1/carts/current",
      "POST /ecom/v1/carts/current/update-line-items-quantity",
      "POST /ecom/v1/carts/current/estimate-totals",
      "POST /ecom/v1/carts/current/create-checkout",
      "POST /ecom/v1/carts/current/remove-line-items",
      "DELETE /ecom/v1/carts/current"
    ])
  })

  it("Cart V2: create, add, get, update, remove, estimate, delete", async () => {
    const first = await product(8)
    const second = await product(11)
    const client = createClient({ modules: { currentCartV2 }, auth: OAuthStrategy({ clientId: onLocal.platform.clientId }) })
    const sent = await compare(
      "a whole cart",
      async () => {
        await client.currentCartV2.createCurrentCart({ catalogItems: [{ catalogReference: { appId: STORES_APP_ID, catalogItemId: first }, quantity: 1 }] })
        const { cart } = await client.currentCartV2.addLineItemsToCurrentCart({ catalogItems: [{ catalogReference: { appId: STORES_APP_ID, catalogItemId: second } }] })
        await client.currentCartV2.getCurrentCart()
        const line = cart!.lineItems![1]!._id!
        await client.currentCartV2.updateLineItemsInCurrentCart({ lineItems: [{ lineItemId: line, quantity: { newQuantity: 4 } }] })
        await client.currentCartV2.estimateCurrentCart({})
        await client.currentCartV2.removeLineItemsFromCurrentCart([line])
        await client.currentCartV2.deleteCurrentCart()
      },
      Effect.gen(function*() {
        yield* Cart.create([{ catalogReference: { appId: STORES_APP_ID, catalogItemId: first }, quantity: 1 }])
        const cart = yield* Cart.add([{ catalogReference: { appId: STORES_APP_ID, catalogItemId: second } }], "V2")
        yield* Cart.get("V2")
        const line = cart.lineItems![1]!.id!
        yield* Cart.updateQuantities([{ id: line, quantity: 4 }], "V2")
        yield* Cart.estimate("V2")
        yield* Cart.removeLineItems([line], "V2")
        yield* Cart.deleteCurrent("V2")
      })
    )
    assert.deepStrictEqual(sent.map((r) => `${r.method} ${r.path}`), [
      "POST /ecom/v2/carts/current",
      "POST /ecom/v2/carts/current/add-line-items",
      "GET /ecom/v2/carts/current",
      "POST /ecom/v2/carts/current/update-line-items",
      "POST /ecom/v2/carts/current/estimate",
      "POST /ecom/v2/carts/current/remove-line-items",
      "DELETE /ecom/v2/carts/current"
    ])
  })
})
