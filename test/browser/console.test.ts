/**
 * The platform's console in Chromium, served by `sitefx serve` at /_sitefx/console as `npm start` serves
 * it: each panel's main action, at desktop and phone widths (no sideways scrolling at 390 px), with no
 * console error in the page. What the console did is checked through sitefx/dev, the calls a script
 * makes: approve a member and enroll a factor; follow an outbox link and copy a code; filter the request
 * log and see a new request arrive live; redeliver a dead letter; change a setting; switch the production
 * profile on with a plan and a limit an API key then meets, and off; see a query's index advice, alone
 * under its filter and on its refusal under the profile, and create the index it suggests; skew the
 * clock; add and clear a fault; save and restore a snapshot. The store's panels are the owner's: an order placed on
 * the platform's checkout page is found, opened, fulfilled and canceled (its stock back), an unpaid order
 * is marked as paid, each checked through sitefx/ecom; an abandoned cart shows and then shows recovered;
 * axe-core audits both panels. And another site's page cannot frame it.
 */
import { assert, describe, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as http from "node:http"
import type { AddressInfo } from "node:net"
import type { Page } from "playwright-core"
import * as Products from "../../src/catalog/Products.ts"
import * as Indexes from "../../src/data/Indexes.ts"
import * as Dev from "../../src/dev/index.ts"
import { Cart, Checkout, Orders, STORES_APP_ID } from "../../src/ecom/index.ts"
import type { PlatformClient } from "../../src/http/PlatformClient.ts"
import type { PlatformConfig } from "../../src/http/PlatformConfig.ts"
import type { PlatformError } from "../../src/http/PlatformError.ts"
import type { PlatformHttp } from "../../src/http/PlatformHttp.ts"
import { Site } from "../../src/Site.ts"
import { buyerForm, openCheckoutPage, submitCheckoutPage } from "../support/checkoutPage.ts"
import { expectAccessible } from "./axe.ts"
import { browserSession, DESKTOP, PHONE, screenshot } from "./support.ts"

const session = browserSession()

/** Runs sitefx/dev calls against the served platform, as a script would. */
const dev = <A>(effect: Effect.Effect<A, PlatformError, PlatformHttp | PlatformConfig>): Promise<A> =>
  Effect.runPromise(Effect.provide(effect, Dev.layer({ baseUrl: session.platform.url })))

/** Runs an admin call with the site's API key, as the site's owner's script would. */
const owner = <A, E>(effect: Effect.Effect<A, E, PlatformClient>): Promise<A> =>
  Effect.runPromise(Effect.provide(effect, Site.apiKey({ baseUrl: session.platform.url, apiKey: session.platform.apiKey, siteId: session.platform.siteId })))

/**
 * A shopper's purchase on the platform: `quantity` of a new product that tracks its stock (5 of it), paid
 * on the hosted checkout page as a browser would post its form. Gives the order's id and the product's.
 */
const placeOrder = async (email: string, quantity: number): Promise<{ readonly orderId: string; readonly productId: string }> => {
  const { url } = session.platform
  const product = await owner(Effect.flatMap(
    Products.create({ name: unique("Console Lamp"), priceData: { price: 40 }, stock: { trackInventory: true, quantity: 5 } }),
    (p) => Products.get(p.id!)
  ))
  const pageUrl = await Effect.runPromise(Effect.gen(function*() {
    yield* Cart.add([{ catalogReference: { appId: STORES_APP_ID, catalogItemId: product.id!, options: { variantId: product.variants![0]!.id! } }, quantity }])
    const checkoutId = yield* Checkout.createFromCurrentCart()
    yield* Checkout.update(checkoutId, { buyerInfo: { email } })
    return yield* Checkout.redirect(checkoutId, { postFlowUrl: `${url}/cart`, thankYouPageUrl: `${url}/thank-you` })
  }).pipe(Effect.provide(Site.layer({ clientId: "sitefx-local-client", baseUrl: url }))))
  const paid = await submitCheckoutPage(await openCheckoutPage(pageUrl), buyerForm(email))
  assert.strictEqual(paid.status, 303)
  const orderId = Checkout.orderIdOf(paid.headers.get("location")!)
  assert.isString(orderId)
  return { orderId: orderId!, productId: product.id! }
}

let counter = 0
const unique = (prefix: string) => `${prefix}-${Date.now().toString(36)}-${counter++}`

/** Registers a member through the platform's API, as a visitor of the site would. */
const register = async (email: string): Promise<string> => {
  const { url } = session.platform
  const token = await fetch(`${url}/oauth2/token`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ clientId: "sitefx-local-client", grantType: "anonymous" })
  }).then((r) => r.json() as Promise<{ access_token: string }>)
  const res = await fetch(`${url}/_api/iam/authentication/v2/register`, {
    method: "POST",
    headers: { "content-type": "application/json", authorization: token.access_token },
    body: JSON.stringify({ loginId: { email }, password: "secret-pass-1" })
  })
  assert.strictEqual(res.status, 200)
  return ((await res.json()) as { identity: { id: string } }).identity.id
}

