/**
 * The session everywhere: two tabs of one Chromium profile on the store page, where the member area's
 * code has never loaded; the header of each shows who is signed in, and a sign-in or a sign-out in one
 * tab shows in the other's header within a second, without a reload; the store page alone renews the
 * member's tokens before they expire. The first screen loads none of the member area's code. Signing in
 * moves nothing in the header: its brand, sections, search and session place keep their boxes.
 */
import { assert, describe, it } from "@effect/vitest"
import { mkdtempSync, rmSync } from "node:fs"
import { join } from "node:path"
import { chromium, type Page } from "playwright-core"
import { browserSession, CHROMIUM, CHROMIUM_ARGS, DESKTOP, OUTPUT, PHONE, screenshot, watch } from "./support.ts"

const session = browserSession()

const DEMO = { email: "demo@sitefx.dev", password: "sitefx-demo" }

const dev = async (path: string, method: string, body: unknown) => {
  const res = await fetch(`${session.platform.url}/_sitefx${path}`, { method, headers: { "content-type": "application/json" }, body: JSON.stringify(body) })
  if (!res.ok) throw new Error(`dev ${path}: ${res.status} ${await res.text()}`)
  return res.json()
}

const header = (page: Page) => page.getByRole("banner")
const signedInHeader = (page: Page) => header(page).getByText(`Signed in as ${DEMO.email}`)
const signInLink = (page: Page) => header(page).getByRole("link", { name: "Sign in" })

/** Milliseconds until `locator` is visible (polled every 20 ms), failing past `limit`. */
const within = async (what: () => ReturnType<typeof signInLink>, limit: number): Promise<number> => {
  const start = Date.now()
  await what().waitFor({ timeout: limit })
  return Date.now() - start
}

