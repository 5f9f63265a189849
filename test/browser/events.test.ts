/**
 * The live events panel in Chromium: writes made by another client (the platform's HTTP API, with its
 * key) appear on the page without a reload, each row saying what happened to which item of which
 * collection (by its title, another field naming it, or its id), when (a `<time>` with the event's time)
 * and who made it; a removal names the item by the title an earlier event showed; the kind filter keeps
 * other events out. Screenshots at phone and desktop sizes.
 */
import { assert, describe, it } from "@effect/vitest"
import type { Locator } from "playwright-core"
import { browserSession, DESKTOP, PHONE, screenshot } from "./support.ts"

const session = browserSession()

/** Calls the platform's data API with the site's key, as another client would. */
const api = async <T>(path: string, body: unknown): Promise<T> => {
  const { url, apiKey } = session.platform
  const res = await fetch(`${url}/wix-data/v2/items${path}`, {
    method: "POST",
    headers: { authorization: apiKey, "content-type": "application/json" },
    body: JSON.stringify(body)
  })
  assert.strictEqual(res.status, 200, await res.clone().text())
  return (await res.json()) as T
}

/** Writes an item through the platform's API, as another client would. */
const writeItem = (collection: string, data: Record<string, unknown>): Promise<string> =>
  api<{ dataItem: { id: string } }>("", { dataCollectionId: collection, dataItem: { data } }).then((r) => r.dataItem.id)

/** The time a row shows: its `<time>`'s machine-readable value, and whether its text is that time as the page's locale writes it. */
const timeOf = async (row: Locator): Promise<{ readonly at: number; readonly readable: boolean }> => {
  const time = row.locator("time")
  assert.strictEqual(await time.count(), 1)
  return time.evaluate((el) => {
    const at = new Date(el.getAttribute("datetime") ?? "")
    return { at: at.getTime(), readable: el.textContent === at.toLocaleTimeString() }
  })
}

describe("live events panel in Chromium", () => {
  for (const [name, viewport] of [["desktop", DESKTOP], ["phone", PHONE]] as const) {
    it(`writes by another client appear without a reload, with their collection, title and time (${name})`, async () => {
      const { context, page, problems } = await session.open(viewport)
      try {
        await page.goto(`${session.platform.url}/#/events`)
        await page.getByText("Connected.").waitFor()
        // the stream is connected once the platform has taken the request: write until the event shows
        const list = page.getByRole("list", { name: "Events" })
        let title = ""
        let before = Date.now()
        let after = before
        for (let i = 0; i < 20 && !(await list.isVisible()); i++) {
          title = `Live from another client ${name} ${i}`
          before = Date.now()
          await writeItem("Posts", { title })
          after = Date.now()
          await page.waitForTimeout(150)
        }
        const created = list.getByRole("listitem").filter({ hasText: title })
        await created.waitFor()
        assert.strictEqual(await created.locator(".event-what").textContent(), `Created “${title}” in Posts`)
        assert.strictEqual(await created.locator(".event-collection").textContent(), "Posts")
        assert.include(await created.textContent(), "by the site's owner")
        assert.include(await created.textContent(), "wix.data.v2.data_item_created")
        // the event's time, as the platform stamped it while the write ran (one clock: this machine's)
        const time = await timeOf(created)
        assert.isTrue(time.readable)
        assert.isAtLeast(time.at, before - 1000)
        assert.isAtMost(time.at, after + 1000)

        // an item named by another field (an author's name), and one named by nothing but its id
        await writeItem("Authors", { name: `Author ${name}`, bio: "Writes live." })
        await list.getByRole("listitem").filter({ hasText: `Created “Author ${name}” in Authors` }).waitFor()
        const nameless = await writeItem("Posts", { likes: 1 })
        const bare = list.getByRole("listitem").filter({ hasText: `Created item ${nameless} in Posts` })
        await bare.waitFor()
        assert.isTrue((await timeOf(bare)).readable)

        // a removal carries only the ids: the row names the item by its creation's title
        const removed = await writeItem("Posts", { title: `Short-lived ${name}` })
        await list.getByRole("listitem").filter({ hasText: `Created “Short-lived ${name}” in Posts` }).waitFor()
        await api("/remove", { dataCollectionId: "Posts", dataItemId: removed })
        const removal = list.getByRole("listitem").filter({ hasText: `Removed “Short-lived ${name}” from Posts` })
        await removal.waitFor()
        assert.include(await removal.textContent(), "wix.data.v2.data_item_deleted")

        // only stock events: a data write stays out
        await page.getByLabel("Show").selectOption({ label: "Stock" })
        await page.getByText("Connected.").waitFor()
        const hidden = `Not shown ${name}`
        await writeItem("Posts", { title: hidden })
        await page.waitForTimeout(300)
        assert.isFalse(await page.getByRole("list", { name: "Events" }).isVisible())
        // back to data items: the writes are there, the newest first
        await page.getByLabel("Show").selectOption({ label: "Data items" })
        await list.getByText(`Created “${hidden}” in Posts`).waitFor()
        assert.include(await list.getByRole("listitem").first().textContent(), hidden)
        assert.include(await list.textContent(), title)
        await screenshot(page, `events-${name}`)
        assert.deepStrictEqual(problems, [])
      } finally {
        await context.close()
      }
    })
  }
})
