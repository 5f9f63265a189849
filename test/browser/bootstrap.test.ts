/**
 * The store's first screen in Chromium comes from the entry's bootstrap, before any Effect module has
 * loaded: with every script but the entry held back, the grid and the collections show from the
 * bootstrap's own requests. Once the scripts go, the full app takes over with those answers: no second
 * token, products or collections request, the same grid, and what the shopper typed in the search box
 * still there. A reload with the stored session asks for no token at all.
 */
import { assert, describe, it } from "@effect/vitest"
import type { Page, Request } from "playwright-core"
import { browserSession } from "./support.ts"

const session = browserSession()

const API = { token: "/oauth2/token", products: "/stores-reader/v1/products/query-platformized", collections: "/v2/collections/query" } as const

/** Counts the page's requests to the first screen's calls, by call. */
const countCalls = (page: Page) => {
  const counts = { token: 0, products: 0, collections: 0, version: 0 }
  page.on("request", (request: Request) => {
    const path = new URL(request.url()).pathname
    if (path === API.token) counts.token++
    if (path === API.products) counts.products++
    if (path === API.collections) counts.collections++
    if (path === "/stores/v3/provision/version") counts.version++
  })
  return counts
}

const cardNames = (page: Page) => page.getByRole("list", { name: "Products" }).getByRole("heading", { level: 2 }).allTextContents()
const status = (page: Page) => page.locator("p.results").textContent()
/** The full app has taken over: the header's session part (the full app's alone) shows. */
const tookOver = (page: Page) => page.getByRole("group", { name: "Your session" }).getByRole("link", { name: "Sign in" }).waitFor()

describe("the store's first screen in Chromium, before and after the full app", () => {
  it("shows the grid from the bootstrap with only the entry script loaded, and the full app asks for nothing again", async () => {
    const { context, page, problems } = await session.open()
    try {
      const calls = countCalls(page)
      const scripts: Array<string> = []
      page.on("request", (request) => {
        if (request.resourceType() === "script") scripts.push(new URL(request.url()).pathname)
      })
      // every script but the entry waits until the bootstrap's grid has been checked
      let release = () => {}
      const released = new Promise<void>((resolve) => (release = resolve))
      const held: Array<string> = []
      await page.route(/\/assets\/.*\.js$/, async (route) => {
        const path = new URL(route.request().url()).pathname
        if (/\/assets\/index-[^/]*\.js$/.test(path)) return route.continue()
        held.push(path)
        await released
        await route.continue()
      })
      await page.goto(`${session.platform.url}/#/store`)
      await page.getByRole("list", { name: "Products" }).getByRole("listitem").first().waitFor()
      assert.strictEqual(await status(page), "Showing 24 of 62 products")
      const early = await cardNames(page)
      assert.lengthOf(early, 24)
      await page.getByRole("navigation", { name: "Collections" }).getByRole("link", { name: /^Hoodies/ }).waitFor()
      // the entry alone has run; the full app's chunks (effect among them) are still held
      assert.deepStrictEqual(scripts.filter((s) => !held.includes(s)).map((s) => s.replace(/-[\w-]+\.js$/, "")), ["/assets/index"])
      assert.isTrue(held.some((s) => /\/assets\/full-/.test(s)), `held: ${held.join(", ")}`)
      assert.strictEqual(await page.getByRole("group", { name: "Your session" }).count(), 0)
      const drawn = await page.locator("main").innerHTML()

      // the shopper types before the full app is in; the words stay (they are not searched yet)
      const box = page.getByRole("search", { name: "Store search" }).getByLabel("Search products")
      await box.fill("kids tee")
      release()
      await tookOver(page)
      await new Promise((resolve) => setTimeout(resolve, 500))
      assert.strictEqual(await box.inputValue(), "kids tee")
      assert.isTrue(await box.evaluate((el) => el === document.activeElement))
      // the full app's screen is the bootstrap's, to the markup
      assert.strictEqual(await page.locator("main").innerHTML(), drawn)
      assert.deepStrictEqual(await cardNames(page), early)
      assert.strictEqual(await status(page), "Showing 24 of 62 products")
      assert.deepStrictEqual(calls, { token: 1, products: 1, collections: 1, version: 0 })

      // and the full app goes on from the bootstrap's page: the second page alone (and the catalog's version, asked once)
      await page.getByRole("button", { name: "Load more products" }).click()
      await page.waitForFunction(() => document.querySelector("p.results")?.textContent === "Showing 48 of 62 products")
      assert.deepStrictEqual(calls, { token: 1, products: 2, collections: 1, version: 1 })
      assert.lengthOf(new Set(await cardNames(page)), 48)
      await page.getByRole("search", { name: "Store search" }).getByRole("button", { name: "Search" }).click()
      await page.waitForFunction(() => /matching “kids tee”/.test(document.querySelector("p.results")?.textContent ?? ""))

      // a reload: the stored session's token serves the bootstrap, which asks for none
      await page.unroute(/\/assets\/.*\.js$/)
      const again = countCalls(page)
      await page.goto(`${session.platform.url}/#/store`)
      await page.reload()
      await tookOver(page)
      await page.getByRole("list", { name: "Products" }).getByRole("listitem").first().waitFor()
      assert.strictEqual(again.token, 0)
      assert.deepStrictEqual(problems, [])
    } finally {
      await context.close()
    }
  }, 120_000)
})
