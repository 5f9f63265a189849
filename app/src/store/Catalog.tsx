/**
 * The store's front page: the collections, filters and a sort, and the product grid, which loads more
 * products as it scrolls into view (and from a "Load more" button, for keyboards). The search's words
 * come from the header's search box (HeaderSearch.tsx); the grid says how many products match them.
 * Everything the shopper chose is in the URL.
 */
import type { Collection } from "sitefx/catalog/collections"
import * as Products from "sitefx/catalog/products"
import type { Product } from "sitefx/catalog/products"
import { displayPrice } from "sitefx/catalog/storefront"
import { AsyncResult, type QueryAtom, useAtomSet, useAtomValue } from "sitefx/react"
import { type FormEvent, lazy, Suspense, useEffect, useMemo, useRef, useState } from "react"
import { ErrorBox, Loading, messageOf, ResultView } from "../shell/Result.tsx"
import { href } from "../shell/router.ts"
import { ALL_PRODUCTS, collectionsAtom, type Filters, filtersOf, paramsOfFilters, productQuery, queries, SORTS, type SortKey } from "./atoms.ts"
import { currentQuery, hashOf, paramsOf, replaceParams, useDebounced, useHashQuery } from "./params.ts"
import { BrandSelect, imageUrl, PriceTag, Ribbon } from "./parts.tsx"

const STORE = ["store"] as const

/** Changes some filters, on top of what the URL says at this moment (two fields committing at once both land). */
const setFilters = (patch: Partial<Filters>) => replaceParams(STORE, paramsOfFilters({ ...filtersOf(paramsOf(currentQuery())), ...patch }))

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
  const link = (slug: string) => hashOf(STORE, { ...paramsOfFilters(props.filters), c: slug || undefined })
  return (
    <nav aria-label="Collections" className="collections">
      <ResultView result={collections} loading="Loading collections" failed="The collections could not be loaded.">
        {(page) => (
          <ul>
            <li>
              <a href={link("")} aria-current={props.filters.collection === "" ? "page" : undefined}>All products</a>
            </li>
            {page.items.filter((c: Collection) => c.id !== ALL_PRODUCTS && c.slug).map((c: Collection) => (
              <li key={c.id}>
                <a href={link(c.slug!)} aria-current={props.filters.collection === c.slug ? "page" : undefined}>
                  {c.name}
                  {typeof c.numberOfProducts === "number" ? <span className="count"> ({c.numberOfProducts})</span> : null}
                </a>
              </li>
            ))}
          </ul>
        )}
      </ResultView>
    </nav>
  )
}

const amountText = (n: number | undefined) => (n === undefined ? "" : String(n))
const parseAmount = (text: string): number | undefined => {
  const n = Number(text)
  return text.trim() === "" || !Number.isFinite(n) || n < 0 ? undefined : n
}

/** The brands (catalog v3 entities, and their stream) load with the field, not with the first screen. */
const BrandField = lazy(() => import("./BrandField.tsx").then((m) => ({ default: m.BrandField })))
const setBrand = (brand: string) => setFilters({ brand })

