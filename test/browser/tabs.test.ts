/**
 * Two tabs of the app in one Chromium profile (a persistent context: one localStorage, one cookie jar),
 * as `npm start` serves it: a login in one tab shows in the other and so does a logout; across an
 * access-token expiry the two tabs, which wake at the same moment to renew it, make exactly one refresh
 * (with Web Locks, and with the storage lock where a browser has no Web Locks); after the platform's
 * clock moves past the token's expiry, two tabs refused with a 401 at the same moment make exactly one
 * refresh. Token requests are counted as the browser sends them.
 */
import { afterAll, assert, beforeAll, describe, it } from "@effect/vitest"
import { mkdtempSync, rmSync } from "node:fs"
import { join } from "node:path"
import { chromium, type Page, type Route } from "playwright-core"
import { buildApp, CHROMIUM, CHROMIUM_ARGS, DESKTOP, OUTPUT, PHONE, type Platform, screenshot, startPlatform, watch } from "./support.ts"

let platform: Platform
beforeAll(async () => {
  await buildApp()
  platform = await startPlatform()
}, 120_000)
afterAll(() => {
  platform?.child.kill("SIGTERM")
})

const DEMO = { email: "demo@sitefx.dev", password: "sitefx-demo" }

const dev = async (path: string, method: string, body: unknown) => {
  const res = await fetch(`${platform.url}/_sitefx${path}`, { method, headers: { "content-type": "application/json" }, body: JSON.stringify(body) })
  if (!res.ok) throw new Error(`dev ${path}: ${res.status} ${await res.text()}`)
  return res.json()
}

/** Two tabs sharing one profile; every token request either sends is recorded with its grant type. */
const twoTabs = async (viewport: { readonly width: number; readonly height: number }, options: { readonly webLocks: boolean }) => {
  const dir = mkdtempSync(join(OUTPUT, "tmp", "profile-"))
  const context = await chromium.launchPersistentContext(dir, { executablePath: CHROMIUM, args: CHROMIUM_ARGS, headless: true, viewport })
  // a browser without Web Locks: the session falls back to its storage lock
  if (!options.webLocks) await context.addInitScript(() => Object.defineProperty(Navigator.prototype, "locks", { get: () => undefined }))
  const problems: Array<string> = []
  const grants: Array<string> = []
  context.on("request", (request) => {
    if (new URL(request.url()).pathname === "/oauth2/token") grants.push(String((request.postDataJSON() as { grantType?: string } | null)?.grantType))
  })
  const a = context.pages()[0] ?? await context.newPage()
  const b = await context.newPage()
  for (const page of [a, b]) {
    page.setDefaultTimeout(20_000)
    watch(page, problems)
  }
  const close = async () => {
    await context.close()
    rmSync(dir, { recursive: true, force: true })
  }
  return { context, a, b, problems, grants, refreshes: () => grants.filter((g) => g === "refresh_token").length, close }
}

const signedIn = (page: Page) => page.getByRole("status").filter({ hasText: `Signed in as ${DEMO.email}` }).waitFor()
const signInForm = (page: Page) => page.getByRole("form", { name: "Sign in" })

const openMember = async (...pages: ReadonlyArray<Page>) => {
  for (const page of pages) {
    await page.goto(`${platform.url}/#/member`)
    await signInForm(page).waitFor()
  }
}

const signIn = async (page: Page) => {
  const form = signInForm(page)
  await form.getByLabel("Email").fill(DEMO.email)
  await form.getByLabel("Password").fill(DEMO.password)
  await form.getByRole("button", { name: "Sign in" }).click()
  await signedIn(page)
}

const until = async (check: () => boolean, what: string, timeoutMs = 20_000) => {
  const start = Date.now()
  while (!check()) {
    if (Date.now() - start > timeoutMs) throw new Error(`timed out waiting for ${what}`)
    await new Promise((r) => setTimeout(r, 50))
  }
}

/** Chromium logs a 401 as a console error; the platform refusing an expired token is expected where it is provoked. */
const besides401 = (problems: ReadonlyArray<string>) =>
  problems.filter((p) => !p.includes("Failed to load resource: the server responded with a status of 401"))

