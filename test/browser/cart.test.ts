/**
 * The store's cart in Chromium against `sitefx serve --seed demo`, at 1280 and 390 px: a visitor adds two
 * products from their pages (a sold-out choice is refused before the click, and the platform's
 * INSUFFICIENT_INVENTORY refusal is shown when more is asked than is left), the header counts the items,
 * the cart page lists the lines with their totals, its quantities go up and down and a line goes; axe-core
 * audits the cart page. After signing in the visitor's cart is the member's. The checkout hands the cart
 * to the platform's checkout page; the thank-you page names the order, and the member area lists the
 * orders placed in this browser.
 */
import { assert, describe, it } from "@effect/vitest"
import type { Page } from "playwright-core"
import { audit, describeViolation } from "./axe.ts"
import { browserSession, DESKTOP, PHONE, screenshot } from "./support.ts"

const session = browserSession()

const DEMO = { email: "demo@sitefx.dev", password: "sitefx-demo" }

/**
 * Chromium logs every response with an error status as a console error, whoever handles it. The tests
 * provoke the platform's refusals on purpose: the stock's (428, a failed precondition) and, on the cart page of a session
 * without a cart, OWNED_CART_NOT_FOUND (404). Those, and nothing else, are expected.
 */
const unexpected = (problems: ReadonlyArray<string>, expected: ReadonlyArray<number>) =>
  problems.filter((p) => !expected.some((status) => p.includes(`Failed to load resource: the server responded with a status of ${status}`)))

const count = (page: Page) => page.getByTestId("cart-count")
const waitForCount = (page: Page, n: number) =>
  page.waitForFunction((n) => document.querySelector("[data-testid='cart-count']")?.textContent === String(n), n)
/** An amount the page shows (`$83.99`, `−$42.00`) as a number. */
const amount = (text: string | null) => Number((text ?? "").replace(/[^0-9.]/g, ""))
const lines = (page: Page) => page.getByRole("list", { name: "Items in your cart" })
const line = (page: Page, name: string) => lines(page).getByRole("listitem", { name })
const quantityOf = async (page: Page, name: string) => Number(await line(page, name).locator("output").textContent())
const waitForQuantity = (page: Page, name: string, n: number) =>
  page.waitForFunction(([name, n]) => {
    const item = [...document.querySelectorAll("ul[aria-label='Items in your cart'] > li")].find((li) => li.getAttribute("aria-label") === name)
    return item?.querySelector("output")?.textContent === String(n) && document.querySelector(".cart[aria-busy='true']") === null
  }, [name, n] as const)

/** The cart's totals as the page shows them. */
const totals = async (page: Page) => ({
  subtotal: amount(await page.getByTestId("cart-subtotal").textContent()),
  discount: (await page.getByTestId("cart-discount").count()) === 0 ? 0 : amount(await page.getByTestId("cart-discount").textContent()),
  total: amount(await page.getByTestId("cart-total").textContent())
})
const cents = (n: number) => Math.round(n * 100)

/** axe-core finds no serious or critical violation on the page as it is now (and read it: rules applied). */
const expectAccessible = async (page: Page, screen: string) => {
  const { violations, applied } = await audit(page)
  assert.isAbove(applied, 15, `axe-core applied only ${applied} rules to ${screen}`)
  assert.deepStrictEqual(violations.filter((v) => v.impact === "serious" || v.impact === "critical").map((v) => describeViolation(screen, v)), [])
}

/** The product page's add-to-cart button (its name says why when it is disabled). */
const addButton = (page: Page) => page.getByRole("form", { name: "Add to cart" }).getByRole("button")

/** Adds what the product page has chosen, `quantity` of it, and waits for the page to say so. */
const add = async (page: Page, quantity: number) => {
  await page.getByLabel("Quantity").fill(String(quantity))
  await addButton(page).click()
  await page.getByText("Added to your cart.").waitFor()
}

