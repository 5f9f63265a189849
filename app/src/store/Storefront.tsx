/** The storefront: the catalog (`#/store`, with its search and filters) or a product page (`#/store/product/<slug>`). */
import { Catalog } from "./Catalog.tsx"
import { ProductPage } from "./ProductPage.tsx"

export function Storefront(props: { readonly path: ReadonlyArray<string> }) {
  const [page, slug] = props.path
  return page === "product" && slug !== undefined && slug !== "" ? <ProductPage key={slug} slug={slug} /> : <Catalog />
}