// a busy machine (two cores shared) slows two tabs down: generous timeouts, never needed when it is quiet
describe("tabs sharing a session in Chromium", { timeout: 60_000 }, () => {
  for (const [name, viewport] of [["desktop", DESKTOP], ["phone", PHONE]] as const) {
    it(`a login in one tab shows in the other, and a logout too (${name})`, async () => {
      const tabs = await twoTabs(viewport, { webLocks: true })
      try {
        await openMember(tabs.a, tabs.b)
        await signIn(tabs.a)
        // no reload: the other tab hears of the login through the shared storage
        await signedIn(tabs.b)
        await screenshot(tabs.b, `tabs-other-tab-signed-in-${name}`)
        await tabs.a.getByRole("main").getByRole("button", { name: "Sign out" }).click()
        await signInForm(tabs.a).waitFor()
        await signInForm(tabs.b).waitFor()
        assert.deepStrictEqual(tabs.problems, [])
      } finally {
        await tabs.close()
      }
    })
  }

  for (const webLocks of [true, false]) {
    it(`two tabs across an access-token expiry make exactly one refresh (${webLocks ? "Web Locks" : "storage lock"})`, async () => {
      const tabs = await twoTabs(DESKTOP, { webLocks })
      try {
        await openMember(tabs.a, tabs.b)
        assert.strictEqual(await tabs.a.evaluate(() => navigator.locks !== undefined), webLocks)
        // the member's tokens last 5 seconds, so their renewal comes during the test
        await dev("/settings", "PATCH", { accessTokenTtlSeconds: 5 })
        await signIn(tabs.a)
        await signedIn(tabs.b)
        // the next tokens last an hour: one expiry to cross
        await dev("/settings", "PATCH", { accessTokenTtlSeconds: 3600 })
        const before = tabs.refreshes()
        // both tabs keep the session fresh and wake together shortly before the expiry
        await until(() => tabs.refreshes() > before, "a refresh")
        await new Promise((r) => setTimeout(r, 1500))
        assert.strictEqual(tabs.refreshes() - before, 1)
        // both tabs use the refreshed tokens: still signed in, no refresh after
        await tabs.a.reload()
        await tabs.b.reload()
        await signedIn(tabs.a)
        await signedIn(tabs.b)
        assert.strictEqual(tabs.refreshes() - before, 1)
        assert.deepStrictEqual(tabs.problems, [])
      } finally {
        await dev("/settings", "PATCH", { accessTokenTtlSeconds: 14_400 })
        await tabs.close()
      }
    })
  }

  it("after the platform's clock passes the token's expiry, two tabs refused at once make exactly one refresh", async () => {
    const tabs = await twoTabs(DESKTOP, { webLocks: true })
    try {
      await openMember(tabs.a, tabs.b)
      await signIn(tabs.a)
      await signedIn(tabs.b)
      const refreshed = tabs.refreshes()
      // the platform's clock moves 5 hours on: the access token both tabs hold has expired there
      await dev("/clock", "POST", { skewSeconds: 5 * 3600 })
      // each tab reads the member's profile as it loads; both reads are held until both are sent, so
      // the two refusals (401) come back together and both tabs want new tokens at the same moment
      const held: Array<Route> = []
      await tabs.context.route("**/members/v1/members/my", async (route) => {
        held.push(route)
        if (held.length === 2) await Promise.all(held.map((r) => r.continue()))
        else if (held.length > 2) await route.continue()
      })
      // and the first refresh is held a moment, time enough for the other tab to send its own if it would
      await tabs.context.route("**/oauth2/token", async (route) => {
        if ((route.request().postDataJSON() as { grantType?: string } | null)?.grantType === "refresh_token") {
          await new Promise((r) => setTimeout(r, 700))
        }
        await route.continue()
      })
      await Promise.all([tabs.a.reload(), tabs.b.reload()])
      // one refresh serves both
      await signedIn(tabs.a)
      await signedIn(tabs.b)
      assert.isAtLeast(held.length, 4) // two refused reads, two with the new tokens
      assert.strictEqual(tabs.refreshes() - refreshed, 1)
      assert.deepStrictEqual(besides401(tabs.problems), [])
    } finally {
      await dev("/clock", "POST", { skewSeconds: 0 })
      await tabs.close()
    }
  })
})
