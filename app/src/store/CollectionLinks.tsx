/** The collections' links as markup, without Effect: the first screen's bootstrap and the full app draw the same list. */
import type { Collection } from "sitefx/catalog/collections"
import { ALL_PRODUCTS_COLLECTION_ID as ALL_PRODUCTS } from "sitefx/first-screen"
import { hashOf } from "./params.ts"
import { type Filters, paramsOfFilters } from "./filters.ts"

export function CollectionLinks(props: { readonly collections: ReadonlyArray<Collection>; readonly filters: Filters }) {
  const link = (slug: string) => hashOf(["store"], { ...paramsOfFilters(props.filters), c: slug || undefined })
  return (
    <ul>
      <li>
        <a href={link("")} aria-current={props.filters.collection === "" ? "page" : undefined}>All products</a>
      </li>
      {props.collections.filter((c) => c.id !== ALL_PRODUCTS && c.slug).map((c) => (
        <li key={c.id}>
          <a href={link(c.slug!)} aria-current={props.filters.collection === c.slug ? "page" : undefined}>
            {c.name}
            {typeof c.numberOfProducts === "number" ? <span className="count"> ({c.numberOfProducts})</span> : null}
          </a>
        </li>
      ))}
    </ul>
  )
}
