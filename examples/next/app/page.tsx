import { cacheLife } from "next/cache"
import * as DataItems from "sitefx/data/items"
import { newProducts, runtime } from "../lib/atoms"
import { site } from "../lib/site"
import { ProductGrid, Providers } from "./client"

// Public data, cached by Next: asked as the server's own visitor, prerendered into the page's shell.
async function latestPosts() {
  "use cache"
  cacheLife("minutes")
  const page = await site.runPublic(DataItems.query("Posts").descending("_createdDate").limit(5).find)
  return page.items.map((post) => ({ id: post._id, title: String(post["title"]) }))
}

// The products' first page for the client atoms, cached the same way: the browser shows it and asks nothing.
async function productsState() {
  "use cache"
  cacheLife("minutes")
  return site.dehydrate(runtime, [newProducts], { public: true })
}

export default async function Home() {
  const [posts, products] = await Promise.all([latestPosts(), productsState()])
  return (
    <main>
      <h1>Latest posts</h1>
      <ul aria-label="posts">{posts.map((post) => <li key={post.id}>{post.title}</li>)}</ul>
      <h2>New in the store</h2>
      <Providers dehydrated={products}>
        <ProductGrid />
      </Providers>
    </main>
  )
}
