/**
 * The hosted checkout page under hostile input, with a real checkout behind it (the route fuzzer cannot
 * open one): fast-check posts the page's form with its valid token and anything at all in its fields
 * (huge, control characters, lone surrogates, repeated fields, broken escapes, other content types) and
 * opens the page with damaged parameters (a redirect session, a checkout's id, an abandoned cart's
 * `cartId`: an ordered cart's, an open cart's, anything). Never a 5xx or a hang; a form refused shows the page again;
 * nothing is placed unless the whole form is right, and then the one order, with the stock taken once.
 */
import { assert, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as Redacted from "effect/Redacted"
import fc from "fast-check"
import { STORES_APP_ID } from "../../../src/ecom/protocol.ts"
import { LocalPlatform } from "../../../src/server/index.ts"
import { buyerForm, openCheckoutPage } from "../../support/checkoutPage.ts"
import { onPlatform } from "../../support/platform.ts"

const SEED = process.env["FUZZ_SEED"] === undefined ? 20261124 : Number(process.env["FUZZ_SEED"])
const FIELDS = ["token", "email", "firstName", "lastName", "phone", "addressLine1", "addressLine2", "city", "subdivision", "postalCode", "country"]

/** A value as a form escapes it; a lone surrogate, which has no UTF-8, as the bytes of one. */
const escaped = (v: string) => {
  try {
    return encodeURIComponent(v)
  } catch {
    return "%ED%A0%80"
  }
}

const fieldValue = fc.oneof(
  fc.string({ maxLength: 40 }),
  fc.string({ unit: "binary", maxLength: 40 }),
  fc.string({ minLength: 100, maxLength: 100_000 }),
  fc.constantFrom("", " ", "\u0000", "\uD800", "a@b.c", "ada@example.com", "GB", "zz", "<script>x</script>", "__proto__", "%ff")
)

/** Form bodies: the buyer's form damaged, fields repeated, raw bytes, or not a form at all. */
const body = (token: string): fc.Arbitrary<{ readonly text: string | Uint8Array; readonly type: string }> =>
  fc.oneof(
    fc.dictionary(fc.constantFrom(...FIELDS, "__proto__", "constructor", "x"), fieldValue, { maxKeys: 14 }).map((fields) => ({
      text: new URLSearchParams({ token, ...buyerForm("ada@example.com"), ...fields }).toString(),
      type: "application/x-www-form-urlencoded"
    })),
    fc.array(fc.tuple(fc.constantFrom(...FIELDS), fieldValue), { maxLength: 30 }).map((pairs) => ({
      text: `token=${encodeURIComponent(token)}&${pairs.map(([k, v]) => `${k}=${escaped(v)}`).join("&")}`,
      type: "application/x-www-form-urlencoded"
    })),
    fc.constantFrom("%", "%zz", "%E0%A4%A", "email=%ff", "token=%C0%AF", "&&&=", "=").map((text) => ({ text: `${text}&token=${encodeURIComponent(token)}`, type: "application/x-www-form-urlencoded" })),
    fc.uint8Array({ maxLength: 2000 }).map((bytes) => ({ text: bytes, type: "application/x-www-form-urlencoded" })),
    fc.jsonValue({ maxDepth: 4 }).map((v) => ({ text: JSON.stringify(v) ?? "null", type: "application/json" })),
    fc.string({ maxLength: 200 }).map((text) => ({ text, type: "text/plain" }))
  )

it.live("the hosted page's form and parameters: no 5xx, no hang, and only a right form places the one order", () =>
  onPlatform(
    {},
    Effect.gen(function*() {
      const platform = yield* LocalPlatform
      const key = Redacted.value(platform.apiKey)
      const failures: Array<string> = []
      yield* Effect.promise(async () => {
        const call = async (method: string, path: string, auth: string, payload?: unknown) => {
          const res = await fetch(`${platform.url}${path}`, {
            method,
            headers: { authorization: auth, "content-type": "application/json" },
            ...(payload === undefined ? {} : { body: JSON.stringify(payload) })
          })
          const text = await res.text()
          assert.strictEqual(res.status, 200, `${path}: ${text}`)
          return JSON.parse(text)
        }
        const { product } = await call("POST", "/stores/v1/products", key, { product: { name: "Hostile Lamp", priceData: { price: 9 }, stock: { trackInventory: true, quantity: 5 } } })
        const variantId = product.variants[0].id
        await call("PATCH", `/stores/v2/inventoryItems/product/${product.id}`, key, { inventoryItem: { trackQuantity: true, variants: [{ variantId, quantity: 5 }] } })
        const visitor = (await call("POST", "/oauth2/token", "", { clientId: platform.clientId, grantType: "anonymous" })).access_token
        await call("POST", "/ecom/v1/carts/current/add-to-cart", visitor, {
          lineItems: [{ catalogReference: { appId: STORES_APP_ID, catalogItemId: product.id, options: { variantId } }, quantity: 2 }]
        })
        const { cart } = await call("GET", "/ecom/v1/carts/current", visitor)
        const { checkoutId } = await call("POST", "/ecom/v1/carts/current/create-checkout", visitor, {})
        const { redirectSession } = await call("POST", "/_api/redirects-api/v1/redirect-session", visitor, {
          ecomCheckout: { checkoutId },
          callbacks: { postFlowUrl: "http://localhost:3000/cart", thankYouPageUrl: "http://localhost:3000/thanks" }
        })
        // another visitor's cart, left open: its link makes a checkout while the damaged links are sent
        const other = (await call("POST", "/oauth2/token", "", { clientId: platform.clientId, grantType: "anonymous" })).access_token
        const openCart = (await call("POST", "/ecom/v1/carts/current/add-to-cart", other, {
          lineItems: [{ catalogReference: { appId: STORES_APP_ID, catalogItemId: product.id, options: { variantId } }, quantity: 1 }]
        })).cart
        const page = await openCheckoutPage(redirectSession.fullUrl)
        const origin = new URL(page.action).origin
        const placed = new Set<string>()

        await fc.assert(
          fc.asyncProperty(body(page.token), fc.boolean(), async (sent, ownOrigin) => {
            const res = await fetch(page.action, {
              method: "POST",
              redirect: "manual",
              headers: { "content-type": sent.type, ...(ownOrigin ? { origin } : {}) },
              body: sent.text as BodyInit,
              signal: AbortSignal.timeout(10_000)
            })
            const text = await res.text()
            const label = `${String(sent.text).slice(0, 200)} (${sent.type})`
            if (res.status >= 500) failures.push(`${label}: answered ${res.status}: ${text.slice(0, 300)}`)
            else if (res.status === 303) placed.add(new URL(res.headers.get("location")!).searchParams.get("orderId") ?? "")
            else if (res.status >= 400 && !text.includes("<form")) failures.push(`${label}: a ${res.status} without the page's form`)
            return true
          }),
          { seed: SEED, numRuns: 300 }
        )

        // the page opened with damaged parameters
        await fc.assert(
          fc.asyncProperty(
            fc.oneof(
              fc.string({ maxLength: 3000 }).map((s) => `redirectSession=${escaped(s)}`),
              fc.string({ maxLength: 3000 }).map((s) => `checkoutId=${escaped(s)}`),
              fc.string({ maxLength: 3000 }).map((s) => `cartId=${escaped(s)}`),
              fc.uuid().map((id) => `cartId=${id}`),
              fc.constantFrom(
                "redirectSession=%ff",
                "checkoutId=%",
                "redirectSession=&checkoutId=x",
                `checkoutId=${checkoutId}&redirectSession=x`,
                `checkoutId=${checkoutId.toUpperCase()}`,
                `cartId=${cart.id}`,
                `cartId=${openCart.id}`,
                `cartId=${openCart.id}&redirectSession=x`,
                `cartId=${cart.id.toUpperCase()}`,
                `cartId=${cart.id}&cartId=${checkoutId}`,
                `cartId=${checkoutId}`,
                `cartId=${cart.id}&checkoutId=x`,
                "cartId=%",
                "cartId=%00",
                `cartId=${encodeURIComponent(` ${cart.id}`)}`
              )
            ),
            fc.constantFrom("GET", "POST"),
            async (search, method) => {
              const res = await fetch(`${platform.url}/checkout?${search}`, { method, redirect: "manual", signal: AbortSignal.timeout(10_000) })
              const text = await res.text()
              if (res.status >= 500) failures.push(`${method} ?${search.slice(0, 200)}: answered ${res.status}: ${text.slice(0, 300)}`)
              return true
            }
          ),
          { seed: SEED + 1, numRuns: 200 }
        )

        // a right form came among them (the seeded run sends some): the one order, and the stock taken once for it
        assert.strictEqual(placed.size, 1, [...placed].join(", "))
        const stock = (await call("GET", `/stores-reader/v1/products/${product.id}`, key)).product.stock.quantity
        assert.strictEqual(stock, 3)
      })
      assert.deepStrictEqual(failures.slice(0, 20), [], `${failures.length} failures (FUZZ_SEED=${SEED})`)
    })
  ), 300_000)
