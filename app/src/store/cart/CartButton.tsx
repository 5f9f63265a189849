/**
 * The header's cart link, on every screen: how many items the cart holds (once the app knows there is
 * a cart: atoms.ts), and the way to the cart page. An add on the product page or a change on the cart
 * page shows here at once.
 */
import { useAtomValue } from "sitefx/react"
import { href, useRoute } from "../../shell/router.ts"
import { cartCountAtom } from "./atoms.ts"

export function CartButton() {
  const [section, page] = useRoute()
  const { count, waiting } = useAtomValue(cartCountAtom)
  return (
    <a className="cart-link" href={href("store", "cart")} aria-current={section === "store" && page === "cart" ? "page" : undefined} aria-busy={waiting}>
      Cart
      {count === undefined ? null : (
        <>
          {" "}
          <span className="cart-count" data-testid="cart-count">{count}</span>
          <span className="visually-hidden">{count === 1 ? " item" : " items"}</span>
        </>
      )}
    </a>
  )
}
