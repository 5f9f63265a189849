/**
 * The app's accessibility in Chromium: axe-core (injected into the page) audits every screen (the store,
 * a product page, the member area's sign-in, password recovery, registration and account, the data
 * browser and the live events) at 1280 and 390 px wide, signed out and signed in, with their closed
 * parts opened (every filter, the data browser's forms) and their refusals shown, and finds no serious
 * or critical violation. The minor and moderate ones it reports are listed in the test's output.
 */
import { assert, describe, it } from "@effect/vitest"
import { audit, describeViolation } from "./axe.ts"
import { browserSession, DESKTOP, PHONE } from "./support.ts"

const session = browserSession()

const DEMO = { email: "demo@sitefx.dev", password: "sitefx-demo" }

describe("accessibility audit with axe-core", { timeout: 120_000 }, () => {
  for (const [name, viewport] of [["1280 px", DESKTOP], ["390 px", PHONE]] as const) {
    it(`every screen has no serious or critical violation (${name})`, async () => {
      const { context, page, problems } = await session.open(viewport)
      page.setDefaultTimeout(20_000)
      const serious: Array<string> = []
      const minor: Array<string> = []
      const check = async (screen: string) => {
        // animations and late paints settle before the audit reads colours
        await page.waitForTimeout(150)
        const { violations, applied } = await audit(page)
        // the audit read the screen (landmarks, names, contrast... each a rule that applied)
        assert.isAbove(applied, 15, `axe-core applied only ${applied} rules to ${screen}`)
        for (const v of violations) {
          ;(v.impact === "serious" || v.impact === "critical" ? serious : minor).push(describeViolation(screen, v))
        }
      }
      try {
        const go = (route: string) => page.goto(`${session.platform.url}/#/${route}`)
        const main = page.getByRole("main")

        await go("store")
        await page.getByRole("list", { name: "Products" }).getByRole("listitem").first().waitFor()
        await check("store")

        // the closed parts and the empty answer too: every filter shown, a search that finds nothing
        await page.getByText("More filters").click()
        await page.getByLabel("Min price").waitFor()
        await page.getByLabel("Search products").fill("zzzz-nothing")
        await page.getByRole("button", { name: "Search", exact: true }).click()
        await main.getByText(/No products match/).waitFor()
        await check("store: every filter, no result")
        await go("store")
        await page.getByRole("list", { name: "Products" }).getByRole("listitem").first().waitFor()

        await page.getByRole("list", { name: "Products" }).getByRole("link").first().click()
        await main.getByRole("heading", { level: 1 }).waitFor()
        await page.waitForURL(/#\/store\/product\//)
        await page.locator("#product-stock").waitFor()
        await check("product page")

        await go("member")
        await page.getByRole("form", { name: "Sign in" }).waitFor()
        await check("member: sign-in")

        const refused = page.getByRole("form", { name: "Sign in" })
        await refused.getByLabel("Email").fill(DEMO.email)
        await refused.getByLabel("Password").fill("not-the-password")
        await refused.getByRole("button", { name: "Sign in" }).click()
        await page.getByRole("alert").first().waitFor()
        await check("member: sign-in refused")

        await go("member/forgot")
        await main.getByRole("button", { name: "Send reset link" }).waitFor()
        await check("member: password recovery")

        await go("member/register")
        await main.getByRole("button", { name: /Create|Register/ }).first().waitFor()
        await check("member: register")

        await go("member")
        const form = page.getByRole("form", { name: "Sign in" })
        await form.getByLabel("Email").fill(DEMO.email)
        await form.getByLabel("Password").fill(DEMO.password)
        await form.getByRole("button", { name: "Sign in" }).click()
        await main.getByText(`Signed in as ${DEMO.email}`).waitFor()
        await main.getByText("Member since").waitFor()
        await check("member: account")

        await go("data")
        await main.getByRole("list", { name: "Collections" }).waitFor()
        await check("data browser: collections")

        await main.getByRole("list", { name: "Collections" }).getByRole("link", { name: "Posts" }).click()
        await main.getByRole("list", { name: "Posts items" }).waitFor()
        await check("data browser: a collection")

        // the member writes notes (Posts are the owner's: the page offers no write there)
        await go("data/Notes")
        await main.getByRole("list", { name: "Notes items" }).waitFor()
        await main.getByText("Add an item to Notes").click()
        await main.getByRole("button", { name: "Add item" }).waitFor()
        await main.getByRole("button", { name: /^Edit / }).first().click()
        await main.getByRole("button", { name: "Cancel" }).first().waitFor()
        await check("data browser: adding and editing")

        await go("events")
        await main.getByRole("heading", { level: 1 }).waitFor()
        await check("live events")

        if (minor.length > 0) console.info(`minor and moderate findings (${name}):\n${minor.join("\n")}`)
        assert.deepStrictEqual(serious, [])
        // Chromium logs the refused sign-in's 401 as a console error; that refusal is provoked here
        assert.deepStrictEqual(problems.filter((p) => !p.includes("status of 401")), [])
      } finally {
        await context.close()
      }
    })
  }
})