/** A data call with the site's API key, as an app's server makes it: its status and its answer's Retry-After. */
const keyed = async (path: string, body: unknown): Promise<{ readonly status: number; readonly retryAfter: string | null }> => {
  const res = await fetch(`${session.platform.url}/wix-data/v2${path}`, {
    method: "POST",
    headers: { authorization: session.platform.apiKey, "content-type": "application/json" },
    body: JSON.stringify(body)
  })
  await res.arrayBuffer()
  return { status: res.status, retryAfter: res.headers.get("retry-after") }
}

/** The production profile as the platform starts: off, a free plan, 200 calls a minute, 500 000 items a second. */
const PROFILE_OFF = { profile: "none", plan: "free", rateLimit: 200, rateLimitWindowSeconds: 60, scanRowsPerSecond: 500_000 } as const

/** Opens a panel of the console in a fresh browser profile; its page times out before the test does. */
const open = async (viewport: typeof DESKTOP | typeof PHONE, panel: string, heading: string) => {
  const opened = await session.open(viewport)
  opened.page.setDefaultTimeout(15_000)
  await opened.context.grantPermissions(["clipboard-read", "clipboard-write"], { origin: session.platform.url })
  await opened.page.goto(`${session.platform.url}/_sitefx/console#${panel}`)
  await opened.page.getByRole("heading", { level: 1, name: heading }).waitFor()
  return opened
}

/** The page fits its width: nothing scrolls sideways. */
const fitsWidth = async (page: Page) => {
  const [scroll, client] = await page.evaluate(() => [document.documentElement.scrollWidth, document.documentElement.clientWidth])
  assert.isAtMost(scroll, client, "the page scrolls sideways")
}

const VIEWPORTS = [["desktop", DESKTOP], ["phone", PHONE]] as const

/** One test per viewport: the panel's action, then the page's width and its console checked. */
const atBothSizes = (title: string, panel: string, heading: string, body: (page: Page, size: string) => Promise<void>) => {
  for (const [size, viewport] of VIEWPORTS) {
    it(`${title} (${size})`, async () => {
      const { context, page, problems } = await open(viewport, panel, heading)
      try {
        await body(page, size)
        await fitsWidth(page)
        await screenshot(page, `console-${panel}-${size}`)
        assert.deepStrictEqual(problems, [])
      } finally {
        await context.close()
      }
    }, 60_000)
  }
}

