/**
 * The storefront in Chromium against `sitefx serve --seed demo`: browsing a collection, searching,
 * filtering and sorting (all kept in the URL, so a reload shows the same products); the grid loading more
 * products as it scrolls and from its button; a product page whose choices drive the price, the stock,
 * the picture and which choices are sold out. Screenshots at a phone and a desktop size; no console
 * errors or warnings.
 */
import { assert, describe, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import type { Page } from "playwright-core"
import * as Products from "../../src/catalog/Products.ts"
import { Site } from "../../src/Site.ts"
import { browserSession, DESKTOP, PHONE, screenshot } from "./support.ts"

const session = browserSession()

const grid = (page: Page) => page.getByRole("list", { name: "Products" })
const cardNames = (page: Page) => grid(page).getByRole("heading", { level: 2 }).allTextContents()
/** The prices the cards show (the sale price where there is one). */
const cardPrices = (page: Page) =>
  grid(page).locator(".price").evaluateAll((nodes) => nodes.map((n) => Number(((n.querySelector(".sale-price") ?? n).textContent ?? "").replace(/[^0-9.]/g, ""))))
const status = (page: Page) => page.locator("p.results").textContent()
const waitForStatus = (page: Page, pattern: RegExp) =>
  page.waitForFunction((source) => new RegExp(source).test(document.querySelector("p.results")?.textContent ?? ""), pattern.source)

/** Runs a sitefx call as the site's owner (an API key), as another client of the platform would. */
const asOwner = <A, E, R>(effect: Effect.Effect<A, E, R>): Promise<A> =>
  Effect.runPromise(
    effect.pipe(Effect.provide(Site.apiKey({ baseUrl: session.platform.url, apiKey: session.platform.apiKey, siteId: session.platform.siteId }))) as Effect.Effect<A, E>
  )

describe("storefront in Chromium: browse, filter, scroll, choose", () => {
  for (const [name, viewport] of [["desktop", DESKTOP], ["phone", PHONE]] as const) {
    it(`a collection, a search, filters and a sort narrow the grid, and the URL keeps them (${name})`, async () => {
      const { context, page, problems } = await session.open(viewport)
      try {
        await page.goto(`${session.platform.url}/#/store`)
        await waitForStatus(page, /Showing 24 of 62 products/)

        // a collection from the collections' navigation
        await page.getByRole("navigation", { name: "Collections" }).getByRole("link", { name: /^Hoodies/ }).click()
        await page.getByRole("heading", { level: 1, name: "Hoodies" }).waitFor()
        await waitForStatus(page, /Showing 8 of 8 products/)
        assert.include(page.url(), "c=hoodies")
        const hoodies = await cardNames(page)
        assert.lengthOf(hoodies, 8)
        assert.include(hoodies, "Zip Hoodie")

        // back to every product; a search from the header (search.test.ts tries it whole)
        await page.getByRole("link", { name: "All products" }).click()
        await page.getByRole("heading", { level: 1, name: "Store" }).waitFor()
        await page.getByLabel("Search products").fill("kids")
        await page.getByRole("button", { name: "Search" }).click()
        await waitForStatus(page, /Showing 10 of 10 products matching “kids”/)
        for (const n of await cardNames(page)) assert.match(n, /^Kids /)

        // a brand, in stock only, a price range, and a sort by price
        await page.getByText("More filters").click()
        await page.getByLabel("Brand").selectOption("Kestrel")
        await waitForStatus(page, /Showing 3 of 3 products matching “kids”/)
        await page.getByRole("button", { name: "Clear filters" }).click()
        await waitForStatus(page, /Showing 24 of 62 products$/)
        await page.getByLabel("Brand").selectOption("Kestrel")
        await waitForStatus(page, /Showing 17 of 17 products/)
        await page.getByLabel("In stock only").check()
        await waitForStatus(page, /Showing 13 of 13 products/)
        await page.getByLabel("Min price").fill("20")
        await page.getByLabel("Max price").fill("100")
        await page.getByLabel("Sort by").selectOption({ label: "Price, high to low" })
        await page.waitForFunction(() => location.hash.includes("min=20") && location.hash.includes("max=100") && location.hash.includes("sort=price-desc"))
        await waitForStatus(page, /^Showing \d+ of \d+ products$/)
        const prices = await cardPrices(page)
        assert.isAbove(prices.length, 3)
        for (const p of prices) assert.isTrue(p >= 20 && p <= 100, `price ${p} in 20–100`)
        assert.deepStrictEqual(prices, [...prices].sort((a, b) => b - a))
        // no sold-out product among them
        assert.strictEqual(await grid(page).getByText("Sold out").count(), 0)
        const shown = await cardNames(page)
        await screenshot(page, `store-filtered-${name}`)

        // the URL holds it all: a reload shows the same products with the same filters
        await page.reload()
        await page.getByLabel("Brand").waitFor()
        await page.waitForFunction((n) => document.querySelectorAll("ul[aria-label='Products'] h2").length === n, shown.length)
        assert.deepStrictEqual(await cardNames(page), shown)
        assert.strictEqual(await page.getByLabel("Brand").inputValue(), "Kestrel")
        assert.isTrue(await page.getByLabel("In stock only").isChecked())
        assert.strictEqual(await page.getByLabel("Min price").inputValue(), "20")
        assert.strictEqual(await page.getByLabel("Sort by").inputValue(), "price-desc")

        // price low to high
        await page.getByLabel("Sort by").selectOption({ label: "Price, low to high" })
        await page.waitForFunction(() => location.hash.includes("sort=price-asc"))
        await page.waitForFunction(() => {
          const ps = [...document.querySelectorAll("ul[aria-label='Products'] .price")].map((n) => Number(((n.querySelector(".sale-price") ?? n).textContent ?? "").replace(/[^0-9.]/g, "")))
          return ps.length > 1 && ps.every((p, i) => i === 0 || ps[i - 1]! <= p)
        })

        await page.getByRole("button", { name: "Clear filters" }).click()
        await waitForStatus(page, /Showing 24 of 62 products/)
        assert.deepStrictEqual(problems, [])
      } finally {
        await context.close()
      }
    }, 120_000)

    it(`the grid loads more products as it scrolls, and from its button (${name})`, async () => {
      const { context, page, problems } = await session.open(viewport)
      try {
        await page.goto(`${session.platform.url}/#/store`)
        await waitForStatus(page, /Showing 24 of 62 products/)
        assert.lengthOf(await cardNames(page), 24)
        await screenshot(page, `store-grid-${name}`)

        // scrolling to the end of the grid brings the next page, no click needed
        await page.evaluate(() => window.scrollTo(0, document.body.scrollHeight))
        await waitForStatus(page, /Showing 48 of 62 products/)
        assert.lengthOf(await cardNames(page), 48)

        // from the keyboard: the button loads the rest
        await page.evaluate(() => window.scrollTo(0, 0))
        const more = page.getByRole("button", { name: "Load more products" })
        await more.focus()
        await page.keyboard.press("Enter")
        await waitForStatus(page, /Showing 62 of 62 products/)
        const names = await cardNames(page)
        assert.lengthOf(names, 62)
        assert.strictEqual(new Set(names).size, 62)
        // nothing more to load: the button is gone
        assert.strictEqual(await page.getByRole("button", { name: /Load more/ }).count(), 0)
        assert.deepStrictEqual(problems, [])
      } finally {
        await context.close()
      }
    })
  }

  it("a product page: the choices drive the price, the stock and the picture; sold-out choices are disabled and say so", async () => {
    // the site's owner prices the XL hoodies higher (through the platform's HTTP API)
    const hoodie = await asOwner(Effect.map(Products.query().eq("slug", "zip-hoodie").find, (p) => p.items[0]!))
    await asOwner(Products.updateVariants(hoodie.id!, [{ choices: { Size: "XL" }, price: 124.99 }]))

    for (const [name, viewport] of [["desktop", DESKTOP], ["phone", PHONE]] as const) {
      const { context, page, problems } = await session.open(viewport)
      try {
        // from the grid to the product
        await page.goto(`${session.platform.url}/#/store?c=hoodies`)
        await grid(page).getByRole("link", { name: "Zip Hoodie" }).click()
        const title = page.getByRole("heading", { level: 1, name: "Zip Hoodie" })
        await title.waitFor()
        assert.include(page.url(), "#/store/product/zip-hoodie")
        const info = page.locator(".product-info")
        // ribbon and brand
        assert.strictEqual(await info.locator(".ribbon").textContent(), "Sale")
        assert.strictEqual(await info.getByRole("link", { name: "Kestrel" }).count(), 1)
        const price = info.locator(".product-price")
        const stock = page.locator("#product-stock")
        const picture = page.locator(".product-media img")
        // before a choice: the product's price (on sale), its stock, its main picture
        assert.match(await price.textContent() ?? "", /\$83\.99.*\$104\.99.*20% off/)
        assert.match(await stock.textContent() ?? "", /In stock in some options\. Choose Size and Color\./)
        assert.match(await picture.getAttribute("src") ?? "", /sitefx-demo-zip-hoodie\.svg/)

        const size = page.getByRole("group", { name: /^Size/ })
        const color = page.getByRole("group", { name: /^Color/ })
        // Chalk: its picture, and the sizes sold out in Chalk are disabled and say so
        await color.getByLabel("Chalk").check()
        await page.waitForFunction(() => location.hash.includes("Color=Chalk"))
        assert.match(await picture.getAttribute("src") ?? "", /zip-hoodie-chalk/)
        assert.include(await picture.getAttribute("alt") ?? "", "Chalk")
        for (const soldOut of ["M", "XL"]) {
          assert.isTrue(await size.getByRole("radio", { name: new RegExp(`^${soldOut} \\(sold out\\)$`) }).isDisabled(), `${soldOut} disabled in Chalk`)
        }
        for (const open of ["S", "L"]) assert.isTrue(await size.getByRole("radio", { name: open, exact: true }).isEnabled())

        // Navy: another picture; XL is there in Navy, M is not
        await color.getByLabel("Navy").check()
        assert.match(await picture.getAttribute("src") ?? "", /zip-hoodie-navy/)
        assert.isTrue(await size.getByRole("radio", { name: "M (sold out)" }).isDisabled())
        await size.getByRole("radio", { name: "XL", exact: true }).check()
        // the XL variant's own price, with the product's discount; its stock
        await page.waitForFunction(() => /\$99\.99/.test(document.querySelector(".product-price")?.textContent ?? ""))
        assert.match(await price.textContent() ?? "", /\$99\.99.*\$124\.99.*20% off/)
        assert.strictEqual(await stock.textContent(), "In stock.")
        // with XL chosen, the colors sold out in XL are disabled
        assert.isTrue(await color.getByRole("radio", { name: "Chalk (sold out)" }).isDisabled())
        assert.isTrue(await color.getByRole("radio", { name: "Forest (sold out)" }).isDisabled())

        // S in Navy: the usual price, three left
        await size.getByRole("radio", { name: "S", exact: true }).check()
        await page.waitForFunction(() => /only 3 left/.test(document.querySelector("#product-stock")?.textContent ?? ""))
        assert.match(await price.textContent() ?? "", /\$83\.99.*\$104\.99/)
        await screenshot(page, `store-product-${name}`)

        // the choices are in the URL: a reload keeps them
        await page.reload()
        await title.waitFor()
        assert.isTrue(await size.getByRole("radio", { name: "S", exact: true }).isChecked())
        assert.isTrue(await color.getByRole("radio", { name: "Navy", exact: true }).isChecked())
        assert.match(await stock.textContent() ?? "", /only 3 left/)

        // a sold-out product says so
        await page.goto(`${session.platform.url}/#/store/product/camp-mule`)
        await page.getByRole("heading", { level: 1, name: "Camp Mule" }).waitFor()
        assert.match(await stock.textContent() ?? "", /^Sold out\./)
        assert.strictEqual(await page.getByRole("radio", { disabled: false }).count(), 0)
        // an unknown product says so
        await page.goto(`${session.platform.url}/#/store/product/no-such-thing`)
        await page.getByRole("alert").getByText("There is no product at “no-such-thing”.").waitFor()
        assert.deepStrictEqual(problems, [])
      } finally {
        await context.close()
      }
    }
  }, 120_000)
})