describe("the session in the header of every page", { timeout: 60_000 }, () => {
  for (const [name, viewport] of [["desktop", DESKTOP], ["phone", PHONE]] as const) {
    it(`a sign-in and a sign-out in one tab show in the other tab's header on the store page within a second (${name})`, async () => {
      const dir = mkdtempSync(join(OUTPUT, "tmp", "profile-"))
      const context = await chromium.launchPersistentContext(dir, { executablePath: CHROMIUM, args: CHROMIUM_ARGS, headless: true, viewport })
      const problems: Array<string> = []
      const scripts: Array<string> = []
      context.on("request", (request) => {
        if (request.resourceType() === "script") scripts.push(new URL(request.url()).pathname)
      })
      try {
        const a = context.pages()[0] ?? await context.newPage()
        const b = await context.newPage()
        for (const page of [a, b]) {
          page.setDefaultTimeout(20_000)
          watch(page, problems)
        }
        // b stays on the store: its first screen, with the header's session part and no member code
        await b.goto(`${session.platform.url}/#/store`)
        await b.getByRole("main").getByRole("heading", { level: 1 }).first().waitFor()
        await signInLink(b).waitFor()
        const storeScripts = [...scripts]
        assert.isFalse(storeScripts.some((s) => /MemberArea|SignIn|CodeStep/.test(s)), `the store loaded ${storeScripts.join(", ")}`)

        // a signs in from the header's link
        await a.goto(`${session.platform.url}/#/store`)
        await signInLink(a).click()
        const form = a.getByRole("form", { name: "Sign in" })
        await form.getByLabel("Email").fill(DEMO.email)
        await form.getByLabel("Password").fill(DEMO.password)
        await form.getByRole("button", { name: "Sign in" }).click()
        await signedInHeader(a).waitFor()
        // b's header follows within a second, with no reload
        const shown = await within(() => signedInHeader(b), 1000)
        assert.isBelow(shown, 1000)
        await screenshot(b, `session-header-signed-in-${name}`)

        // a goes back to the store and signs out from the header
        await a.goto(`${session.platform.url}/#/store`)
        await header(a).getByRole("button", { name: "Sign out" }).click()
        const gone = await within(() => signInLink(b), 1000)
        assert.isBelow(gone, 1000)
        await signInLink(a).waitFor()
        await screenshot(b, `session-header-signed-out-${name}`)
        assert.deepStrictEqual(problems, [])
      } finally {
        await context.close()
        rmSync(dir, { recursive: true, force: true })
      }
    })
  }

  it("the store page alone keeps the member's tokens fresh: a refresh before the access token expires, with no call asking", async () => {
    const { context, page, problems } = await session.open(DESKTOP)
    const grants: Array<string> = []
    context.on("request", (request) => {
      if (new URL(request.url()).pathname === "/oauth2/token") grants.push(String((request.postDataJSON() as { grantType?: string } | null)?.grantType))
    })
    try {
      await page.goto(`${session.platform.url}/#/member`)
      const form = page.getByRole("form", { name: "Sign in" })
      await form.getByLabel("Email").fill(DEMO.email)
      await form.getByLabel("Password").fill(DEMO.password)
      // the member's first access token lasts 5 seconds; the next ones an hour
      await dev("/settings", "PATCH", { accessTokenTtlSeconds: 5 })
      await form.getByRole("button", { name: "Sign in" }).click()
      await signedInHeader(page).waitFor()
      await dev("/settings", "PATCH", { accessTokenTtlSeconds: 3600 })
      // a fresh load of the store, where no screen of the member area was ever mounted
      await page.goto("about:blank")
      await page.goto(`${session.platform.url}/#/store`)
      await signedInHeader(page).waitFor()
      const before = grants.filter((g) => g === "refresh_token").length
      const start = Date.now()
      while (grants.filter((g) => g === "refresh_token").length === before) {
        if (Date.now() - start > 10_000) throw new Error("the store page let the access token expire without a refresh")
        await new Promise((r) => setTimeout(r, 100))
      }
      await signedInHeader(page).waitFor()
      assert.deepStrictEqual(problems, [])
    } finally {
      await dev("/settings", "PATCH", { accessTokenTtlSeconds: 14_400 })
      await context.close()
    }
  })

  for (const [name, viewport] of [["desktop", DESKTOP], ["phone", PHONE]] as const) {
    it(`signing in moves nothing in the header (${name})`, async () => {
      const { context, page, problems } = await session.open(viewport)
      /** The bounding box of each of the header's parts, in page pixels. */
      const boxes = () =>
        page.evaluate(() =>
          [...document.querySelectorAll(".site-header > *")].map((el) => {
            const r = el.getBoundingClientRect()
            return { part: el.className || el.tagName.toLowerCase(), x: r.x, y: r.y, width: r.width, height: r.height }
          })
        )
      try {
        await page.goto(`${session.platform.url}/#/member`)
        await signInLink(page).waitFor()
        const signedOut = await boxes()
        assert.deepStrictEqual(signedOut.map((b) => b.part), ["brand", "nav", "site-search", "session-slot"])
        for (const b of signedOut) assert.isAbove(b.width * b.height, 0, `${b.part} is drawn`)
        const banner = await page.getByRole("banner").boundingBox()

        const form = page.getByRole("form", { name: "Sign in" })
        await form.getByLabel("Email").fill(DEMO.email)
        await form.getByLabel("Password").fill(DEMO.password)
        await form.getByRole("button", { name: "Sign in" }).click()
        await signedInHeader(page).waitFor()
        await header(page).getByRole("button", { name: "Sign out" }).waitFor()
        // the member's name and the sign-out fit the place the sign-in link had: nothing else moved
        assert.deepStrictEqual(await boxes(), signedOut)
        assert.deepStrictEqual(await page.getByRole("banner").boundingBox(), banner)
        // and the name is shown whole at this size, not cut short
        assert.isTrue(await header(page).getByTestId("session-name").evaluate((el) => {
          const who = el.closest(".who")!
          return who.scrollWidth <= who.clientWidth
        }))
        await screenshot(page, `session-header-stable-${name}`)
        assert.deepStrictEqual(problems, [])
      } finally {
        await context.close()
      }
    })
  }

  it("the header shows the member on every section after a reload", async () => {
    const { context, page, problems } = await session.open(DESKTOP)
    try {
      await page.goto(`${session.platform.url}/#/member`)
      const form = page.getByRole("form", { name: "Sign in" })
      await form.getByLabel("Email").fill(DEMO.email)
      await form.getByLabel("Password").fill(DEMO.password)
      await form.getByRole("button", { name: "Sign in" }).click()
      await signedInHeader(page).waitFor()
      for (const route of ["store", "data", "events"]) {
        await page.goto(`${session.platform.url}/#/${route}`)
        await page.reload()
        await signedInHeader(page).waitFor()
      }
      assert.deepStrictEqual(problems, [])
    } finally {
      await context.close()
    }
  })
})
