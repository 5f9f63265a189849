/**
 * The store's search in Chromium, as a shopper uses it: the header's search box on every page finds
 * words anywhere in a product's name (and its description and SKU), in any case; a second word narrows;
 * the grid says how many match; the words are in the URL, so a reload shows the same products and the
 * back button returns to the search before. What it should find is worked out by hand over every product.
 */
import { assert, describe, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as Stream from "effect/Stream"
import type { Page } from "playwright-core"
import * as Products from "../../src/catalog/Products.ts"
import { Site } from "../../src/Site.ts"
import { browserSession, DESKTOP, PHONE, screenshot } from "./support.ts"

const session = browserSession()

const cardNames = (page: Page) => page.getByRole("list", { name: "Products" }).getByRole("heading", { level: 2 }).allTextContents()
const waitForStatus = (page: Page, text: string) =>
  page.waitForFunction((t) => document.querySelector("p.results")?.textContent === t, text)
const search = async (page: Page, text: string) => {
  const form = page.getByRole("search", { name: "Store search" })
  await form.getByLabel("Search products").fill(text)
  await form.getByRole("button", { name: "Search" }).click()
}

/** Every product's name, description and SKU, as the site's owner reads them. */
const everyProduct = () =>
  Effect.runPromise(
    Products.query().stream.pipe(
      Stream.runCollect,
      Effect.provide(Site.apiKey({ baseUrl: session.platform.url, apiKey: session.platform.apiKey, siteId: session.platform.siteId }))
    ) as Effect.Effect<ReadonlyArray<Products.Product>, unknown>
  )
/** The names of the products whose name, description or SKU holds every word, in any case. */
const byHand = (products: ReadonlyArray<Products.Product>, words: ReadonlyArray<string>) =>
  products.filter((p) => words.every((w) => [p.name, p.description, p.sku].some((f) => (f ?? "").toLowerCase().includes(w)))).map((p) => p.name!).sort()

describe("the store's search in Chromium", () => {
  for (const [name, viewport] of [["desktop", DESKTOP], ["phone", PHONE]] as const) {
    it(`finds a word in the middle of a name, narrows by a second word, and keeps both in the URL (${name})`, async () => {
      const all = await everyProduct()
      const hoodies = byHand(all, ["hoodie"])
      const kidsHoodies = byHand(all, ["kids", "hoodie"])
      assert.include(hoodies, "Kids Hoodie")
      assert.isBelow(kidsHoodies.length, hoodies.length)
      const { context, page, problems } = await session.open(viewport)
      try {
        await page.goto(`${session.platform.url}/#/store`)
        await page.getByRole("list", { name: "Products" }).waitFor()

        // a word in the middle of a name ("Kids Hoodie"), typed in another case
        await search(page, "Hoodie")
        const count = (n: number) => `${n} of ${n} product${n === 1 ? "" : "s"}`
        await waitForStatus(page, `Showing ${count(hoodies.length)} matching “hoodie”`)
        assert.deepStrictEqual((await cardNames(page)).sort(), hoodies)
        assert.match(page.url(), /#\/store\?q=Hoodie$/)

        // a second word narrows
        await search(page, "kids  hoodie")
        await waitForStatus(page, `Showing ${count(kidsHoodies.length)} matching “kids hoodie”`)
        assert.deepStrictEqual((await cardNames(page)).sort(), kidsHoodies)
        assert.match(page.url(), /#\/store\?q=kids\+hoodie$/)
        await screenshot(page, `search-${name}`)

        // the URL alone shows the same: a reload, then the back button to the search before
        await page.reload()
        await waitForStatus(page, `Showing ${count(kidsHoodies.length)} matching “kids hoodie”`)
        assert.deepStrictEqual((await cardNames(page)).sort(), kidsHoodies)
        assert.strictEqual(await page.getByLabel("Search products").inputValue(), "kids hoodie")
        await page.goBack()
        await waitForStatus(page, `Showing ${count(hoodies.length)} matching “hoodie”`)
        assert.strictEqual(await page.getByLabel("Search products").inputValue(), "Hoodie")

        // nothing matches: said so, with the words
        await search(page, "hoodie zzqx")
        await waitForStatus(page, "No products match “hoodie zzqx”.")
        assert.deepStrictEqual(problems, [])
      } finally {
        await context.close()
      }
    }, 120_000)
  }

  it("the header's search is on every page, and searches the whole store", async () => {
    const all = await everyProduct()
    const { context, page, problems } = await session.open(DESKTOP)
    try {
      for (const route of ["#/store/product/kids-hoodie", "#/member", "#/store?c=tees"]) {
        await page.goto(`${session.platform.url}/${route}`)
        await page.getByRole("search", { name: "Store search" }).waitFor()
      }
      // from the Tees collection, a search finds hoodies too
      await search(page, "HOODIE")
      const hoodies = byHand(all, ["hoodie"])
      await waitForStatus(page, `Showing ${hoodies.length} of ${hoodies.length} products matching “hoodie”`)
      assert.deepStrictEqual((await cardNames(page)).sort(), hoodies)
      assert.deepStrictEqual(problems, [])
    } finally {
      await context.close()
    }
  }, 120_000)
})