describe("the console in Chromium", () => {
  atBothSizes("members: a member waiting for approval is approved; a TOTP factor is enrolled and removed", "members", "Members", async (page, size) => {
    const email = `${unique(`waiting-${size}`)}@example.com`
    await dev(Dev.Settings.update({ ownerApproval: true }))
    const id = await register(email).finally(() => dev(Dev.Settings.update({ ownerApproval: false })))
    await page.getByRole("button", { name: "Refresh" }).click()
    await page.getByLabel("Find by email").fill(email)
    const card = page.getByRole("list", { name: "Members" }).getByRole("listitem").filter({ hasText: email })
    await card.getByText("pending", { exact: true }).waitFor()
    await page.getByRole("button", { name: `Approve ${email}` }).click()
    await page.getByRole("status").filter({ hasText: `Approved ${email}` }).waitFor()
    await card.getByText("active", { exact: true }).waitFor()
    assert.strictEqual((await dev(Dev.Members.list({ email })))[0]?.status?.name, "ACTIVE")
    assert.isTrue(await page.getByRole("button", { name: `Approve ${email}` }).isDisabled())

    // a TOTP factor: its secret is shown to copy, the member has it, and it is removed again
    await card.getByRole("button", { name: "Enroll" }).click()
    const secret = page.getByRole("status").filter({ hasText: `Enrolled a TOTP factor for ${email}` }).locator("code")
    await secret.waitFor()
    assert.match(await secret.innerText(), /^[A-Z2-7]+=*$/)
    const [member] = await dev(Dev.Members.list({ email }))
    assert.deepStrictEqual(member?.factors?.map((f) => f.type), ["TOTP"])
    assert.strictEqual(member?.id, id)
    await page.getByRole("button", { name: `Remove ${email}'s TOTP factor` }).click()
    await page.getByRole("status").filter({ hasText: `Removed ${email}'s TOTP factor` }).waitFor()
    assert.deepStrictEqual((await dev(Dev.Members.list({ email })))[0]?.factors ?? [], [])
  })

  atBothSizes("outbox: a recovery link opens, an email verification code is copied", "outbox", "Outbox", async (page, size) => {
    const { url } = session.platform
    const email = `${unique(`outbox-${size}`)}@example.com`
    await dev(Dev.Settings.update({ emailVerification: true }))
    await register(email).finally(() => dev(Dev.Settings.update({ emailVerification: false })))
    const token = await fetch(`${url}/oauth2/token`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ clientId: "sitefx-local-client", grantType: "anonymous" })
    }).then((r) => r.json() as Promise<{ access_token: string }>)
    const sent = await fetch(`${url}/_api/iam/recovery/v1/send-email`, {
      method: "POST",
      headers: { "content-type": "application/json", authorization: token.access_token },
      body: JSON.stringify({ email, redirect: { url: `${url}/#/member` } })
    })
    assert.strictEqual(sent.status, 200)
    const messages = await dev(Dev.Outbox.list({ to: email }))
    const code = messages.find((m) => m.kind === "EMAIL_VERIFICATION")?.code
    const link = messages.find((m) => m.kind === "RECOVERY")?.link
    assert.isString(code)
    assert.isString(link)

    await page.getByLabel("To address").fill(email)
    await page.getByRole("button", { name: "Show" }).click()
    const list = page.getByRole("list", { name: "Messages" })
    await list.getByRole("listitem").nth(1).waitFor()
    assert.strictEqual(await list.getByRole("listitem").count(), 2)

    const opened = page.context().waitForEvent("page")
    await list.getByRole("link", { name: "Open the password recovery link" }).click()
    const tab = await opened
    await tab.waitForLoadState()
    assert.strictEqual(tab.url(), link)
    await tab.close()

    await list.getByRole("button", { name: `Copy code ${code}` }).click()
    await list.getByRole("button", { name: `Copy code ${code}` }).getByText("Copied").waitFor()
    assert.strictEqual(await page.evaluate(() => navigator.clipboard.readText()), code)
  })

  atBothSizes("requests: a filtered log shows a new request arrive live", "requests", "Requests", async (page, size) => {
    const { url } = session.platform
    const path = `/no-such-route/${unique(size)}`
    await page.getByLabel("Path starts with").fill(path)
    await page.getByLabel("Status").selectOption("404")
    await page.getByRole("button", { name: "Apply filters" }).click()
    await page.getByText("No request matches yet.").waitFor()
    // let the tail's long poll start, then make requests from elsewhere: the matching one appears
    await page.waitForTimeout(500)
    await fetch(`${url}${path}`, { method: "DELETE" })
    await fetch(`${url}/_sitefx/health`)
    const log = page.getByRole("list", { name: "Requests" })
    const row = log.getByRole("listitem").filter({ hasText: path })
    await row.waitFor()
    assert.include(await row.innerText(), "DELETE")
    assert.include(await row.innerText(), "404")
    assert.include(await row.innerText(), "NOT_FOUND")
    await fetch(`${url}${path}/second`)
    await log.getByRole("listitem").filter({ hasText: `${path}/second` }).waitFor()
    assert.strictEqual(await log.getByRole("listitem").count(), 2)
    assert.include(await log.getByRole("listitem").first().innerText(), `${path}/second`)
  })

  atBothSizes("events: a dead letter is redelivered to a receiver that is back", "events", "Events and webhooks", async (page, size) => {
    // a receiver that refuses (404: not retried, so the delivery is a dead letter at once), then accepts
    let accept = false
    let delivered = 0
    const receiver = http.createServer((req, res) => {
      req.resume()
      req.on("end", () => {
        if (accept) delivered += 1
        res.writeHead(accept ? 200 : 404).end()
      })
    })
    await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve))
    const hook = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/${size}`
    try {
      await page.getByLabel("Receiver URL").fill(hook)
      await page.getByLabel("Event types (optional, comma-separated)").fill("wix.data.v2.data_item_created")
      await page.getByRole("button", { name: "Subscribe" }).click()
      await page.getByRole("list", { name: "Subscriptions" }).getByText(hook).waitFor()
      const webhook = (await dev(Dev.Webhooks.list)).find((w) => w.url === hook)!
      assert.deepStrictEqual(webhook.eventTypes, ["wix.data.v2.data_item_created"])

      const { url, apiKey } = session.platform
      const res = await fetch(`${url}/wix-data/v2/items`, {
        method: "POST",
        headers: { authorization: apiKey, "content-type": "application/json" },
        body: JSON.stringify({ dataCollectionId: "Posts", dataItem: { data: { title: `For the receiver ${size}` } } })
      })
      assert.strictEqual(res.status, 200)
      for (let i = 0; i < 100 && (await dev(Dev.Webhooks.deadLetters({ webhookId: webhook.id }))).length === 0; i++) await page.waitForTimeout(100)
      const [letter] = await dev(Dev.Webhooks.deadLetters({ webhookId: webhook.id }))
      assert.strictEqual(letter?.lastStatus, 404)

      await page.getByRole("button", { name: "Refresh" }).click()
      const redeliver = page.getByRole("button", { name: `Redeliver the wix.data.v2.data_item_created event ${letter!.eventId} to ${hook}` })
      await redeliver.waitFor()
      accept = true
      await redeliver.click()
      await page.getByRole("status").filter({ hasText: "Redelivering the wix.data.v2.data_item_created event" }).waitFor()
      for (let i = 0; i < 100 && (await dev(Dev.Webhooks.deadLetters({ webhookId: webhook.id }))).length > 0; i++) await page.waitForTimeout(100)
      assert.deepStrictEqual(await dev(Dev.Webhooks.deadLetters({ webhookId: webhook.id })), [])
      assert.strictEqual(delivered, 1)
      await page.getByRole("button", { name: "Refresh" }).click()
      await redeliver.waitFor({ state: "detached" })

      await page.getByRole("button", { name: `Unsubscribe ${hook}` }).click()
      await page.getByRole("status").filter({ hasText: `Unsubscribed ${hook}` }).waitFor()
      assert.isFalse((await dev(Dev.Webhooks.list)).some((w) => w.url === hook))
    } finally {
      await new Promise<void>((resolve) => receiver.close(() => resolve()))
    }
  })

  atBothSizes("orders: a placed order is found, opened, fulfilled and canceled; an unpaid one is marked as paid", "orders", "Orders", async (page, size) => {
    const email = `${unique(`buyer-${size}`)}@example.com`
    const { orderId, productId } = await placeOrder(email, 2)
    const placed = await owner(Orders.get(orderId))
    assert.strictEqual(placed.paymentStatus, "PAID")
    assert.strictEqual(placed.fulfillmentStatus, "NOT_FULFILLED")
    const number = placed.number!

    // the order, found by its buyer: one row, newest first
    await page.getByLabel("Buyer email or order number").fill(email)
    await page.getByRole("button", { name: "Find orders" }).click()
    const table = page.getByRole("table", { name: /^Orders, newest first/ })
    const row = table.getByRole("row").filter({ has: page.getByRole("button", { name: `Order ${number}` }) })
    await row.waitFor()
    assert.strictEqual(await table.getByRole("rowheader").count(), 1)
    assert.include(await row.innerText(), email)
    assert.include(await row.innerText(), "$85.00")
    await row.getByText("not fulfilled", { exact: true }).waitFor()

    // opened: its lines and buyer, and what the owner does to it
    await page.getByRole("button", { name: `Order ${number}` }).click()
    assert.strictEqual(await page.getByRole("button", { name: `Order ${number}` }).getAttribute("aria-expanded"), "true")
    const detail = page.getByRole("region", { name: `Order ${number}` })
    await detail.getByRole("list", { name: `Lines of order ${number}` }).getByText(/^2 × Console Lamp/).waitFor()
    await detail.getByText("Ada Lovelace", { exact: false }).waitFor()
    await detail.getByText("Nothing fulfilled yet.").waitFor()
    assert.isTrue(await detail.getByRole("button", { name: "Mark as paid" }).isDisabled())
    await expectAccessible(page, `orders, an order open (${size})`)

    await detail.getByRole("button", { name: "Fulfil all remaining" }).click()
    await page.getByRole("status").filter({ hasText: `Fulfilled what was left of order ${number} (now fulfilled).` }).waitFor()
    assert.strictEqual((await owner(Orders.get(orderId))).fulfillmentStatus, "FULFILLED")
    assert.lengthOf(await owner(Orders.fulfillments(orderId)), 1)
    // the list and the order's fulfillments were read again
    await row.getByText("fulfilled", { exact: true }).waitFor()
    await detail.getByText("2 item(s)").waitFor()
    assert.isTrue(await detail.getByRole("button", { name: "Fulfil all remaining" }).isDisabled())

    await detail.getByRole("button", { name: "Cancel and restock" }).click()
    await page.getByRole("status").filter({ hasText: `Order ${number} is canceled; its items are back in stock.` }).waitFor()
    assert.strictEqual((await owner(Orders.get(orderId))).status, "CANCELED")
    assert.strictEqual((await owner(Products.get(productId))).stock?.quantity, 5)
    await row.getByText("canceled", { exact: true }).waitFor()

    // an order not paid yet (the demo store has two), found by its number and marked as paid
    const unpaid = (await owner(Orders.search().eq("paymentStatus", "NOT_PAID").eq("status", "APPROVED").ascending("number").limit(1).find)).orders[0]!
    await page.getByLabel("Buyer email or order number").fill(unpaid.number!)
    await page.getByLabel("Payment").selectOption("NOT_PAID")
    await page.getByRole("button", { name: "Find orders" }).click()
    await page.getByRole("button", { name: `Order ${unpaid.number}` }).click()
    const unpaidDetail = page.getByRole("region", { name: `Order ${unpaid.number}` })
    await unpaidDetail.getByRole("button", { name: "Mark as paid" }).click()
    await page.getByRole("status").filter({ hasText: `Order ${unpaid.number} is marked as paid (payment paid).` }).waitFor()
    assert.strictEqual((await owner(Orders.get(unpaid.id!))).paymentStatus, "PAID")
    // read again under its filter (not paid), the order is gone from the list
    await page.getByText("No order matches.", { exact: false }).waitFor()
  })

  atBothSizes("carts: abandoned carts show a page at a time; one shows recovered", "carts", "Abandoned carts", async (page, size) => {
    const { url } = session.platform
    const leaver = unique(`leaver-${size}`)
    const email = `${leaver}@example.com`
    const abandon = async (buyerInfo: object, total: number, abandonTime: string) => {
      const made = await fetch(`${url}/_sitefx/store/abandoned-carts`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ buyerInfo, total, currency: "USD", abandonTime })
      })
      assert.strictEqual(made.status, 200)
      return ((await made.json()) as { abandonedCart: { id: string } }).abandonedCart.id
    }
    // twenty carts of other buyers whose emails start the same, abandoned before it: a page and one more
    for (let i = 0; i < 20; i++) await abandon({ email: `${leaver}-${i}@example.com`, identityType: "VISITOR" }, i, new Date(Date.now() - (i + 1) * 60_000).toISOString())
    const cartId = await abandon({ email, firstName: "Cart", lastName: "Leaver", identityType: "CONTACT" }, 42.5, new Date().toISOString())
    await page.getByText("Open carts are not listed").waitFor()

    await page.getByLabel("Buyer email starts with").fill(leaver)
    await page.getByRole("button", { name: "Find carts" }).click()
    await page.getByRole("table", { name: "Abandoned carts, most recent first: 20 shown of 21" }).waitFor()
    await page.getByRole("button", { name: "Load more carts" }).click()
    const all = page.getByRole("table", { name: "Abandoned carts, most recent first: 21 shown of 21" })
    await all.waitFor()
    assert.strictEqual(await all.getByRole("rowheader").count(), 21)
    assert.include(await all.getByRole("rowheader").first().innerText(), email)
    await page.getByText("That is every cart that matches.").waitFor()

    await page.getByLabel("Buyer email starts with").fill(email)
    await page.getByRole("button", { name: "Find carts" }).click()
    const table = page.getByRole("table", { name: /^Abandoned carts, most recent first: 1 shown of 1$/ })
    const row = table.getByRole("row").filter({ hasText: email })
    await row.waitFor()
    assert.include(await row.innerText(), "$42.50")
    assert.include(await row.innerText(), "Cart Leaver")
    assert.include(await row.innerText(), cartId)
    await row.getByText("abandoned", { exact: true }).waitFor()
    await expectAccessible(page, `carts (${size})`)

    const recovered = await fetch(`${url}/_sitefx/store/abandoned-carts/${encodeURIComponent(cartId)}/recover`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: "{}"
    })
    assert.strictEqual(recovered.status, 200)
    await page.getByRole("button", { name: "Refresh" }).click()
    await row.getByText("recovered", { exact: true }).waitFor()
    await page.getByLabel("Status").selectOption("ABANDONED")
    await page.getByRole("button", { name: "Find carts" }).click()
    await page.getByText("No abandoned cart matches.").waitFor()
  })

  atBothSizes("settings: a switch and the token lifetime are changed", "settings", "Settings", async (page) => {
    const approval = page.getByRole("checkbox", { name: "Owner approval" })
    assert.isFalse(await approval.isChecked())
    await approval.check()
    await page.getByRole("status").filter({ hasText: "Owner approval is now on." }).waitFor()
    assert.isTrue((await dev(Dev.Settings.get)).ownerApproval)
    await approval.uncheck()
    await page.getByRole("status").filter({ hasText: "Owner approval is now off." }).waitFor()
    assert.isFalse((await dev(Dev.Settings.get)).ownerApproval)

    await page.getByLabel("Access token lifetime (seconds)").fill("900")
    await page.getByRole("button", { name: "Save lifetime" }).click()
    await page.getByRole("status").filter({ hasText: "Access tokens now last 900 seconds." }).waitFor()
    assert.strictEqual((await dev(Dev.Settings.get)).accessTokenTtlSeconds, 900)
    await dev(Dev.Settings.update({ accessTokenTtlSeconds: 14400 }))
  })

  atBothSizes("clock and faults: the clock is skewed and put back; a fault is added and cleared", "clock", "Clock and faults", async (page) => {
    await page.getByLabel("Skew in seconds (negative: behind)").fill("3600")
    await page.getByRole("button", { name: "Set skew" }).click()
    await page.getByText("1 hour ahead", { exact: true }).waitFor()
    assert.strictEqual((await dev(Dev.Clock.get)).skewSeconds, 3600)
    await page.getByRole("button", { name: "Back in step" }).click()
    await page.getByText("in step with this machine", { exact: true }).waitFor()
    assert.strictEqual((await dev(Dev.Clock.get)).skewSeconds, 0)

    await page.getByLabel("Path starts with").fill("/stores/v1/products")
    await page.getByLabel("Answer").selectOption("429")
    await page.getByLabel("Requests", { exact: true }).fill("2")
    await page.getByLabel("Retry-After seconds (optional)").fill("1")
    await page.getByRole("button", { name: "Add fault" }).click()
    const pending = page.getByRole("list", { name: "Pending faults" })
    await pending.getByText("under /stores/v1/products").waitFor()
    const [added] = await dev(Dev.Faults.list)
    assert.deepStrictEqual(added, { id: added!.id, path: "/stores/v1/products", status: 429, count: 2, retryAfter: 1, hits: 0 })

    await page.getByLabel("Path starts with").fill("/wix-data/v2/items")
    await page.getByLabel("Method").selectOption("POST")
    await page.getByLabel("Fault", { exact: true }).selectOption("reset")
    await page.getByLabel("When").selectOption("after")
    await page.getByLabel("Requests", { exact: true }).fill("3")
    await page.getByRole("button", { name: "Add fault" }).click()
    await pending.getByText("reset after the route ran").waitFor()
    const reset = (await dev(Dev.Faults.list))[1]!
    assert.deepStrictEqual(reset, { id: reset.id, path: "/wix-data/v2/items", method: "POST", kind: "reset", when: "after", count: 3, hits: 0 })
    // a request it faults shows in its hits
    const faulted = await fetch(`${session.platform.url}/stores/v1/products/query`, { method: "POST", body: "{}" })
    assert.strictEqual(faulted.status, 429)
    await page.getByRole("button", { name: "Refresh faults" }).click()
    await pending.getByText("faulted 1 so far").waitFor()
    await page.getByRole("button", { name: `Remove fault ${reset.id}` }).click()
    await pending.getByText("reset after the route ran").waitFor({ state: "detached" })
    assert.deepStrictEqual((await dev(Dev.Faults.list)).map((f) => f.id), [added!.id])
    await page.getByRole("button", { name: "Clear all faults" }).click()
    await page.getByText("No fault is pending").waitFor()
    assert.deepStrictEqual(await dev(Dev.Faults.list), [])
  })

  atBothSizes("settings: the production profile is switched on with a plan and a limit that an API key meets, and off", "settings", "Settings", async (page, size) => {
    const { url } = session.platform
    const cheap = { dataCollectionId: "Posts", query: { paging: { limit: 1 } } }
    try {
      const profile = page.getByRole("region", { name: "Production profile" })
      await profile.getByText("The production profile is off").waitFor()
      const on = profile.getByRole("checkbox", { name: "Production profile" })
      assert.isFalse(await on.isChecked())
      await on.check()
      await page.getByRole("status").filter({ hasText: "The production profile is now on." }).waitFor()
      // the platform's own endpoint reads it on, as any script would
      const read = await fetch(`${url}/_sitefx/profile`).then((r) => r.json() as Promise<{ profile: string }>)
      assert.strictEqual(read.profile, "production")

      await profile.getByLabel("Plan").selectOption("elite")
      await page.getByRole("status").filter({ hasText: "The plan is now elite: data calls may run 10 s." }).waitFor()
      await profile.getByLabel("Calls per window").fill("3")
      await profile.getByLabel("Window (seconds)").fill("60")
      await profile.getByRole("button", { name: "Save limit" }).click()
      await page.getByRole("status").filter({ hasText: "API keys may now make 3 calls every 60 seconds." }).waitFor()
      await profile.getByText("an API key may make 3 calls every 60 seconds").waitFor()
      await profile.getByText("5,000,000 unindexed items", { exact: false }).waitFor()
      assert.deepStrictEqual(await dev(Dev.Profile.get), { ...PROFILE_OFF, profile: "production", plan: "elite", rateLimit: 3 })
      await expectAccessible(page, `settings, the production profile on (${size})`)

      // an app's calls with the API key meet the limit: the fourth of the window is refused
      const answers = [await keyed("/items/query", cheap), await keyed("/items/query", cheap), await keyed("/items/query", cheap), await keyed("/items/query", cheap)]
      assert.deepStrictEqual(answers.map((a) => a.status), [200, 200, 200, 429])
      assert.isAtLeast(Number(answers[3]!.retryAfter), 1)

      await profile.getByRole("button", { name: "The platform's limit" }).click()
      await page.getByRole("status").filter({ hasText: "API keys may now make 200 calls every 60 seconds, the platform's limit." }).waitFor()
      assert.isTrue(await profile.getByRole("button", { name: "The platform's limit" }).isDisabled())
      await on.uncheck()
      await page.getByRole("status").filter({ hasText: "The production profile is now off." }).waitFor()
      await profile.getByText("The production profile is off").waitFor()
      assert.strictEqual((await fetch(`${url}/_sitefx/profile`).then((r) => r.json() as Promise<{ profile: string }>)).profile, "none")
      assert.strictEqual((await keyed("/items/query", cheap)).status, 200)
    } finally {
      await dev(Dev.Profile.set(PROFILE_OFF))
    }
  })

  atBothSizes("requests: a query's index advice shows, alone under its filter, refused under the profile, and its index is created", "requests", "Requests", async (page, size) => {
    const collection = unique(`Advised_${size}`).replace(/-/g, "_")
    try {
      // 2 items a second stand for a data call's time: a free plan's 5 s are 10 items, and the collection has 12
      await dev(Dev.Profile.set({ profile: "none", plan: "free", scanRowsPerSecond: 2 }))
      assert.strictEqual((await keyed("/collections", { collection: { id: collection } })).status, 200)
      const items = Array.from({ length: 12 }, (_, i) => ({ data: { rank: i % 3, likes: i } }))
      assert.strictEqual((await keyed("/bulk/items/insert", { dataCollectionId: collection, dataItems: items })).status, 200)

      await page.getByLabel("Path starts with").fill("/wix-data/v2/items/query")
      await page.getByLabel("Only queries with an index advice").check()
      await page.getByRole("button", { name: "Apply filters" }).click()
      // the log shows advised queries only (an earlier test's, if any)
      const log = page.getByRole("list", { name: "Requests" })
      await log.getByRole("listitem").filter({ hasNotText: "Index advice" }).first().waitFor({ state: "detached" })
      await page.getByText(/^Live\. (No request matches yet\.|\d+ shown\.)$/).waitFor()
      const shown = await log.getByRole("listitem").count()
      // let the tail's long poll start; then a query that reads only its page (no advice), and one that filters and sorts without an index
      await page.waitForTimeout(500)
      assert.strictEqual((await keyed("/items/query", { dataCollectionId: collection, query: { paging: { limit: 2 } } })).status, 200)
      const filtered = { dataCollectionId: collection, query: { filter: { rank: 1 }, sort: [{ fieldName: "likes" }] } }
      assert.strictEqual((await keyed("/items/query", filtered)).status, 200)
      const answered = log.getByRole("listitem").filter({ hasText: collection })
      await answered.waitFor()
      assert.strictEqual(await log.getByRole("listitem").count(), shown + 1)
      assert.strictEqual(await log.getByRole("listitem").filter({ hasNotText: "Index advice" }).count(), 0)
      const text = await answered.innerText()
      assert.include(text, "200")
      assert.include(text, `Index advice: scanned 12 items of ${collection} without an index; index rank, then likes`)

      // under the profile the same query is refused as timed out: its rule and its advice show
      await dev(Dev.Profile.set({ profile: "production" }))
      assert.strictEqual((await keyed("/items/query", filtered)).status, 429)
      const refused = answered.filter({ hasText: "data.query.timeout" })
      await refused.waitFor()
      assert.include(await refused.innerText(), "429")
      assert.include(await refused.innerText(), "WDE0028")
      assert.include(await refused.innerText(), `scanned 12 items of ${collection}`)
      await expectAccessible(page, `requests, index advice (${size})`)

      // the advice's button creates the index; once built, the query answers under the profile
      await refused.getByRole("button", { name: `Create index by_rank_likes on ${collection}` }).click()
      await page.getByRole("status").filter({ hasText: `The index by_rank_likes of ${collection} is building` }).waitFor()
      const index = await owner(Indexes.awaitActive(collection, "by_rank_likes", { timeout: "30 seconds" }))
      assert.deepStrictEqual(index.fields?.map((f) => f.path), ["rank", "likes"])
      assert.strictEqual((await keyed("/items/query", filtered)).status, 200)
    } finally {
      await dev(Dev.Profile.set(PROFILE_OFF))
    }
  })

  atBothSizes("snapshots: a snapshot is saved, restored and downloadable", "snapshots", "Snapshots", async (page, size) => {
    const name = unique(`console-${size}`)
    await page.getByLabel("Name").fill(name)
    await page.getByRole("button", { name: "Save snapshot" }).click()
    await page.getByRole("status").filter({ hasText: `Saved ${name}` }).waitFor()
    await page.getByRole("list", { name: "Snapshots" }).getByText(name, { exact: true }).waitFor()
    assert.isTrue((await dev(Dev.Snapshots.list)).some((s) => s.name === name))

    const email = `${unique(`after-${size}`)}@example.com`
    await register(email)
    await page.getByRole("button", { name: `Restore ${name}` }).click()
    await page.getByRole("status").filter({ hasText: `Restored ${name}` }).waitFor()
    assert.deepStrictEqual(await dev(Dev.Members.list({ email })), [])

    const download = page.getByRole("link", { name: `Download ${name}` })
    assert.strictEqual(await download.getAttribute("href"), Dev.Snapshots.filePath(name))
    const file = await fetch(`${session.platform.url}${Dev.Snapshots.filePath(name)}`)
    assert.strictEqual(file.status, 200)
    assert.match(file.headers.get("content-disposition") ?? "", /^attachment/)

    await page.getByRole("button", { name: `Delete ${name}` }).click()
    await page.getByRole("status").filter({ hasText: `Deleted ${name}` }).waitFor()
    assert.isFalse((await dev(Dev.Snapshots.list)).some((s) => s.name === name))
  })

  it("another site's page cannot frame the console", async () => {
    // a page at localhost (another site than 127.0.0.1 to the browser) with the console in a frame
    const target = `${session.platform.url}/_sitefx/console`
    const foreign = http.createServer((_req, res) => {
      res.writeHead(200, { "content-type": "text/html" }).end(`<!doctype html><title>elsewhere</title><iframe src="${target}" title="console"></iframe>`)
    })
    await new Promise<void>((resolve) => foreign.listen(0, "127.0.0.1", resolve))
    const { context, page } = await session.open(DESKTOP)
    try {
      const refused = page.waitForResponse((r) => r.url() === target)
      await page.goto(`http://localhost:${(foreign.address() as AddressInfo).port}/`)
      assert.strictEqual((await refused).status(), 403)
      await page.waitForTimeout(300)
      const frame = page.frames().find((f) => f !== page.mainFrame())
      assert.isFalse(await frame!.getByRole("heading", { name: "Members" }).isVisible().catch(() => false))
    } finally {
      await context.close()
      await new Promise<void>((resolve) => foreign.close(() => resolve()))
    }
  })
})
