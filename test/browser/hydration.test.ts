/**
 * The server-rendering example (examples/ssr) in Chromium against `sitefx serve --seed demo`: the page
 * comes from a plain Node server with the posts already in it, the browser hydrates it with the bundled
 * client script, and the platform's request log shows the posts query asked once, by the server, never
 * by the browser; nothing is logged in the console (a hydration mismatch would be).
 */
import { assert, describe, it } from "@effect/vitest"
import { startServer } from "../../examples/ssr/server.ts"
import { browserSession } from "./support.ts"

const session = browserSession()

/** How many data queries the platform has answered (its request log). */
const queries = async (): Promise<number> => {
  const res = await fetch(`${session.platform.url}/_sitefx/requests?path=/wix-data/v2/items/query&limit=1000`)
  const body = (await res.json()) as { readonly requests: ReadonlyArray<{ readonly path: string }> }
  return body.requests.filter((r) => r.path === "/wix-data/v2/items/query").length
}

describe("server rendering and hydration in Chromium", () => {
  it("a page rendered on a Node server hydrates without the browser asking the platform for its query", async () => {
    const site = (await (await fetch(`${session.platform.url}/_sitefx/site`)).json()) as { readonly clientId: string }
    const server = await startServer({ baseUrl: session.platform.url, clientId: site.clientId })
    const { context, page, problems } = await session.open()
    try {
      const before = await queries()
      const browserQueries: Array<string> = []
      page.on("request", (request) => {
        if (new URL(request.url()).pathname === "/wix-data/v2/items/query") browserQueries.push(request.url())
      })
      // the server's HTML holds the posts before any script runs
      await page.route(`${server.url}client.js`, (route) => route.abort())
      await page.goto(server.url)
      const served = await page.locator("#posts li").allTextContents()
      assert.sameMembers(served, ["Filters in SQL", "Stable cursors", "Welcome to sitefx"])
      assert.strictEqual(await queries(), before + 1)
      await page.unroute(`${server.url}client.js`)

      // now with the script: hydrated, the same posts, and no query from the browser
      await page.goto(server.url)
      await page.waitForFunction(() => document.documentElement.dataset["hydrated"] === "true")
      await new Promise((resolve) => setTimeout(resolve, 500))
      assert.deepStrictEqual(await page.locator("#posts li").allTextContents(), served)
      assert.deepStrictEqual(browserQueries, [])
      // one more query in all: the server's for this second page load
      assert.strictEqual(await queries(), before + 2)
      assert.deepStrictEqual(problems.filter((p) => !p.includes("client.js") && !p.includes("net::ERR_FAILED")), [])
    } finally {
      await context.close()
      await server.close()
    }
  }, 120_000)
})
