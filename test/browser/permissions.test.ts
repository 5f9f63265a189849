/**
 * The data browser follows a collection's permissions as the platform describes the collection, in
 * Chromium against `sitefx serve --seed demo`: when the site's owner lets members add posts and each
 * edit and remove their own (through the platform's API, with the site's key), a visitor is still offered
 * nothing and told to sign in, and a member is offered adding, then editing and removing on the post it
 * added and on no other post, and the platform takes those writes. When the owner closes a write after
 * the page has read the permissions, the platform's refusal is shown in its own words.
 */
import { assert, describe, it } from "@effect/vitest"
import type { Page } from "playwright-core"
import { browserSession, DESKTOP, PHONE, screenshot } from "./support.ts"

const session = browserSession()

const DEMO = { email: "demo@sitefx.dev", password: "sitefx-demo" }
/** What Chromium logs for a request the platform answered with 403. */
const REFUSED = "error: Failed to load resource: the server responded with a status of 403 (Forbidden)"
const OWNERS_ONLY = { read: "ANYONE", insert: "ADMIN", update: "ADMIN", remove: "ADMIN" }
const MEMBERS_WRITE = { read: "ANYONE", insert: "SITE_MEMBER", update: "SITE_MEMBER_AUTHOR", remove: "SITE_MEMBER_AUTHOR" }

/** Sets the Posts collection's permissions as the site's owner (an API key), and checks the platform took them. */
const setPostsPermissions = async (permissions: Record<string, string>) => {
  const { url, apiKey } = session.platform
  const res = await fetch(`${url}/wix-data/v2/collections`, {
    method: "PUT",
    headers: { authorization: apiKey, "content-type": "application/json" },
    body: JSON.stringify({ collection: { id: "Posts", permissions } })
  })
  assert.strictEqual(res.status, 200, await res.clone().text())
  assert.deepStrictEqual(((await res.json()) as { collection: { permissions: unknown } }).collection.permissions, permissions)
}

const signIn = async (page: Page) => {
  await page.goto(`${session.platform.url}/#/member`)
  const form = page.getByRole("form", { name: "Sign in" })
  await form.getByLabel("Email").fill(DEMO.email)
  await form.getByLabel("Password").fill(DEMO.password)
  await form.getByRole("button", { name: "Sign in" }).click()
  await page.getByRole("banner").getByText(`Signed in as ${DEMO.email}`).waitFor()
}

const items = (page: Page) => page.getByRole("list", { name: "Posts items" })
const card = (page: Page, title: string) => items(page).getByRole("listitem").filter({ has: page.getByRole("heading", { level: 2, name: title, exact: true }) })
const waitForStatus = (page: Page, pattern: RegExp) =>
  page.waitForFunction((source) => new RegExp(source).test(document.querySelector("p.results")?.textContent ?? ""), pattern.source)

describe("the data browser follows the platform's permissions", () => {
  for (const [name, viewport] of [["desktop", DESKTOP], ["phone", PHONE]] as const) {
    it(`members may add posts and change their own: the page offers just that (${name})`, async () => {
      await setPostsPermissions(MEMBERS_WRITE)
      const { context, page, problems } = await session.open(viewport)
      try {
        // a visitor: nothing offered, told that members may and how to become one
        await page.goto(`${session.platform.url}/#/data/Posts?f=title&op=contains&v=Welcome`)
        await waitForStatus(page, /^Showing 1 of 1 item$/)
        const note = page.locator(".permission-note").filter({ hasText: "Only signed-in members add, edit and remove posts: sign in first." })
        await note.waitFor()
        await note.getByRole("link", { name: "sign in" }).waitFor()
        assert.strictEqual(await page.getByText("Add an item to Posts").count(), 0)
        assert.strictEqual(await items(page).getByRole("button").count(), 0)
        // the page says who writes as the platform says it, not as the seed declared
        assert.strictEqual(await page.locator(".permissions dd").nth(1).textContent(), "Signed-in members (add); Signed-in members, their own posts (edit and remove)")

        // a member: adding offered; the seeded post (no owner) offers no change
        await signIn(page)
        const title = `A member's post ${name} ${Date.now().toString(36)}`
        await page.goto(`${session.platform.url}/#/data/Posts?f=title&op=contains&v=post`)
        await page.getByText("You edit and remove only the posts you added.").waitFor()
        await page.getByText("Add an item to Posts").click()
        await page.locator(".add-item").getByLabel("Title").fill(title)
        await page.locator(".add-item").getByLabel("Body").fill("Written by a member.")
        await page.getByRole("button", { name: "Add item" }).click()
        await page.getByRole("status").filter({ hasText: `Added “${title}”.` }).waitFor()

        // its own post: edit and remove; the platform takes the edit
        const mine = card(page, title)
        await mine.getByRole("button", { name: `Edit ${title}` }).click()
        await mine.getByLabel("Body").fill("Edited by its author.")
        await mine.getByRole("button", { name: "Save changes" }).click()
        await mine.getByText("Edited by its author.").waitFor()
        await mine.getByRole("button", { name: `Remove ${title}` }).waitFor()
        await page.goto(`${session.platform.url}/#/data/Posts?f=title&op=contains&v=Welcome`)
        await waitForStatus(page, /^Showing 1 of 1 item$/)
        await page.getByText("Add an item to Posts").waitFor()
        assert.strictEqual(await card(page, "Welcome to sitefx").getByRole("button").count(), 0)
        await screenshot(page, `permissions-member-${name}`)

        // and removes it
        await page.goto(`${session.platform.url}/#/data/Posts?f=title&op=contains&v=${encodeURIComponent(title)}`)
        await waitForStatus(page, /^Showing 1 of 1 item$/)
        await card(page, title).getByRole("button", { name: `Remove ${title}` }).click()
        await card(page, title).getByRole("group", { name: `Remove ${title}?` }).getByRole("button", { name: "Remove" }).click()
        await waitForStatus(page, /^No items match\.$/)
        assert.deepStrictEqual(problems, [])
      } finally {
        await context.close()
        await setPostsPermissions(OWNERS_ONLY)
      }
    }, 120_000)
  }

  it("a write the owner closed after the page read the permissions is refused, in the platform's words", async () => {
    await setPostsPermissions(MEMBERS_WRITE)
    const { context, page, problems } = await session.open(DESKTOP)
    try {
      await signIn(page)
      await page.goto(`${session.platform.url}/#/data/Posts`)
      await page.getByText("Add an item to Posts").click()
      await setPostsPermissions(OWNERS_ONLY)
      const title = `Too late ${Date.now().toString(36)}`
      await page.locator(".add-item").getByLabel("Title").fill(title)
      await page.getByRole("button", { name: "Add item" }).click()
      const refusal = page.getByRole("alert").filter({ hasText: "The platform refused to add this item." })
      await refusal.waitFor()
      assert.include(await refusal.textContent(), "WDE0027")
      assert.include(await refusal.textContent(), "does not have permissions to insert on the Posts collection")
      assert.notInclude(await items(page).getByRole("heading", { level: 2 }).allTextContents(), title)
      // a new look at the collection follows the owner's change
      await page.reload()
      await page.getByText("Only the site's owner adds, edits and removes posts.").waitFor()
      assert.strictEqual(await page.getByText("Add an item to Posts").count(), 0)
      assert.deepStrictEqual(problems, [REFUSED])
    } finally {
      await context.close()
      await setPostsPermissions(OWNERS_ONLY)
    }
  }, 120_000)
})
