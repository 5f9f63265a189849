/**
 * The storefront in Chromium, served by the platform as `npm start` serves it: the root URL opens the
 * app, the product grid shows the demo store's products with prices and images the platform serves, the
 * sections are reachable from the keyboard, and nothing is logged to the console. Screenshots at a phone
 * and a desktop size. (The grid's search, filters, infinite scroll and product pages: store.test.ts.)
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

        // every card's image comes from the platform, sized for the grid
        const sources = await grid.locator("img").evaluateAll((images) => images.map((i) => (i as HTMLImageElement).src))
        assert.strictEqual(sources.length, await cards.count())
        for (const src of sources) assert.match(src, new RegExp(`^${session.platform.url}/media/[^?]+\\?w=400&h=400&fit=fill$`))
        // those in view load (lazy ones load as they scroll in), and the platform draws them
        await page.waitForFunction(() =>
          [...document.querySelectorAll<HTMLImageElement>("ul[aria-label='Products'] img")]
            .filter((i) => i.getBoundingClientRect().top < window.innerHeight)
            .every((i) => i.complete && i.naturalWidth > 0)
        )
        const drawn = await fetch(sources[sources.length - 1]!)
        assert.strictEqual(drawn.status, 200)
        assert.match(drawn.headers.get("content-type") ?? "", /^image\//)

        // keyboard: the skip link first, then the sections
        await page.keyboard.press("Tab")
        assert.strictEqual(await page.evaluate(() => document.activeElement?.textContent), "Skip to content")
        await page.keyboard.press("Tab")
        await page.keyboard.press("Tab")
        assert.strictEqual(await page.evaluate(() => document.activeElement?.textContent), "Store")
        await screenshot(page, `store-${name}`)
        assert.deepStrictEqual(problems, [])
      } finally {
        await context.close()
      }
    })
  }
})
