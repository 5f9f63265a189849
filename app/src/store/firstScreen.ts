/**
 * The store's first screen starts its requests as soon as the full app starts, before React renders it:
 * the atoms the screen the URL names will read are mounted in the registry React is then given, so
 * the visitor token and the first queries are under way while React builds the page, and the page
 * renders from them without asking again. Where the entry's bootstrap already answered them (main.tsx),
 * the atoms take its answers as seeds and ask nothing.
 */
import type { AtomRegistry } from "effect/reactivity"
import { collectionsAtom, filtersOf, productAtom, productQuery, queries } from "./atoms.ts"
import { paramsOf } from "./params.ts"

/** Mounts the atoms of the store screen the location names; the returned function lets them go (once, however often it is called). */
export const startFirstScreen = (registry: AtomRegistry.AtomRegistry, hash: string): () => void => {
  let unmounts: Array<() => void> = []
  try {
    unmounts = mountFirstScreen(registry, hash)
  } catch {
    // a URL that does not decode: the screen itself says what it can of it
  }
  return () => unmounts.splice(0).forEach((unmount) => unmount())
}

const mountFirstScreen = (registry: AtomRegistry.AtomRegistry, hash: string): Array<() => void> => {
  const [path = "", query = ""] = hash.replace(/^#\/?/, "").split("?")
  const [section = "store", page, slug] = path.split("/").filter((p) => p !== "").map(decodeURIComponent)
  if (section !== "store") return []
  if (page === "product" && slug !== undefined) return [registry.mount(productAtom(slug))]
  const filters = filtersOf(paramsOf(query))
  const unmounts = [registry.mount(collectionsAtom)]
  // a collection's grid needs the collection's id first: it waits for the collections
  if (filters.collection === "") unmounts.push(registry.mount(queries.products(productQuery(filters, undefined))))
  return unmounts
}
