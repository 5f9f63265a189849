/**
 * A typed Effect pipeline over data collections: popular posts, every title as a Stream, likes per
 * author, and a patch. Run against `npm start`: `npm run example examples/posts-report.ts`.
 */
import * as Effect from "effect/Effect"
import * as Schema from "effect/Schema"
import * as Stream from "effect/Stream"
import { DataItems, Site } from "sitefx"
import { siteConnection } from "./localSite.ts"

class Post extends Schema.Class<Post>("Post")({ _id: Schema.String, title: Schema.String, likes: Schema.Number }) {}
const posts = DataItems.collection("Posts", Post)

export const postsReport = Effect.gen(function*() {
  const popular = yield* posts.query.gt("likes", 10).descending("likes").limit(20).find       // Page<Post>
  const titles = yield* DataItems.query("Posts").ascending("title").stream.pipe(Stream.map((p) => p["title"]), Stream.runCollect)
  const byAuthor = yield* DataItems.aggregate("Posts").group("author").count().sum("likes").ascending("_id").run
  const liked = yield* DataItems.patch("Posts", "filters").incrementField("likes", 1).run
  return { popular: popular.items.map((p) => p.title), titles, byAuthor: byAuthor.items, likes: liked["likes"] }
})

if (import.meta.main) {
  const { baseUrl, apiKey, siteId } = await siteConnection()
  postsReport.pipe(Effect.provide(Site.apiKey({ baseUrl, apiKey, siteId })), Effect.runPromise).then((r) => console.log(r), (e) => {
    console.error(String(e))
    process.exitCode = 1
  })
}
