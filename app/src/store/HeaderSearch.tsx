/**
 * The store's search, in the site's header on every page: the words go to the store's URL
 * (`#/store?q=kids+hoodie`) as a new history entry, so a search can be shared, reloaded and gone back
 * from. What it matches is `Products.searchFilter`'s: every word, in any case, somewhere in a product's
 * name, description or SKU.
 */
import { type FormEvent, useEffect, useState } from "react"
import { useRoute } from "../shell/router.ts"
import { hashOf, paramsOf, useHashQuery } from "./params.ts"

export function HeaderSearch() {
  const [section = "store", page] = useRoute()
  const onCatalog = section === "store" && page === undefined
  const query = useHashQuery()
  const params = paramsOf(query)
  const current = onCatalog ? params.get("q") ?? "" : ""
  const [text, setText] = useState(current)
  // the URL changed (a link, "Clear filters", back): show its words
  useEffect(() => setText(current), [current])
  const submit = (e: FormEvent) => {
    e.preventDefault()
    const q = text.trim().replace(/\s+/g, " ")
    const sort = onCatalog ? params.get("sort") ?? undefined : undefined
    const next = hashOf(["store"], { q, sort })
    if (next !== window.location.hash) window.location.hash = next
  }
  return (
    <form className="site-search" role="search" aria-label="Store search" onSubmit={submit}>
      <label htmlFor="site-search" className="visually-hidden">Search products</label>
      <input id="site-search" type="search" name="q" value={text} onChange={(e) => setText(e.target.value)} placeholder="Search products" autoComplete="off" />
      <button type="submit">Search</button>
    </form>
  )
}
