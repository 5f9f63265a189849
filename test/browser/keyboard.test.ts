/**
 * The app from the keyboard alone, in Chromium: Tab to move, Enter and Space to act, typing into fields.
 * In the store: search, open a product, choose its options; from the header, the sign-in form: sign in
 * with the demo member and sign out again. Every element the keyboard reaches shows where the focus is
 * (the focus ring of `:focus-visible`, an outline at least 2 px wide).
 */
import { assert, describe, it } from "@effect/vitest"
import type { Page } from "playwright-core"
import { browserSession, DESKTOP, PHONE, screenshot } from "./support.ts"

const session = browserSession()

const DEMO = { email: "demo@sitefx.dev", password: "sitefx-demo" }

interface Focused {
  readonly tag: string
  readonly type: string
  readonly name: string
  /** The focus ring shows: the element matches `:focus-visible` and draws an outline. */
  readonly ring: boolean
}

/** What has the focus: its tag, its type, its accessible name (roughly), and whether its focus ring shows. */
const focused = (page: Page): Promise<Focused> =>
  page.evaluate(() => {
    const el = document.activeElement as HTMLElement | null
    if (el === null || el === document.body) return { tag: "body", type: "", name: "", ring: false }
    const labelled = (el as HTMLInputElement).labels?.[0]?.textContent ?? ""
    const name = el.getAttribute("aria-label") ?? (labelled !== "" ? labelled : el.textContent ?? "")
    const style = getComputedStyle(el)
    const ring = el.matches(":focus-visible") && style.outlineStyle !== "none" && parseFloat(style.outlineWidth) >= 2
    return { tag: el.tagName.toLowerCase(), type: el.getAttribute("type") ?? "", name: name.trim().replace(/\s+/g, " "), ring }
  })

/** Presses Tab (Shift+Tab backwards) until `wanted` has the focus; every stop on the way shows its focus ring. */
const tabTo = async (page: Page, wanted: (f: Focused) => boolean, what: string, options: { readonly back?: boolean } = {}): Promise<Focused> => {
  const stops: Array<string> = []
  for (let i = 0; i < 80; i++) {
    await page.keyboard.press(options.back === true ? "Shift+Tab" : "Tab")
    const f = await focused(page)
    stops.push(`${f.tag}${f.type === "" ? "" : `[${f.type}]`} "${f.name.slice(0, 40)}"`)
    if (f.tag !== "body") assert.isTrue(f.ring, `no visible focus on ${stops[stops.length - 1]}`)
    if (wanted(f)) return f
  }
  throw new Error(`the keyboard never reached ${what}; it went through ${stops.join(", ")}`)
}

describe("keyboard-only use in Chromium", { timeout: 60_000 }, () => {
  for (const [name, viewport] of [["desktop", DESKTOP], ["phone", PHONE]] as const) {
    it(`search the store, open a product and choose its options (${name})`, async () => {
      const { context, page, problems } = await session.open(viewport)
      page.setDefaultTimeout(20_000)
      try {
        await page.goto(`${session.platform.url}/#/store`)
        const grid = page.getByRole("list", { name: "Products" })
        await grid.getByRole("listitem").first().waitFor()

        await tabTo(page, (f) => f.tag === "input" && f.name === "Search products", "the search box")
        await page.keyboard.type("Zip")
        await page.keyboard.press("Enter")
        await page.waitForURL(/Zip/)
        await grid.getByRole("link", { name: /Zip Hoodie/ }).waitFor()

        await tabTo(page, (f) => f.tag === "a" && f.name.includes("Zip Hoodie"), "the Zip Hoodie's card")
        await page.keyboard.press("Enter")
        const main = page.getByRole("main")
        await main.getByRole("heading", { level: 1, name: "Zip Hoodie" }).waitFor()

        // each option is a group of radios: Tab enters a group, Space chooses the focused choice
        const groups = main.getByRole("group")
        const count = await groups.count()
        assert.isAtLeast(count, 2)
        for (let i = 0; i < count; i++) {
          const group = groups.nth(i)
          const legend = (await group.locator("legend").textContent())?.trim() ?? ""
          await tabTo(page, (f) => f.tag === "input" && f.type === "radio", `a choice of ${legend}`)
          await page.keyboard.press("Space")
          assert.strictEqual(await group.getByRole("radio", { checked: true }).count(), 1, `a ${legend} chosen`)
        }
        // every option chosen: the stock line speaks of this combination
        assert.match(await page.locator("#product-stock").textContent() ?? "", /^(In stock|Sold out in this combination|Available for preorder)/)
        await screenshot(page, `keyboard-product-${name}`)

        // back to the store by the breadcrumb, from the keyboard
        await tabTo(page, (f) => f.tag === "a" && f.name === "Store" && !f.name.includes("demo"), "the way back to the store", { back: true })
        await page.keyboard.press("Enter")
        await page.waitForURL(/#\/store(\?|$)/)
        await grid.getByRole("listitem").first().waitFor()
        assert.deepStrictEqual(problems, [])
      } finally {
        await context.close()
      }
    })

    it(`sign in from the header's link with the demo member, and sign out (${name})`, async () => {
      const { context, page, problems } = await session.open(viewport)
      page.setDefaultTimeout(20_000)
      try {
        await page.goto(`${session.platform.url}/#/store`)
        const header = page.getByRole("banner")
        await header.getByRole("link", { name: "Sign in" }).waitFor()
        await tabTo(page, (f) => f.tag === "a" && f.name === "Sign in", "the header's sign-in link")
        await page.keyboard.press("Enter")
        const form = page.getByRole("form", { name: "Sign in" })
        await form.waitFor()

        await tabTo(page, (f) => f.tag === "input" && f.name.startsWith("Email"), "the email field")
        await page.keyboard.type(DEMO.email)
        await tabTo(page, (f) => f.tag === "input" && f.name.startsWith("Password"), "the password field")
        await page.keyboard.type(DEMO.password)
        await tabTo(page, (f) => f.tag === "button" && f.name === "Sign in", "the Sign in button")
        await page.keyboard.press("Space")
        await page.getByRole("main").getByText(`Signed in as ${DEMO.email}`).waitFor()
        await header.getByText(`Signed in as ${DEMO.email}`).waitFor()
        await screenshot(page, `keyboard-signed-in-${name}`)

        await tabTo(page, (f) => f.tag === "button" && f.name === "Sign out", "a Sign out button")
        await page.keyboard.press("Enter")
        await header.getByRole("link", { name: "Sign in" }).waitFor()
        await form.waitFor()
        assert.deepStrictEqual(problems, [])
      } finally {
        await context.close()
      }
    })
  }
})
