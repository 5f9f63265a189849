/**
 * A platform killed (SIGKILL) while buyers pay loses no acknowledged order: `sitefx serve` runs as its own
 * process on a database file, with a product whose variant tracks 200 in stock; buyers pay through the
 * hosted checkout page as fast as they can, each purchase a visitor's whole journey over HTTP (token,
 * cart, checkout, redirect session, the page, its form); the process is killed once some purchases are
 * acknowledged (the page's 303 to the thank-you URL with the order's id) and others are still under way;
 * started again on the same file, the platform holds every acknowledged order, its order numbers run on
 * without a gap, and the stock is 200 less what the stored orders bought: no order without its stock
 * taken, no stock taken without its order.
 */
import { afterEach, assert, describe, it } from "@effect/vitest"
import { type ChildProcess, spawn } from "node:child_process"
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { STORES_APP_ID } from "../../../src/ecom/protocol.ts"
import { buyerForm, openCheckoutPage, submitCheckoutPage } from "../../support/checkoutPage.ts"

const NODE = join(process.cwd(), "node_modules/.bin/node")
const MAIN = join(process.cwd(), "src/cli/main.ts")
const STOCK = 200
const BUYERS_AT_ONCE = 16
/** Acknowledged purchases before the kill. */
const KILL_AFTER = 25
const THANKS = "http://localhost:3000/thanks"

interface Running {
  readonly child: ChildProcess
  readonly url: string
  readonly apiKey: string
  readonly exit: Promise<unknown>
}

const children: Array<ChildProcess> = []

// a failed assertion must not leave a server running
afterEach(() => {
  for (const child of children.splice(0)) if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL")
})

/** `sitefx serve` on `db`, once it has printed its address and API key. */
const serve = (db: string): Promise<Running> =>
  new Promise((resolve, reject) => {
    const child = spawn(NODE, [MAIN, "serve", "--port", "0", "--db", db, "--seed", "none", "--no-log"], { stdio: ["ignore", "pipe", "pipe"] })
    children.push(child)
    const exit = new Promise((done) => child.on("exit", done))
    let out = ""
    let err = ""
    const timer = setTimeout(() => {
      child.kill("SIGKILL")
      reject(new Error(`the platform did not start: ${out} ${err}`))
    }, 60_000)
    child.stderr!.on("data", (chunk) => {
      err += chunk
    })
    child.stdout!.on("data", (chunk) => {
      out += chunk
      const url = /listening on (http:\/\/[^\s]+)/.exec(out)?.[1]
      const apiKey = /API key\s+(sfx_key_[A-Za-z0-9_-]+)/.exec(out)?.[1]
      if (url !== undefined && apiKey !== undefined && /dev endpoints/.test(out)) {
        clearTimeout(timer)
        resolve({ child, url, apiKey, exit })
      }
    })
  })

const json = async (res: Response) => {
  const text = await res.text()
  if (!res.ok) throw new Error(`${res.status}: ${text.slice(0, 300)}`)
  return JSON.parse(text) as any
}

const call = (platform: Running, method: string, path: string, auth: string, body?: unknown) =>
  fetch(`${platform.url}${path}`, {
    method,
    headers: { authorization: auth, "content-type": "application/json" },
    ...(body === undefined ? {} : { body: JSON.stringify(body) })
  }).then(json)

/** A product whose one variant tracks STOCK. */
const trackedProduct = async (platform: Running) => {
  const { product } = await call(platform, "POST", "/stores/v1/products", platform.apiKey, {
    product: { name: "Kill-Proof Lamp", productType: "physical", priceData: { price: 30 }, stock: { trackInventory: true, quantity: STOCK } }
  })
  const variantId = product.variants[0].id as string
  await call(platform, "PATCH", `/stores/v2/inventoryItems/product/${product.id}`, platform.apiKey, {
    inventoryItem: { trackQuantity: true, variants: [{ variantId, quantity: STOCK }] }
  })
  return { productId: product.id as string, variantId }
}

const stockOf = async (platform: Running, productId: string): Promise<number> =>
  (await call(platform, "GET", `/stores-reader/v1/products/${productId}`, platform.apiKey)).product.stock.quantity

