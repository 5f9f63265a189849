/**
 * The storefront: the catalog (`#/store`, with its search and filters), a product page
 * (`#/store/product/<slug>`), the cart (`#/store/cart`) and the checkout's thank-you page
 * (`#/store/thank-you`), each but the catalog loaded when first opened.
 */
import { lazy } from "react"
import { Catalog } from "./Catalog.tsx"

const ProductPage = lazy(() => import("./ProductPage.tsx").then((m) => ({ default: m.ProductPage })))
const CartPage = lazy(() => import("./cart/CartPage.tsx").then((m) => ({ default: m.CartPage })))
const ThankYou = lazy(() => import("./cart/ThankYou.tsx").then((m) => ({ default: m.ThankYou })))

export function Storefront(props: { readonly path: ReadonlyArray<string> }) {
  const [page, slug] = props.path
  if (page === "cart") return <CartPage />
  if (page === "thank-you") return <ThankYou />
  return page === "product" && slug !== undefined && slug !== "" ? <ProductPage key={slug} slug={slug} /> : <Catalog />
}
