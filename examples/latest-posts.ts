/**
 * The README's first data example: a visitor session and one query, as a browser page runs it. Run against `npm start`: `npm run example examples/latest-posts.ts`.
 */
import * as Effect from "effect/Effect"
import { DataItems, Site } from "sitefx"
import { siteConnection } from "./localSite.ts"

/** The ten newest posts, as a visitor sees them. */
export const latestPosts = DataItems.query("Posts").descending("_createdDate").limit(10).find.pipe(
  Effect.map((page) => page.items.map((post) => post["title"]))
)

if (import.meta.main) {
  const { baseUrl, clientId } = await siteConnection()
  latestPosts.pipe(Effect.provide(Site.layer({ clientId, baseUrl })), Effect.runPromise).then((r) => console.log(r), (e) => {
    console.error(String(e))
    process.exitCode = 1
  })
}
