/**
 * The storefront in Chromium, served by the platform as `npm start` serves it: the root URL opens the
 * app, the product grid shows the demo store's products with prices and images the platform serves, the
 * sections are reachable from the keyboard, and nothing is logged to the console. Screenshots at a phone
 * and a desktop size.
 */
import { assert, describe, it } from "@effect/vitest"
import { browserSession, DESKTOP, PHONE, screenshot } from "./support.ts"

const session = browserSession()

describe("storefront in Chromium", () => {
  for (const [name, viewport] of [["desktop", DESKTOP], ["phone", PHONE]] as const) {
    it(`the root URL opens the store and shows the product grid (${name})`, async () => {
      const { context, page, problems } = await session.open(viewport)
      try {
        await page.goto(session.platform.url)
        const grid = page.getByRole("list", { name: "Products" })
        await grid.waitFor()
        const cards = grid.getByRole("listitem")
        assert.isAbove(await cards.count(), 10)
        assert.match(await cards.first().textContent() ?? "", /\$\d+\.\d\d/)
        // every image loads from the platform (lazy ones once scrolled to)
        await page.evaluate(() => window.scrollTo(0, document.body.scrollHeight))
        await page.waitForLoadState("networkidle")
        await page.waitForFunction(() => [...document.images].every((i) => i.complete))
        assert.strictEqual(await page.$$eval("img", (images) => images.filter((i) => (i as HTMLImageElement).naturalWidth === 0).length), 0)
        await page.evaluate(() => window.scrollTo(0, 0))
        // keyboard: the skip link first, then the sections
        await page.keyboard.press("Tab")
        assert.strictEqual(await page.evaluate(() => document.activeElement?.textContent), "Skip to content")
        await screenshot(page, `store-${name}`)
        assert.deepStrictEqual(problems, [])
      } finally {
        await context.close()
      }
    })
  }
})
