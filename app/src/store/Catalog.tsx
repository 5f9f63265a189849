/**
 * The store's front page: the collections, filters and a sort, and the product grid, which loads more
 * products as it scrolls into view (and from a "Load more" button, for keyboards). The search's words
 * come from the header's search box (HeaderSearch.tsx); the grid says how many products match them.
 * Everything the shopper chose is in the URL. Its markup is drawn by Effect-free parts (CollectionLinks,
 * FiltersForm, GridView), which the first screen's bootstrap draws too before this screen takes over.
 */
import * as Products from "sitefx/catalog/products"
import type { Product } from "sitefx/catalog/products"
import { AsyncResult, type QueryAtom, useAtomSet, useAtomValue } from "sitefx/react"
import { useMemo } from "react"
import { ErrorBox, Loading, messageOf, ResultView } from "../shell/Result.tsx"
import { collectionsAtom, type Filters, filtersOf, productQuery, queries } from "./atoms.ts"
import { CollectionLinks } from "./CollectionLinks.tsx"
import { FiltersForm } from "./FiltersForm.tsx"
import { GridView } from "./GridView.tsx"
import { paramsOf, useHashQuery } from "./params.ts"

export function Catalog() {
  const query = useHashQuery()
  const filters = useMemo(() => filtersOf(paramsOf(query)), [query])
  const collections = useAtomValue(collectionsAtom)
  const list = AsyncResult.isSuccess(collections) ? collections.value.items : undefined
  const current = filters.collection === "" ? undefined : list?.find((c) => c.slug === filters.collection)
  return (
    <section aria-labelledby="store-title" className="store">
      <h1 id="store-title">{current?.name ?? "Store"}</h1>
      <CollectionsNav filters={filters} />
      <FiltersForm filters={filters} />
      {filters.collection === "" || current !== undefined
        ? <ProductGrid filters={filters} collectionId={current?.id ?? undefined} />
        : collections._tag === "Failure"
        ? <ErrorBox title="The collections could not be loaded." message={messageOf(collections.cause)} />
        : list === undefined
        ? <Loading label="Loading the collection" />
        : <ErrorBox title="No such collection." message={`The store has no collection “${filters.collection}”.`} />}
    </section>
  )
}

function CollectionsNav(props: { readonly filters: Filters }) {
  const collections = useAtomValue(collectionsAtom)
  return (
    <nav aria-label="Collections" className="collections">
      <ResultView result={collections} loading="Loading collections" failed="The collections could not be loaded.">
        {(page) => <CollectionLinks collections={page.items} filters={props.filters} />}
      </ResultView>
    </nav>
  )
}

function ProductGrid(props: { readonly filters: Filters; readonly collectionId: string | undefined }) {
  const { filters, collectionId } = props
  const products: QueryAtom<Product, unknown> = useMemo(() => queries.products(productQuery(filters, collectionId)), [filters, collectionId])
  const result = useAtomValue(products)
  const loadMore = useAtomSet(products.loadMore)
  const words = Products.searchWords(filters.q).join(" ")
  return (
    <ResultView result={result} loading="Loading products" failed="The products could not be loaded." retry={() => loadMore()}>
      {(page, waiting) => <GridView page={page} words={words} waiting={waiting} loadMore={loadMore} />}
    </ResultView>
  )
}
