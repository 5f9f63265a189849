/**
 * The cart page (`#/store/cart`): the cart's lines (picture, name, the choices, the price, a quantity to
 * raise or lower, a removal), its totals as the platform estimates them (subtotal at full prices, the
 * products' discounts, the total), and the checkout, which hands the shopper to the platform's checkout
 * page (../checkout.ts). Loaded when first opened.
 */
import * as Cause from "effect/Cause"
import { AsyncResult } from "effect/reactivity"
import { useAtomRefresh, useAtomSet, useAtomValue } from "sitefx/react"
import { useEffect, useRef } from "react"
import { href } from "../../shell/router.ts"
import { ResultView } from "../../shell/Result.tsx"
import { checkoutAtom } from "../checkout.ts"
import { imageUrl } from "../parts.tsx"
import { cartAtom, type CartLine, type CartView, quantityAtom, refusalText, removeLineAtom } from "./atoms.ts"

export function CartPage() {
  const cart = useAtomValue(cartAtom)
  const reload = useAtomRefresh(cartAtom)
  const title = useRef<HTMLHeadingElement>(null)
  useEffect(() => title.current?.focus({ preventScroll: true }), [])
  return (
    <section className="cart-page" aria-labelledby="cart-title">
      <h1 id="cart-title" tabIndex={-1} ref={title}>Your cart</h1>
      <ResultView result={cart} loading="Loading your cart" failed="Your cart could not be loaded." retry={reload}>
        {(c, waiting) =>
          c.lines.length === 0
            ? (
              <p className="notice" role="status">
                Your cart is empty. <a href={href("store")}>Browse the store</a>
              </p>
            )
            : <CartContents cart={c} waiting={waiting} />}
      </ResultView>
    </section>
  )
}

/** The slug of a line's product page, from the URL the platform gives it (`/product-page/<slug>`). */
const slugOf = (line: CartLine): string | undefined => line.url?.split("/").filter((p) => p !== "").at(-1)

const nameOf = (line: CartLine): string => line.productName?.translated ?? line.productName?.original ?? "An item no longer in the store"

function CartContents(props: { readonly cart: CartView; readonly waiting: boolean }) {
  const { cart } = props
  const setQuantity = useAtomSet(quantityAtom)
  const changed = useAtomValue(quantityAtom)
  const remove = useAtomSet(removeLineAtom)
  const removed = useAtomValue(removeLineAtom)
  const checkout = useAtomSet(checkoutAtom)
  const leaving = useAtomValue(checkoutAtom)
  // one change at a time: the next one starts from the cart the last one left
  const busy = changed.waiting || removed.waiting || props.waiting
  const going = leaving.waiting || AsyncResult.isSuccess(leaving)
  const refusal = AsyncResult.isFailure(changed) && !changed.waiting
    ? refusalText(Cause.squash(changed.cause))
    : AsyncResult.isFailure(removed) && !removed.waiting
    ? refusalText(Cause.squash(removed.cause))
    : undefined
  return (
    <div className="cart" aria-busy={busy}>
      <ul className="cart-lines" aria-label="Items in your cart">
        {cart.lines.map((line) => {
          const id = line.id ?? ""
          const name = nameOf(line)
          const slug = slugOf(line)
          const quantity = line.quantity ?? 0
          const picture = imageUrl(line.image, { width: 160, height: 160 })
          const onSale = line.fullPrice?.amount !== undefined && line.fullPrice.amount !== line.price?.amount
          const available = line.availability?.quantityAvailable
          return (
            <li key={id} className="cart-line" aria-label={name}>
              {picture === undefined ? <span className="cart-thumb" /> : <img className="cart-thumb" src={picture} alt="" width={80} height={80} />}
              <div className="cart-line-info">
                <h2>{slug === undefined ? name : <a href={href("store", "product", slug)}>{name}</a>}</h2>
                {(line.descriptionLines ?? []).length === 0 ? null : (
                  <p className="cart-choices">
                    {(line.descriptionLines ?? []).map((d) => `${d.name?.original ?? ""}: ${d.colorInfo?.original ?? d.plainText?.original ?? ""}`).join(", ")}
                  </p>
                )}
                <p className="cart-unit">
                  {line.price?.formattedAmount}
                  {onSale ? <> <s className="was-price"><span className="visually-hidden">was </span>{line.fullPrice?.formattedAmount}</s></> : null} each
                </p>
                {line.availability?.status === "NOT_AVAILABLE" || line.availability?.status === "NOT_FOUND"
                  ? <p className="stock-note out">No longer available.</p>
                  : line.availability?.status === "PARTIALLY_AVAILABLE" && typeof available === "number"
                  ? <p className="stock-note out">Only {available} left.</p>
                  : null}
              </div>
              <div className="cart-line-actions">
                <div className="stepper" role="group" aria-label={`Quantity of ${name}`}>
                  <button type="button" className="secondary" disabled={busy || going || quantity <= 1} onClick={() => setQuantity({ id, quantity: quantity - 1 })}>
                    <span aria-hidden="true">−</span>
                    <span className="visually-hidden">One less {name}</span>
                  </button>
                  <output className="line-quantity">{quantity}</output>
                  <button type="button" className="secondary" disabled={busy || going} onClick={() => setQuantity({ id, quantity: quantity + 1 })}>
                    <span aria-hidden="true">+</span>
                    <span className="visually-hidden">One more {name}</span>
                  </button>
                </div>
                <button type="button" className="link-button" disabled={busy || going} onClick={() => remove(id)}>
                  Remove<span className="visually-hidden"> {name}</span>
                </button>
                <p className="cart-line-total">{line.lineItemPrice?.formattedAmount}</p>
              </div>
            </li>
          )
        })}
      </ul>
      {refusal === undefined ? null : <p className="error" role="alert"><strong>Not changed.</strong> {refusal}</p>}
      <section className="cart-summary" aria-labelledby="cart-summary-title">
        <h2 id="cart-summary-title">Summary</h2>
        <dl className="cart-totals" aria-busy={props.waiting}>
          <div>
            <dt>Subtotal</dt>
            <dd data-testid="cart-subtotal">{cart.totals.subtotal}</dd>
          </div>
          {cart.totals.discountAmount > 0
            ? (
              <div>
                <dt>Discount</dt>
                <dd data-testid="cart-discount">−{cart.totals.discount}</dd>
              </div>
            )
            : null}
          <div className="cart-total">
            <dt>Total</dt>
            <dd data-testid="cart-total">{cart.totals.total}</dd>
          </div>
        </dl>
        <p className="hint">Shipping and tax are worked out at checkout.</p>
        {AsyncResult.isFailure(leaving) && !leaving.waiting
          ? <p className="error" role="alert"><strong>The checkout could not start.</strong> {refusalText(Cause.squash(leaving.cause))}</p>
          : null}
        <button type="button" className="checkout" disabled={busy || going} onClick={() => checkout()}>
          {going ? "Going to checkout…" : "Checkout"}
        </button>
      </section>
    </div>
  )
}