/** A visitor's cart of two products: 2 Zip Hoodies (Navy, S: 3 left, on sale) and a Linen Pillow; on the way, the refusals. */
const fillCart = async (page: Page) => {
  // a sold-out combination, named in the URL: the button says so and cannot be pressed
  await page.goto(`${session.platform.url}/#/store/product/zip-hoodie?Color=Navy&Size=M`)
  await page.getByRole("heading", { level: 1, name: "Zip Hoodie" }).waitFor()
  await page.getByRole("button", { name: "Sold out in this combination" }).waitFor()
  assert.isTrue(await addButton(page).isDisabled())
  assert.isTrue(await page.getByRole("group", { name: /^Size/ }).getByRole("radio", { name: "M (sold out)" }).isDisabled())
  // before every option is chosen, the button asks for the rest
  await page.goto(`${session.platform.url}/#/store/product/zip-hoodie?Color=Navy`)
  await page.getByRole("button", { name: "Choose Size" }).waitFor()
  assert.isTrue(await addButton(page).isDisabled())

  // S in Navy: 3 left; asking for 5 meets the platform's refusal, shown as what it means
  await page.getByRole("group", { name: /^Size/ }).getByRole("radio", { name: "S", exact: true }).check()
  await page.waitForFunction(() => /only 3 left/.test(document.querySelector("#product-stock")?.textContent ?? ""))
  await page.getByLabel("Quantity").fill("5")
  await page.getByRole("button", { name: "Add to cart" }).click()
  const refusal = page.getByRole("alert").filter({ hasText: "Not added." })
  await refusal.waitFor()
  assert.include(await refusal.textContent(), "Not enough in stock: only 3 left.")
  await expectAccessible(page, "product page with the stock's refusal")
  // nothing was added: the header counts none (or, not knowing of a cart yet, shows no count)
  assert.strictEqual(await count(page).count() === 0 ? "0" : await count(page).textContent(), "0")

  await add(page, 2)
  await waitForCount(page, 2)

  await page.goto(`${session.platform.url}/#/store/product/linen-pillow`)
  await page.getByRole("heading", { level: 1, name: "Linen Pillow" }).waitFor()
  await add(page, 1)
  await waitForCount(page, 3)
}

