/**
 * The catalog's plain screen drawn from the bootstrap's answers (early.ts), before the full app has
 * loaded: the same markup as Catalog.tsx (its very parts), so when the full app takes over with the same
 * answers nothing moves. "Load more" waits for the full app, which loads it; the filters already work
 * (they change the URL, and the grid says it is loading until the full app answers them).
 */
import { useMemo } from "react"
import { Loading } from "../shell/Loading.tsx"
import { CollectionLinks } from "../store/CollectionLinks.tsx"
import { filtersOf } from "../store/filters.ts"
import { FiltersForm } from "../store/FiltersForm.tsx"
import { GridView } from "../store/GridView.tsx"
import { paramsOf, useHashQuery } from "../store/params.ts"
import type { Early } from "./early.ts"

const nothing = () => {}

/** `early`: the bootstrap's answers, once they are in (undefined while they are not). */
export function BootCatalog(props: { readonly early: Early | undefined }) {
  const query = useHashQuery()
  const filters = useMemo(() => filtersOf(paramsOf(query)), [query])
  const early = props.early
  // the answers are for the filters the page opened with; the shopper may have changed them since
  const answered = early !== undefined && JSON.stringify(early.filters) === JSON.stringify(filters)
  return (
    <section aria-labelledby="store-title" className="store">
      <h1 id="store-title">Store</h1>
      <nav aria-label="Collections" className="collections">
        {early?.collections === undefined
          ? <Loading label="Loading collections" />
          : <CollectionLinks collections={early.collections.items} filters={filters} />}
      </nav>
      <FiltersForm filters={filters} />
      {answered
        ? <GridView page={{ ...early.products, pages: 1 }} words="" waiting={false} loadMore={nothing} />
        : <Loading label="Loading products" />}
    </section>
  )
}
