/**
 * The data browser's optimistic writes in Chromium against `sitefx serve --seed demo`: a visitor's new
 * post shows in the list while the platform has not answered yet (its answer held back for a moment),
 * and when the platform refuses it, it leaves the list and the refusal is shown in the platform's words; a
 * removal leaves the list at once and, refused, the item comes back with the refusal on its card. The
 * page offers a visitor those writes because the site's owner opened them to anyone when it loaded, and
 * the owner closes them again before the platform takes them (through the platform's API, with its key).
 */
import { assert, describe, it } from "@effect/vitest"
import { browserSession } from "./support.ts"

const session = browserSession()

/** What Chromium logs for a request the platform answered with 403. */
const REFUSED = "error: Failed to load resource: the server responded with a status of 403 (Forbidden)"

/** Sets who may insert and remove posts, as the site's owner (an API key). */
const postsWrittenBy = async (role: "ANYONE" | "ADMIN") => {
  const { url, apiKey } = session.platform
  const res = await fetch(`${url}/wix-data/v2/collections`, {
    method: "PUT",
    headers: { authorization: apiKey, "content-type": "application/json" },
    body: JSON.stringify({ collection: { id: "Posts", permissions: { insert: role, remove: role } } })
  })
  assert.strictEqual(res.status, 200, await res.clone().text())
}

describe("optimistic writes in the data browser", () => {
  it("a visitor's insert shows at once, then leaves the list with the platform's refusal shown", async () => {
    await postsWrittenBy("ANYONE")
    const { context, page, problems } = await session.open()
    try {
      // the insert's answer is held back, so what shows before it can be seen
      let release!: () => void
      const held = new Promise<void>((resolve) => (release = resolve))
      let inserts = 0
      await page.route((url) => url.pathname === "/wix-data/v2/items", async (route) => {
        if (route.request().method() !== "POST") return route.continue()
        inserts++
        await held
        await route.continue()
      })
      await page.goto(`${session.platform.url}/#/data/Posts`)
      const list = page.getByRole("list", { name: "Posts items" })
      await page.waitForFunction(() => /^Showing 3 of 3 items$/.test(document.querySelector("p.results")?.textContent ?? ""))
      const title = `Optimistic ${Date.now().toString(36)}`
      await page.getByText("Add an item to Posts").click()
      await postsWrittenBy("ADMIN")
      await page.locator(".add-item").getByLabel("Title").fill(title)
      await page.getByRole("button", { name: "Add item" }).click()

      // shown first in the list, counted, while the platform has not answered
      const added = list.getByRole("heading", { level: 2, name: title })
      await added.waitFor()
      assert.strictEqual((await list.getByRole("heading", { level: 2 }).allTextContents())[0], title)
      assert.match((await page.locator("p.results").textContent()) ?? "", /^Showing 4 of 4 items$/)
      assert.strictEqual(inserts, 1)
      assert.strictEqual(await page.getByRole("alert").count(), 0)
      // marked as not saved yet
      const pendingCard = list.getByRole("listitem").filter({ hasText: title })
      assert.strictEqual(await pendingCard.locator(".item-meta").textContent(), "Saving…")
      assert.strictEqual(await pendingCard.locator("article").getAttribute("aria-busy"), "true")

      release()
      const refusal = page.getByRole("alert").filter({ hasText: "The platform refused to add this item." })
      await refusal.waitFor()
      assert.include(await refusal.textContent(), "WDE0027")
      // taken back out: the list is as it was
      await added.waitFor({ state: "detached" })
      assert.notInclude(await list.getByRole("heading", { level: 2 }).allTextContents(), title)
      await page.waitForFunction(() => /^Showing 3 of 3 items$/.test(document.querySelector("p.results")?.textContent ?? ""))
      assert.deepStrictEqual(problems, [REFUSED])
    } finally {
      await context.close()
      await postsWrittenBy("ADMIN")
    }
  }, 120_000)

  it("a visitor's removal takes the item out at once; refused, the item comes back saying why", async () => {
    await postsWrittenBy("ANYONE")
    const { context, page, problems } = await session.open()
    try {
      let release!: () => void
      const held = new Promise<void>((resolve) => (release = resolve))
      await page.route((url) => url.pathname === "/wix-data/v2/items/remove", async (route) => {
        await held
        await route.continue()
      })
      await page.goto(`${session.platform.url}/#/data/Posts`)
      const list = page.getByRole("list", { name: "Posts items" })
      await page.waitForFunction(() => /^Showing 3 of 3 items$/.test(document.querySelector("p.results")?.textContent ?? ""))
      const card = list.getByRole("listitem").filter({ hasText: "Stable cursors" })
      await card.getByRole("button", { name: "Remove Stable cursors" }).click()
      await postsWrittenBy("ADMIN")
      await card.getByRole("group", { name: "Remove Stable cursors?" }).getByRole("button", { name: "Remove" }).click()

      // gone while the platform has not answered
      await card.waitFor({ state: "detached" })
      assert.match((await page.locator("p.results").textContent()) ?? "", /^Showing 2 of 2 items$/)

      release()
      // back, with the refusal on it
      const back = list.getByRole("listitem").filter({ hasText: "Stable cursors" })
      const refusal = back.getByRole("alert").filter({ hasText: "The platform refused to remove this item." })
      await refusal.waitFor()
      assert.include(await refusal.textContent(), "WDE0027")
      await page.waitForFunction(() => /^Showing 3 of 3 items$/.test(document.querySelector("p.results")?.textContent ?? ""))
      assert.deepStrictEqual(problems, [REFUSED])
    } finally {
      await context.close()
      await postsWrittenBy("ADMIN")
    }
  }, 120_000)
})
