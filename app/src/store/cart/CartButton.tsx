/**
 * The header's cart link, on every screen: how many items the cart holds, and the way to the cart page.
 * It reads the cart's atom, so an add on the product page or a change on the cart page shows here at once.
 */
import { AsyncResult, useAtomValue } from "sitefx/react"
import { href, useRoute } from "../../shell/router.ts"
import { cartAtom } from "./atoms.ts"

export function CartButton() {
  const [section, page] = useRoute()
  const current = section === "store" && page === "cart"
  const cart = useAtomValue(cartAtom)
  const value = AsyncResult.value(cart)
  const count = value._tag === "Some" ? value.value.count : undefined
  return (
    <a className="cart-link" href={href("store", "cart")} aria-current={current ? "page" : undefined} aria-busy={cart.waiting}>
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
