/**
 * The page of the server-rendering example, as both sides render it: the newest posts, read from one
 * query atom. Written with `createElement` so that Node runs it as it is (no JSX to compile on the server).
 */
import { DataItems, Site } from "sitefx"
import { Atom, AsyncResult, queryAtoms, useAtomValue } from "sitefx/react"
import { createElement as h } from "react"

/** What the page needs to reach the site; the client id is public, so the page carries it to the browser. */
export interface SiteConfig {
  readonly baseUrl: string
  readonly clientId: string
}

/** A runtime and the page's query atom: the server builds them per request, the browser once. */
export const pageAtoms = (site: SiteConfig) => {
  const runtime = Atom.runtime(Site.layer({ clientId: site.clientId, baseUrl: site.baseUrl }))
  const queries = queryAtoms(runtime)
  return { posts: queries.items(DataItems.query("Posts").descending("_createdDate").limit(10)) }
}

/** The posts, or what stands in for them. */
export function PostsPage(props: { readonly atoms: ReturnType<typeof pageAtoms> }) {
  const posts = useAtomValue(props.atoms.posts)
  return h(
    "main",
    null,
    h("h1", null, "Latest posts"),
    AsyncResult.isSuccess(posts)
      ? h("ul", { id: "posts" }, posts.value.items.map((post) => h("li", { key: post._id }, String(post["title"]))))
      : h("p", null, posts._tag === "Failure" ? "The posts could not be loaded." : "Loading…")
  )
}
