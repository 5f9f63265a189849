/**
 * The data browser in Chromium against `sitefx serve --seed demo`: the collections, a collection's items
 * filtered, sorted and paged (kept in the URL); a visitor offered no write on Posts, which only the site's
 * owner writes, and told so; a member signed in through the member area adding, editing and removing
 * notes, and offered no write on Posts either; items changed by another client (the platform's HTTP API,
 * with the site's key) showing without a reload. Screenshots at a phone and a desktop size. No console
 * line is allowed: nothing is asked that the platform refuses.
 */
import { assert, describe, it } from "@effect/vitest"
import type { Page } from "playwright-core"
import { browserSession, DESKTOP, PHONE, screenshot } from "./support.ts"

/**
 * How many elements `locator` matches once that number reads `expected`, or after `ms` the last reading.
 * One wait for "detached" is not enough while a list re-renders: the card can match nothing for a moment
 * (so the wait ends) while the write it waits for is still running.
 */
const countSettles = async (locator: { readonly count: () => Promise<number> }, expected: number, ms = 5000): Promise<number> => {
  const until = Date.now() + ms
  let count = await locator.count()
  while (count !== expected && Date.now() < until) {
    await new Promise((resolve) => setTimeout(resolve, 50))
    count = await locator.count()
  }
  return count
}

const session = browserSession()

const DEMO = { email: "demo@sitefx.dev", password: "sitefx-demo" }

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
const insertPost = (data: Record<string, unknown>) =>
  api<{ dataItem: { id: string } }>("", { dataCollectionId: "Posts", dataItem: { data } }).then((r) => r.dataItem.id)
const updatePost = (id: string, data: Record<string, unknown>) => api("/update", { dataCollectionId: "Posts", dataItem: { id, data: { _id: id, ...data } } })
const removePost = (id: string) => api("/remove", { dataCollectionId: "Posts", dataItemId: id })

const items = (page: Page, collection: string) => page.getByRole("list", { name: `${collection} items` })
const titles = (page: Page, collection: string) => items(page, collection).getByRole("heading", { level: 2 }).allTextContents()
/** Waits for the results' status line to read `pattern`; past the wait, says what the page showed instead. */
const waitForStatus = (page: Page, pattern: RegExp) =>
  page.waitForFunction((source) => new RegExp(source).test(document.querySelector("p.results")?.textContent ?? ""), pattern.source).catch(async (error: unknown) => {
    const shown = await page.evaluate(() => ({
      hash: location.hash,
      status: document.querySelector("p.results")?.textContent ?? null,
      value: document.querySelector<HTMLInputElement>(".data-filters input[id$='-value']")?.value ?? null,
      main: document.querySelector("main")?.textContent?.slice(0, 600) ?? null
    })).catch(() => undefined)
    throw new Error(`the status never read ${pattern}; the page showed ${JSON.stringify(shown)}`, { cause: error })
  })

/** The collection's page offers no adding, and no item an edit or a removal (its items listed, its permissions read). */
const noWrites = async (page: Page, collection: string) => {
  assert.isAbove(await items(page, collection).getByRole("listitem").count(), 0)
  assert.strictEqual(await page.getByText(`Add an item to ${collection}`).count(), 0)
  assert.strictEqual(await page.getByRole("button", { name: "Add item" }).count(), 0)
  assert.strictEqual(await items(page, collection).getByRole("button", { name: /^(Edit|Remove) / }).count(), 0)
  assert.strictEqual(await page.getByRole("main").getByRole("button", { name: /^(Edit|Remove)$/ }).count(), 0)
}