/** One buyer's whole purchase of `quantity`; the order's id when the platform acknowledged it. */
const purchase = async (platform: Running, item: { productId: string; variantId: string }, quantity: number, n: number): Promise<string | undefined> => {
  const token = await fetch(`${platform.url}/oauth2/token`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ clientId: "sitefx-local-client", grantType: "anonymous" })
  }).then(json)
  const visitor = token.access_token as string
  await call(platform, "POST", "/ecom/v1/carts/current/add-to-cart", visitor, {
    lineItems: [{ catalogReference: { appId: STORES_APP_ID, catalogItemId: item.productId, options: { variantId: item.variantId } }, quantity }]
  })
  const { checkoutId } = await call(platform, "POST", "/ecom/v1/carts/current/create-checkout", visitor, { channelType: "WEB" })
  const { redirectSession } = await call(platform, "POST", "/_api/redirects-api/v1/redirect-session", visitor, {
    ecomCheckout: { checkoutId },
    callbacks: { postFlowUrl: "http://localhost:3000/cart", thankYouPageUrl: THANKS }
  })
  const page = await openCheckoutPage(redirectSession.fullUrl)
  const paid = await submitCheckoutPage(page, buyerForm(`buyer${n}@example.com`))
  await paid.arrayBuffer()
  if (paid.status !== 303) return undefined
  const thanks = new URL(paid.headers.get("location")!)
  return `${thanks.origin}${thanks.pathname}` === THANKS ? thanks.searchParams.get("orderId") ?? undefined : undefined
}

/** Every stored order, all pages of the admin's search. */
const allOrders = async (platform: Running): Promise<Array<any>> => {
  const out: Array<any> = []
  let cursor: string | undefined
  do {
    const page = await call(platform, "POST", "/ecom/v1/orders/search", platform.apiKey, {
      search: { sort: [{ fieldName: "number", order: "ASC" }], cursorPaging: { limit: 100, ...(cursor === undefined ? {} : { cursor }) } }
    })
    out.push(...page.orders)
    cursor = page.metadata?.hasNext === true ? page.metadata.cursors.next : undefined
  } while (cursor !== undefined)
  return out
}

describe("a platform killed while buyers pay", () => {
  it("loses no acknowledged order: every one is there after a restart, numbered without gaps, and the stock matches the orders", async () => {
    const dir = mkdtempSync(join(tmpdir(), "sitefx-kill-"))
    const db = join(dir, "site.db")
    try {
      const first = await serve(db)
      const item = await trackedProduct(first)

      const acknowledged = new Map<string, number>()
      const failedByKill: Array<string> = []
      let killed = false
      let n = 0
      let killedAt = -1
      const buyer = async (): Promise<void> => {
        while (!killed) {
          const i = n++
          // one to three of the lamp, so the stock check weighs quantities, not orders
          const quantity = 1 + (i % 3)
          try {
            const orderId = await purchase(first, item, quantity, i)
            if (orderId !== undefined) acknowledged.set(orderId, quantity)
            else if (!killed) throw new Error(`purchase ${i} was refused before the kill`)
          } catch (error) {
            if (!killed) throw error
            failedByKill.push(String(error))
          }
          if (!killed && acknowledged.size >= KILL_AFTER) {
            killed = true
            killedAt = acknowledged.size
            first.child.kill("SIGKILL")
          }
        }
      }
      await Promise.all(Array.from({ length: BUYERS_AT_ONCE }, buyer))
      await first.exit
      assert.strictEqual(first.child.signalCode, "SIGKILL")
      // the kill was mid-run: purchases were acknowledged before it, and others were cut off by it
      assert.isAtLeast(killedAt, KILL_AFTER)
      assert.isAtLeast(failedByKill.length, 1, "no purchase was under way when the platform was killed")

      const second = await serve(db)
      const orders = (await allOrders(second)).filter((o) => o.lineItems.some((l: any) => l.catalogReference.catalogItemId === item.productId))
      const stored = new Map(orders.map((o) => [o.id as string, o]))
      for (const [id, quantity] of acknowledged) {
        const order = stored.get(id)
        assert.isDefined(order, `acknowledged order ${id} is gone after the restart`)
        assert.strictEqual(order.lineItems[0].quantity, quantity)
        assert.strictEqual(order.paymentStatus, "PAID")
      }
      // cut-off purchases may have committed without their answer arriving: never more than were under way
      assert.isAtMost(orders.length - acknowledged.size, BUYERS_AT_ONCE)

      const numbers = orders.map((o) => Number(o.number)).sort((a, b) => a - b)
      assert.strictEqual(new Set(numbers).size, numbers.length, "order numbers are unique")
      numbers.forEach((number, i) => assert.strictEqual(number, numbers[0]! + i, `order numbers run on without a gap: ${numbers.join(",")}`))

      const sold = orders.reduce((total, o) => total + o.lineItems.reduce((t: number, l: any) => t + l.quantity, 0), 0)
      assert.strictEqual(await stockOf(second, item.productId), STOCK - sold)

      // the restarted platform goes on selling from where the stock stands
      const after = await purchase(second, item, 1, n)
      assert.isString(after)
      assert.strictEqual(await stockOf(second, item.productId), STOCK - sold - 1)
      assert.strictEqual(Number((await call(second, "GET", `/ecom/v1/orders/${after}`, second.apiKey)).order.number), numbers[numbers.length - 1]! + 1)
      second.child.kill("SIGTERM")
      await second.exit
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  }, 180_000)
})