function FiltersForm(props: { readonly filters: Filters }) {
  const f = props.filters
  const [min, setMin, flushMin] = useDebounced(amountText(f.min), (v) => setFilters({ min: parseAmount(v) }))
  const [max, setMax, flushMax] = useDebounced(amountText(f.max), (v) => setFilters({ max: parseAmount(v) }))
  const submit = (e: FormEvent) => {
    e.preventDefault()
    flushMin()
    flushMax()
  }
  const active = f.q !== "" || f.inStock || f.min !== undefined || f.max !== undefined || f.brand !== "" || f.sort !== "newest"
  const refined = f.inStock || f.min !== undefined || f.max !== undefined || f.brand !== ""
  // open while some of its filters are in use (the shopper may still close it; it never closes by itself)
  const more = useRef<HTMLDetailsElement>(null)
  // the brands load the first time the filters open (or a brand is chosen), not with the first screen
  const [opened, setOpened] = useState(false)
  useEffect(() => {
    if (refined && more.current !== null) more.current.open = true
  }, [refined])
  return (
    <form className="filters" aria-label="Filter and sort products" onSubmit={submit}>
      <div className="field">
        <label htmlFor="store-sort">Sort by</label>
        <select id="store-sort" value={f.sort} onChange={(e) => setFilters({ sort: e.target.value as SortKey })}>
          {Object.entries(SORTS).map(([key, s]) => <option key={key} value={key}>{s.label}</option>)}
        </select>
      </div>
      <details className="more-filters" ref={more} onToggle={(e) => setOpened(opened || e.currentTarget.open)}>
        <summary>More filters</summary>
        <div className="filters-grid">
          {opened || f.brand !== ""
            ? (
              <Suspense fallback={<BrandSelect brand={f.brand} brands={undefined} onChange={setBrand} />}>
                <BrandField brand={f.brand} onChange={setBrand} />
              </Suspense>
            )
            : <BrandSelect brand={f.brand} brands={undefined} onChange={setBrand} />}
          <div className="field">
            <label htmlFor="store-min">Min price</label>
            <input id="store-min" type="number" inputMode="decimal" min={0} step="any" value={min} onChange={(e) => setMin(e.target.value)} />
          </div>
          <div className="field">
            <label htmlFor="store-max">Max price</label>
            <input id="store-max" type="number" inputMode="decimal" min={0} step="any" value={max} onChange={(e) => setMax(e.target.value)} />
          </div>
          <div className="field checkbox">
            <input id="store-stock" type="checkbox" checked={f.inStock} onChange={(e) => setFilters({ inStock: e.target.checked })} />
            <label htmlFor="store-stock">In stock only</label>
          </div>
        </div>
      </details>
      <div className="actions">
        <button type="submit">Apply</button>
        <button type="button" className="secondary" disabled={!active} onClick={() => replaceParams(STORE, { c: f.collection || undefined })}>Clear filters</button>
      </div>
    </form>
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
      {(page, waiting) => (
        <>
          <p className="results" role="status" aria-live="polite">
            {page.items.length === 0
              ? `No products match${words === "" ? "" : ` “${words}”`}.`
              : `Showing ${page.items.length}${page.total === undefined ? "" : ` of ${page.total}`} product${page.total === 1 ? "" : "s"}${words === "" ? "" : ` matching “${words}”`}`}
            {waiting ? " (updating…)" : ""}
          </p>
          <ul className="grid" aria-label="Products" aria-busy={waiting}>
            {page.items.map((p) => <ProductCard key={p.id} product={p} />)}
          </ul>
          <MoreProducts hasMore={page.hasMore} waiting={waiting} pages={page.pages} loadMore={loadMore} />
        </>
      )}
    </ResultView>
  )
}

/** Loads the next page when the end of the grid comes near the viewport, or when the button is pressed. */
function MoreProducts(props: { readonly hasMore: boolean; readonly waiting: boolean; readonly pages: number; readonly loadMore: () => void }) {
  const sentinel = useRef<HTMLDivElement>(null)
  const { hasMore, loadMore, pages } = props
  useEffect(() => {
    const el = sentinel.current
    if (!hasMore || el === null || typeof IntersectionObserver === "undefined") return
    // observed again after every page, so a viewport that still shows the end asks for the next one
    const observer = new IntersectionObserver((entries) => {
      if (entries.some((e) => e.isIntersecting)) loadMore()
    }, { rootMargin: "300px 0px" })
    observer.observe(el)
    return () => observer.disconnect()
  }, [hasMore, pages, loadMore])
  if (!hasMore) return null
  return (
    <div className="more" ref={sentinel}>
      <button type="button" className="secondary" onClick={loadMore} disabled={props.waiting}>
        {props.waiting ? "Loading more products…" : "Load more products"}
      </button>
    </div>
  )
}

function ProductCard(props: { readonly product: Product }) {
  const p = props.product
  const src = imageUrl(p.media?.mainMedia, { width: 400, height: 400 })
  const soldOut = p.stock?.inventoryStatus === "OUT_OF_STOCK"
  return (
    <li className="card product-card">
      <a className="card-link" href={href("store", "product", p.slug ?? "")}>
        {src === undefined ? null : <img src={src} alt="" width={200} height={200} loading="lazy" />}
        <h2>{p.name}</h2>
      </a>
      <div className="card-facts">
        <Ribbon text={p.ribbon} />
        {p.brand ? <span className="product-brand">{p.brand}</span> : null}
      </div>
      <PriceTag price={displayPrice(p)} />
      {soldOut ? <p className="stock-note out">Sold out</p> : null}
    </li>
  )
}