describe("data browser in Chromium", () => {
  for (const [name, viewport] of [["desktop", DESKTOP], ["phone", PHONE]] as const) {
    it(`the collections, and a collection's items filtered, sorted and paged (${name})`, async () => {
      const tag = `paging-${name}-${Date.now().toString(36)}`
      for (let i = 1; i <= 7; i++) await insertPost({ title: `Paged post ${i}`, likes: 100 + i, tags: [tag] })
      const { context, page, problems } = await session.open(viewport)
      try {
        await page.goto(`${session.platform.url}/#/data`)
        const list = page.getByRole("list", { name: "Collections" })
        await list.waitFor()
        assert.deepStrictEqual(await list.getByRole("heading", { level: 2 }).allTextContents(), ["Posts", "Authors", "Notes"])
        // who reads and writes each, from the permissions the collections declare
        const card = (id: string) => list.getByRole("listitem").filter({ has: page.getByRole("heading", { name: id }) })
        assert.deepStrictEqual(await card("Posts").locator("dd").allTextContents(), ["Anyone", "The site's owner"])
        assert.deepStrictEqual(await card("Notes").locator("dd").allTextContents(), ["The member who wrote it", "Signed-in members, their own notes"])
        await page.getByText("You are browsing as a visitor.").waitFor()
        await screenshot(page, `data-collections-${name}`)

        await list.getByRole("link", { name: "Posts" }).click()
        await page.getByRole("heading", { level: 1, name: "Posts" }).waitFor()
        // five a page, and how many there are
        await waitForStatus(page, /^Showing 5 of \d+ items$/)

        // a filter: titles containing "cursor"; a reference shown by the name it points to
        await page.getByLabel("Filter on").selectOption({ label: "Title" })
        await page.getByLabel("Condition").selectOption({ label: "contains" })
        await page.getByLabel("Value").fill("cursor")
        await waitForStatus(page, /^Showing 1 of 1 item$/)
        assert.deepStrictEqual(await titles(page, "Posts"), ["Stable cursors"])
        assert.include(await items(page, "Posts").textContent(), "Grace Hopper")

        // a sort: the seeded posts by likes, fewest first
        await page.getByLabel("Value").fill("")
        await page.getByRole("button", { name: "Apply" }).click()
        await page.getByLabel("Filter on").selectOption({ label: "Likes" })
        await page.getByLabel("Condition").selectOption({ label: "<" })
        await page.getByLabel("Value").fill("100")
        await page.getByLabel("Sort by").selectOption({ label: "Likes" })
        await page.getByLabel("Order").selectOption({ label: "Ascending" })
        await page.waitForFunction(() => location.hash.includes("sort=likes") && location.hash.includes("dir=asc") && location.hash.includes("v=100"))
        await waitForStatus(page, /^Showing 3 of 3 items$/)
        assert.deepStrictEqual(await titles(page, "Posts"), ["Filters in SQL", "Welcome to sitefx", "Stable cursors"])

        // a value typed and not yet in the URL stays with its field: changing the field at once drops it
        await page.getByLabel("Value").fill("12")
        await page.getByLabel("Filter on").selectOption({ label: "Tags" })
        await page.waitForTimeout(600) // past the typing's 300 ms
        assert.strictEqual(await page.getByLabel("Value").inputValue(), "")
        assert.notInclude(await page.evaluate(() => location.hash), "v=12")

        // paging: seven posts with one tag, five a page
        await page.getByLabel("Filter on").selectOption({ label: "Tags" })
        await page.getByLabel("Value").fill(tag)
        await waitForStatus(page, /^Showing 5 of 7 items$/)
        assert.deepStrictEqual(await titles(page, "Posts"), [1, 2, 3, 4, 5].map((i) => `Paged post ${i}`))
        await page.getByRole("button", { name: "Load more items" }).click()
        await waitForStatus(page, /^Showing 7 of 7 items$/)
        assert.deepStrictEqual(await titles(page, "Posts"), [1, 2, 3, 4, 5, 6, 7].map((i) => `Paged post ${i}`))
        assert.strictEqual(await page.getByRole("button", { name: "Load more items" }).count(), 0)

        // the URL keeps the view
        await page.reload()
        await waitForStatus(page, /^Showing 5 of 7 items$/)
        assert.strictEqual(await page.getByLabel("Value").inputValue(), tag)
        assert.strictEqual(await page.getByLabel("Sort by").inputValue(), "likes")
        assert.deepStrictEqual(problems, [])
      } finally {
        await context.close()
      }
    }, 120_000)

    it(`a visitor may read Posts but is offered no write, and told who may (${name})`, async () => {
      const { context, page, problems } = await session.open(viewport)
      try {
        await page.goto(`${session.platform.url}/#/data/Posts?f=title&op=contains&v=Welcome`)
        await waitForStatus(page, /^Showing 1 of 1 item$/)
        // said once the page has the collection's permissions from the platform
        await page.getByText("Only the site's owner adds, edits and removes posts.").waitFor()
        await noWrites(page, "Posts")
        assert.deepStrictEqual(await titles(page, "Posts"), ["Welcome to sitefx"])
        await screenshot(page, `data-read-only-${name}`)

        // Notes are each member's own: a visitor is asked to sign in
        await page.goto(`${session.platform.url}/#/data/Notes`)
        await page.getByText("Notes are private to each member.").waitFor()
        assert.strictEqual(await page.getByText("Add an item to Notes").count(), 0)
        // nothing was asked that the platform refused
        assert.deepStrictEqual(problems, [])
      } finally {
        await context.close()
      }
    })

    it(`a member adds, edits and removes their notes, and is offered no write on Posts (${name})`, async () => {
      const { context, page, problems } = await session.open(viewport)
      try {
        // sign in through the member area
        await page.goto(`${session.platform.url}/#/member`)
        const form = page.getByRole("form", { name: "Sign in" })
        await form.getByLabel("Email").fill(DEMO.email)
        await form.getByLabel("Password").fill(DEMO.password)
        await form.getByRole("button", { name: "Sign in" }).click()
        await page.getByRole("status").filter({ hasText: `Signed in as ${DEMO.email}` }).waitFor()

        await page.getByRole("navigation", { name: "Sections" }).getByRole("link", { name: "Data" }).click()
        await page.getByRole("list", { name: "Collections" }).getByRole("link", { name: "Notes" }).click()
        await page.getByText(`Signed in as ${DEMO.email}.`).waitFor()
        await waitForStatus(page, /^Showing \d+ of \d+ items?$/)
        assert.include(await titles(page, "Notes"), "My first note")
        // the member's own note: edit and remove offered, and nothing said against it
        const first = items(page, "Notes").getByRole("listitem").filter({ has: page.getByRole("heading", { name: "My first note" }) })
        await first.getByRole("button", { name: "Edit My first note" }).waitFor()
        await first.getByRole("button", { name: "Remove My first note" }).waitFor()
        assert.strictEqual(await page.locator(".permission-note").count(), 0)

        // add
        const title = `Shopping list ${name}`
        await page.getByText("Add an item to Notes").click()
        const add = page.locator(".add-item")
        await add.getByLabel("Title").fill(title)
        await add.getByLabel("Body").fill("Bread, eggs")
        await add.getByRole("button", { name: "Add item" }).click()
        await page.getByRole("status").filter({ hasText: `Added “${title}”.` }).waitFor()
        const note = items(page, "Notes").getByRole("listitem").filter({ has: page.getByRole("heading", { name: title }) })
        await note.waitFor()
        assert.include(await note.textContent(), "Bread, eggs")
        // the form is empty again
        assert.strictEqual(await add.getByLabel("Title").inputValue(), "")

        // edit
        await note.getByRole("button", { name: `Edit ${title}` }).click()
        await note.getByLabel("Body").fill("Bread, eggs, coffee")
        await note.getByRole("button", { name: "Save changes" }).click()
        await note.getByText("Bread, eggs, coffee").waitFor()
        // the editor closes once the write is done (the refreshed list may show the text a render earlier)
        assert.strictEqual(await countSettles(note.getByRole("button", { name: "Save changes" }), 0), 0)
        await screenshot(page, `data-notes-${name}`)

        // remove, after saying yes
        await note.getByRole("button", { name: `Remove ${title}` }).click()
        await note.getByRole("group", { name: `Remove ${title}?` }).getByRole("button", { name: "Remove" }).click()
        await note.waitFor({ state: "detached" })
        assert.notInclude(await titles(page, "Notes"), title)
        assert.include(await titles(page, "Notes"), "My first note")

        // Posts: the member may read, not write, and is told who does
        await page.getByRole("navigation", { name: "Breadcrumb" }).getByRole("link", { name: "Data" }).click()
        await page.getByRole("list", { name: "Collections" }).getByRole("link", { name: "Posts" }).click()
        await waitForStatus(page, /^Showing \d+ of \d+ items$/)
        await page.getByText("Only the site's owner adds, edits and removes posts.").waitFor()
        await noWrites(page, "Posts")
        assert.isAbove((await titles(page, "Posts")).length, 0)
        assert.deepStrictEqual(problems, [])
      } finally {
        await context.close()
      }
    }, 120_000)

    it(`items changed by another client show without a reload (${name})`, async () => {
      const tag = `live-${name}-${Date.now().toString(36)}`
      const id = await insertPost({ title: `Before ${name}`, likes: 1, tags: [tag] })
      const { context, page, problems } = await session.open(viewport)
      try {
        await page.goto(`${session.platform.url}/#/data/Posts?f=tags&op=hasSome&v=${tag}`)
        await waitForStatus(page, /^Showing 1 of 1 item$/)
        assert.deepStrictEqual(await titles(page, "Posts"), [`Before ${name}`])
        await page.getByText("Changes made elsewhere show here as they happen.").waitFor()

        // the live stream connects in the background: write until the change shows
        const changed = items(page, "Posts").getByRole("heading", { name: new RegExp(`^Changed elsewhere ${name}`) })
        for (let i = 0; i < 40 && (await changed.count()) === 0; i++) {
          await updatePost(id, { title: `Changed elsewhere ${name} ${i}`, likes: 2, tags: [tag] })
          await page.waitForTimeout(250)
        }
        await changed.waitFor()
        assert.lengthOf(await titles(page, "Posts"), 1)

        // a new item and a removal made elsewhere
        const added = await insertPost({ title: `Added elsewhere ${name}`, likes: 3, tags: [tag] })
        await waitForStatus(page, /^Showing 2 of 2 items$/)
        assert.include(await titles(page, "Posts"), `Added elsewhere ${name}`)
        await removePost(id)
        await waitForStatus(page, /^Showing 1 of 1 item$/)
        assert.deepStrictEqual(await titles(page, "Posts"), [`Added elsewhere ${name}`])
        await screenshot(page, `data-live-${name}`)
        await removePost(added)
        await waitForStatus(page, /^No items match\.$/)
        assert.deepStrictEqual(problems, [])
      } finally {
        await context.close()
      }
    }, 120_000)
  }
})
