/**
 * The live events panel in Chromium: a write made by another client (the platform's HTTP API, with its
 * key) appears on the page without a reload, with what it was and who made it; the kind filter keeps
 * other events out. Screenshots at phone and desktop sizes.
 */
import { assert, describe, it } from "@effect/vitest"
import { browserSession, DESKTOP, PHONE, screenshot } from "./support.ts"

const session = browserSession()

/** Writes an item through the platform's API, as another client would. */
const writeItem = async (title: string): Promise<string> => {
  const { url, apiKey } = session.platform
  const res = await fetch(`${url}/wix-data/v2/items`, {
    method: "POST",
    headers: { authorization: apiKey, "content-type": "application/json" },
    body: JSON.stringify({ dataCollectionId: "Posts", dataItem: { data: { title } } })
  })
  assert.strictEqual(res.status, 200)
  return ((await res.json()) as { dataItem: { id: string } }).dataItem.id
}

describe("live events panel in Chromium", () => {
  for (const [name, viewport] of [["desktop", DESKTOP], ["phone", PHONE]] as const) {
    it(`a write by another client appears without a reload (${name})`, async () => {
      const { context, page, problems } = await session.open(viewport)
      try {
        await page.goto(`${session.platform.url}/#/events`)
        await page.getByText("Connected.").waitFor()
        // the stream is connected once the platform has taken the request: write until the event shows
        const list = page.getByRole("list", { name: "Events" })
        let id = ""
        for (let i = 0; i < 20 && !(await list.isVisible()); i++) {
          id = await writeItem(`Live from another client ${name} ${i}`)
          await page.waitForTimeout(150)
        }
        await list.getByText(`created data_item ${id}`).waitFor()
        assert.include(await list.getByRole("listitem").first().textContent(), "by the site's owner")
        // only stock events: a data write stays out
        await page.getByLabel("Show").selectOption({ label: "Stock" })
        await page.getByText("Connected.").waitFor()
        const hidden = await writeItem(`Not shown ${name}`)
        await page.waitForTimeout(300)
        assert.isFalse(await page.getByRole("list", { name: "Events" }).isVisible())
        // back to data items: both writes are there, the newest first
        await page.getByLabel("Show").selectOption({ label: "Data items" })
        await list.getByText(`created data_item ${hidden}`).waitFor()
        assert.include(await list.getByRole("listitem").first().textContent(), hidden)
        await screenshot(page, `events-${name}`)
        assert.deepStrictEqual(problems, [])
      } finally {
        await context.close()
      }
    })
  }
})
