/**
 * The store's filters and sort, kept in the URL. Without Effect (the brands load with their field), so
 * the first screen's bootstrap shows the same form, already working: what it changes is in the URL the
 * full app reads when it takes over.
 */
import { type FormEvent, lazy, Suspense, useEffect, useRef, useState } from "react"
import { type Filters, filtersOf, paramsOfFilters, SORTS, type SortKey } from "./filters.ts"
import { currentQuery, paramsOf, replaceParams, useDebounced } from "./params.ts"
import { BrandSelect } from "./parts.tsx"

const STORE = ["store"] as const

/** Changes some filters, on top of what the URL says at this moment (two fields committing at once both land). */
const setFilters = (patch: Partial<Filters>) => replaceParams(STORE, paramsOfFilters({ ...filtersOf(paramsOf(currentQuery())), ...patch }))

const amountText = (n: number | undefined) => (n === undefined ? "" : String(n))
const parseAmount = (text: string): number | undefined => {
  const n = Number(text)
  return text.trim() === "" || !Number.isFinite(n) || n < 0 ? undefined : n
}

/** The brands (catalog v3 entities, and their stream) load with the field, not with the first screen. */
const BrandField = lazy(() => import("./BrandField.tsx").then((m) => ({ default: m.BrandField })))
const setBrand = (brand: string) => setFilters({ brand })

export function FiltersForm(props: { readonly filters: Filters }) {
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
