/**
 * The platform's console in Chromium, served by `sitefx serve` at /_sitefx/console as `npm start` serves
 * it: each panel's main action, at desktop and phone widths (no sideways scrolling at 390 px), with no
 * console error in the page. What the console did is checked through sitefx/dev, the calls a script
 * makes: approve a member and enroll a factor; follow an outbox link and copy a code; filter the request
 * log and see a new request arrive live; redeliver a dead letter; change a setting; skew the clock; add
 * and clear a fault; save and restore a snapshot. And another site's page cannot frame it.
 */
import { assert, describe, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as http from "node:http"
import type { AddressInfo } from "node:net"
import type { Page } from "playwright-core"
import * as Dev from "../../src/dev/index.ts"
import type { PlatformConfig } from "../../src/http/PlatformConfig.ts"
import type { PlatformError } from "../../src/http/PlatformError.ts"
import type { PlatformHttp } from "../../src/http/PlatformHttp.ts"
import { browserSession, DESKTOP, PHONE, screenshot } from "./support.ts"

const session = browserSession()

/** Runs sitefx/dev calls against the served platform, as a script would. */
const dev = <A>(effect: Effect.Effect<A, PlatformError, PlatformHttp | PlatformConfig>): Promise<A> =>
  Effect.runPromise(Effect.provide(effect, Dev.layer({ baseUrl: session.platform.url })))

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