describe("the cart in Chromium", { timeout: 120_000 }, () => {
  for (const [name, viewport] of [["1280 px", DESKTOP], ["390 px", PHONE]] as const) {
    it(`a visitor adds two products, the header counts them, the cart page changes them and totals them (${name})`, async () => {
      const { context, page, problems } = await session.open(viewport)
      page.setDefaultTimeout(20_000)
      try {
        // a new visitor: no cart yet, and the header asks for none (no count, no refusal on every screen)
        await page.goto(`${session.platform.url}/#/store`)
        await page.getByRole("link", { name: "Cart", exact: true }).waitFor()
        assert.strictEqual(await count(page).count(), 0)
        // its cart page asks the platform, which has none for this visitor: empty, and the header now counts 0
        await page.getByRole("link", { name: "Cart", exact: true }).click()
        await page.getByText("Your cart is empty.").waitFor()
        await waitForCount(page, 0)

        await fillCart(page)

        // the header's link opens the cart page
        await page.getByRole("link", { name: /^Cart 3 items$/ }).click()
        await page.getByRole("heading", { level: 1, name: "Your cart" }).waitFor()
        await lines(page).waitFor()
        assert.deepStrictEqual(await lines(page).getByRole("heading", { level: 2 }).allTextContents(), ["Zip Hoodie", "Linen Pillow"])
        assert.include(await line(page, "Zip Hoodie").textContent(), "Size: S, Color: Navy")
        assert.strictEqual(await quantityOf(page, "Zip Hoodie"), 2)
        assert.strictEqual(await quantityOf(page, "Linen Pillow"), 1)

        // the totals: the subtotal at full prices, the sale's discount, the total the lines add up to
        const before = await totals(page)
        const lineTotals = (await lines(page).locator(".cart-line-total").allTextContents()).map(amount)
        assert.isAbove(before.discount, 0)
        assert.strictEqual(cents(before.subtotal - before.discount), cents(before.total))
        assert.strictEqual(cents(lineTotals.reduce((a, b) => a + b, 0)), cents(before.total))
        const pillow = lineTotals[1]!
        await screenshot(page, `cart-${name.replace(" ", "")}`)

        await expectAccessible(page, "cart page")

        // one more pillow, then one less: the count and the total follow
        await page.getByRole("button", { name: "One more Linen Pillow" }).click()
        await waitForQuantity(page, "Linen Pillow", 2)
        await waitForCount(page, 4)
        assert.strictEqual(cents((await totals(page)).total), cents(before.total + pillow))
        await page.getByRole("button", { name: "One less Linen Pillow" }).click()
        await waitForQuantity(page, "Linen Pillow", 1)
        await waitForCount(page, 3)
        assert.strictEqual(cents((await totals(page)).total), cents(before.total))
        // one line cannot go below one: its removal is the way
        assert.isTrue(await page.getByRole("button", { name: "One less Linen Pillow" }).isDisabled())

        // a third hoodie is the last one in stock; a fourth is refused and the cart stays as it was
        await page.getByRole("button", { name: "One more Zip Hoodie" }).click()
        await waitForQuantity(page, "Zip Hoodie", 3)
        await page.getByRole("button", { name: "One more Zip Hoodie" }).click()
        const refused = page.getByRole("alert").filter({ hasText: "Not changed." })
        await refused.waitFor()
        assert.include(await refused.textContent(), "Not enough in stock")
        await waitForQuantity(page, "Zip Hoodie", 3)
        await waitForCount(page, 4)

        // the pillow goes
        await page.getByRole("button", { name: "Remove Linen Pillow" }).click()
        await page.waitForFunction(() => document.querySelectorAll("ul[aria-label='Items in your cart'] > li").length === 1)
        await waitForCount(page, 3)
        const after = await totals(page)
        assert.strictEqual(cents(after.subtotal - after.discount), cents(after.total))
        assert.strictEqual(cents(after.total), cents(amount(await line(page, "Zip Hoodie").locator(".cart-line-total").textContent())))

        // a reload reads the same cart
        await page.reload()
        await waitForQuantity(page, "Zip Hoodie", 3)
        await waitForCount(page, 3)
        assert.deepStrictEqual(unexpected(problems, [404, 428]), [])
      } finally {
        await context.close()
      }
    })

    it(`a visitor's cart is still there after signing in (${name})`, async () => {
      const { context, page, problems } = await session.open(viewport)
      page.setDefaultTimeout(20_000)
      try {
        await fillCart(page)

        await page.goto(`${session.platform.url}/#/member`)
        const form = page.getByRole("form", { name: "Sign in" })
        await form.getByLabel("Email").fill(DEMO.email)
        await form.getByLabel("Password").fill(DEMO.password)
        // the app reads the cart again once the session is the member's (no reload): the platform gave them the visitor's
        const reread = page.waitForResponse(async (r) =>
          r.url().endsWith("/ecom/v1/carts/current/estimate-totals") && ((await r.json()) as { cart?: { buyerInfo?: { memberId?: string } } }).cart?.buyerInfo?.memberId !== undefined)
        await form.getByRole("button", { name: "Sign in" }).click()
        await page.getByRole("main").getByText(`Signed in as ${DEMO.email}`).waitFor()
        const merged = (await (await reread).json()) as { cart: { lineItems: ReadonlyArray<{ quantity: number }> } }
        assert.deepStrictEqual(merged.cart.lineItems.map((l) => l.quantity), [2, 1])
        await waitForCount(page, 3)
        await page.getByRole("link", { name: /^Cart 3 items$/ }).click()
        await lines(page).waitFor()
        assert.deepStrictEqual(await lines(page).getByRole("heading", { level: 2 }).allTextContents(), ["Zip Hoodie", "Linen Pillow"])
        assert.strictEqual(await quantityOf(page, "Zip Hoodie"), 2)
        assert.strictEqual(await quantityOf(page, "Linen Pillow"), 1)

        // the member's cart is left empty for the next run
        await page.getByRole("button", { name: "Remove Linen Pillow" }).click()
        await page.waitForFunction(() => document.querySelectorAll("ul[aria-label='Items in your cart'] > li").length === 1)
        await page.getByRole("button", { name: "Remove Zip Hoodie" }).click()
        await page.getByText("Your cart is empty.").waitFor()
        await waitForCount(page, 0)
        assert.deepStrictEqual(unexpected(problems, [428]), [])
      } finally {
        await context.close()
      }
    })
  }

  it("the checkout hands the cart to the platform's checkout page, with this app's pages to come back to", async () => {
    const { context, page, problems } = await session.open(DESKTOP)
    page.setDefaultTimeout(20_000)
    try {
      await page.goto(`${session.platform.url}/#/store/product/linen-pillow`)
      await page.getByRole("heading", { level: 1, name: "Linen Pillow" }).waitFor()
      await add(page, 1)
      await page.getByRole("link", { name: /^Cart 1 item$/ }).click()
      await lines(page).waitFor()

      // The local platform learns checkout redirect sessions and serves the checkout page in the checkout
      // work beside this one; until it has, the test answers this one call as it will (a redirect session
      // whose page is `/checkout?redirectSession=…`) and draws that page. Where the platform answers, its
      // answer and its page are used as they are. (Drop this stand-in once the platform has both.)
      let standIn = false
      await page.route("**/_api/redirects-api/v1/redirect-session", async (route) => {
        const answer = await route.fetch()
        if (answer.ok() || (route.request().postDataJSON() as { ecomCheckout?: unknown }).ecomCheckout === undefined) return route.fulfill({ response: answer })
        standIn = true
        const id = "checkout-session-1"
        const endpoint = `${session.platform.url}/checkout`
        return route.fulfill({ json: { redirectSession: { id, fullUrl: `${endpoint}?redirectSession=${id}`, urlDetails: { endpoint, searchParams: { redirectSession: id } } } } })
      })
      await page.route((url) => url.pathname === "/checkout", (route) =>
        standIn ? route.fulfill({ contentType: "text/html", body: "<!doctype html><title>Checkout</title><h1>Checkout</h1>" }) : route.continue())

      const created = page.waitForResponse((r) => r.url().endsWith("/ecom/v1/carts/current/create-checkout"))
      const redirected = page.waitForRequest((r) => r.url().endsWith("/_api/redirects-api/v1/redirect-session"))
      await page.getByRole("button", { name: "Checkout" }).click()
      const { checkoutId } = await (await created).json() as { checkoutId: string }
      const sent = (await redirected).postDataJSON() as { ecomCheckout?: { checkoutId?: string }; callbacks?: { postFlowUrl?: string; thankYouPageUrl?: string } }
      assert.match(checkoutId, /^[0-9a-f-]{36}$/)
      assert.deepStrictEqual(sent, {
        ecomCheckout: { checkoutId },
        callbacks: { postFlowUrl: `${session.platform.url}/#/store/cart`, thankYouPageUrl: `${session.platform.url}/#/store/thank-you` }
      })
      // the browser goes to the page the platform's redirect session names
      await page.waitForURL((url) => url.href.startsWith(`${session.platform.url}/checkout?redirectSession=`))
      assert.deepStrictEqual(problems, [])
    } finally {
      await context.close()
    }
  })

  it("the thank-you page names the order, and the member area lists the orders placed in this browser", async () => {
    const { context, page, problems } = await session.open(PHONE)
    page.setDefaultTimeout(20_000)
    try {
      const orderId = "7b1f3c2a-5d4e-4f60-9a8b-0c1d2e3f4a5b"
      // where the platform's checkout page sends the shopper once they have paid
      await page.goto(`${session.platform.url}/?orderId=${orderId}#/store/thank-you`)
      await page.getByRole("heading", { level: 1, name: "Thank you for your order" }).waitFor()
      assert.strictEqual(await page.getByTestId("order-id").textContent(), orderId)
      assert.include(await page.getByRole("main").textContent(), "The store sends its confirmation, with the order number")
      await expectAccessible(page, "thank-you page")
      // a reload remembers it once
      await page.reload()
      await page.getByTestId("order-id").waitFor()
      // an address without an order says so
      await page.goto(`${session.platform.url}/#/store/thank-you`)
      await page.getByRole("heading", { level: 1, name: "No order to show" }).waitFor()

      await page.goto(`${session.platform.url}/#/member`)
      const form = page.getByRole("form", { name: "Sign in" })
      await form.getByLabel("Email").fill(DEMO.email)
      await form.getByLabel("Password").fill(DEMO.password)
      await form.getByRole("button", { name: "Sign in" }).click()
      const placed = page.getByRole("region", { name: "Orders placed in this browser" })
      await placed.waitFor()
      assert.include(await placed.textContent(), "not read from the store")
      assert.deepStrictEqual(await placed.locator("li code").allTextContents(), [orderId])
      await expectAccessible(page, "member area with the orders placed in this browser")
      await screenshot(page, "member-placed-orders-390px")
      assert.deepStrictEqual(problems, [])
    } finally {
      await context.close()
    }
  })
})
