/**
 * The product grid as markup: how many products show, the cards, and what loads more. Without Effect, so
 * the first screen's bootstrap draws the same grid the full app then keeps (the swap changes no pixel).
 */
import type { Product } from "sitefx/catalog/products"
import { displayPrice } from "sitefx/catalog/storefront"
import { useEffect, useRef } from "react"
import { href } from "../shell/router.ts"
import { imageUrl, PriceTag, Ribbon } from "./parts.tsx"

/** A page of the grid: the products loaded so far and whether there are more. */
export interface GridPage {
  readonly items: ReadonlyArray<Product>
  readonly total: number | undefined
  readonly hasMore: boolean
  readonly pages: number
}

/** `words`: the search's words as the status names them ("" for none). */
export function GridView(props: { readonly page: GridPage; readonly words: string; readonly waiting: boolean; readonly loadMore: () => void }) {
  const { page, words, waiting } = props
  return (
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
      <MoreProducts hasMore={page.hasMore} waiting={waiting} pages={page.pages} loadMore={props.loadMore} />
    </>
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
