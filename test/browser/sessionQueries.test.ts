/**
 * The data browser's queries follow the session across two tabs of the app in one Chromium profile (one
 * localStorage): a member signing in in one tab makes the members-only Notes appear in both, with no
 * reload of the other; signing out in the other tab makes them go in both. The queries carry no key for
 * who is browsing: the query atoms load again by themselves as whoever is signed in. A list still shown
 * at the sign-out asks once more, as the visitor, before the page takes it away: the platform refuses
 * that (403), and nothing else is refused.
 */
import { afterAll, assert, beforeAll, describe, it } from "@effect/vitest"
import { mkdtempSync, rmSync } from "node:fs"
import { join } from "node:path"
import { chromium, type Page } from "playwright-core"
import { buildApp, CHROMIUM, CHROMIUM_ARGS, DESKTOP, OUTPUT, type Platform, screenshot, startPlatform, watch } from "./support.ts"

let platform: Platform
beforeAll(async () => {
  await buildApp()
  platform = await startPlatform()
}, 120_000)
afterAll(() => {
  platform?.child.kill("SIGTERM")
})

const DEMO = { email: "demo@sitefx.dev", password: "sitefx-demo" }

const notes = (page: Page) => page.getByRole("list", { name: "Notes items" }).getByRole("heading", { name: "My first note" })
const privateNotice = (page: Page) => page.getByText("Notes are private to each member.")

// a busy machine (two cores shared) slows two tabs down: generous timeouts, never needed when it is quiet
describe("the data browser's queries follow the session across tabs in Chromium", { timeout: 90_000 }, () => {
  it("a sign-in in one tab shows the members-only notes in both; a sign-out in the other takes them away in both", async () => {
    const dir = mkdtempSync(join(OUTPUT, "tmp", "profile-"))
    const context = await chromium.launchPersistentContext(dir, { executablePath: CHROMIUM, args: CHROMIUM_ARGS, headless: true, viewport: DESKTOP })
    const problems: Array<string> = []
    const refused: Array<string> = []
    context.on("response", (response) => {
      if (response.status() < 400) return
      // a query's request travels base64-encoded in `.r`
      const url = new URL(response.url())
      const request = url.searchParams.get(".r")
      const collection = request === null ? undefined : (JSON.parse(Buffer.from(request, "base64").toString()) as { dataCollectionId?: string }).dataCollectionId
      refused.push(`${response.status()} ${url.pathname} ${collection ?? ""}`)
    })
    try {
      const a = context.pages()[0] ?? await context.newPage()
      const b = await context.newPage()
      for (const page of [a, b]) {
        page.setDefaultTimeout(20_000)
        watch(page, problems)
        await page.goto(`${platform.url}/#/data/Notes`)
        await privateNotice(page).waitFor()
      }
      assert.strictEqual(await notes(b).count(), 0)

      // tab A signs in through the member area, then comes back to the notes
      await a.goto(`${platform.url}/#/member`)
      const form = a.getByRole("form", { name: "Sign in" })
      await form.getByLabel("Email").fill(DEMO.email)
      await form.getByLabel("Password").fill(DEMO.password)
      await form.getByRole("button", { name: "Sign in" }).click()
      await a.getByRole("status").filter({ hasText: `Signed in as ${DEMO.email}` }).waitFor()
      // tab B, never reloaded, hears of the sign-in through the shared storage and lists the member's notes
      await notes(b).waitFor()
      await screenshot(b, "session-queries-other-tab-signed-in")
      await a.goto(`${platform.url}/#/data/Notes`)
      await notes(a).waitFor()

      // tab B signs out from the header: both tabs stop showing the notes
      await b.getByRole("group", { name: "Your session" }).getByRole("button", { name: "Sign out" }).click()
      await privateNotice(b).waitFor()
      await privateNotice(a).waitFor()
      await notes(a).waitFor({ state: "detached" })
      assert.strictEqual(await notes(a).count(), 0)
      assert.strictEqual(await notes(b).count(), 0)
      // at most one refusal per tab: the notes' query asked once as the visitor by a list about to go
      assert.isAtMost(refused.length, 2, refused.join("\n"))
      for (const answer of refused) assert.strictEqual(answer, "403 /wix-data/v2/items/query Notes")
      assert.deepStrictEqual(problems.filter((p) => !p.includes("status of 403")), [])
    } finally {
      await context.close()
      rmSync(dir, { recursive: true, force: true })
    }
  })
})
