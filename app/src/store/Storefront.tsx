/** The storefront: the catalog (`#/store`, with its search and filters) or a product page (`#/store/product/<slug>`), loaded when first opened. */
import { lazy } from "react"
import { Catalog } from "./Catalog.tsx"

const ProductPage = lazy(() => import("./ProductPage.tsx").then((m) => ({ default: m.ProductPage })))

export function Storefront(props: { readonly path: ReadonlyArray<string> }) {
  const [page, slug] = props.path
  return page === "product" && slug !== undefined && slug !== "" ? <ProductPage key={slug} slug={slug} /> : <Catalog />
}
