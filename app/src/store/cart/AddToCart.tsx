/**
 * The product page's "Add to cart": the chosen variant (or the product, when it has no options) and a
 * quantity. The button waits for every option to be chosen and is disabled where the product's stock
 * says the choice is sold out; should the platform refuse anyway (the stock changed since the page
 * was read, or more was asked than is left), its refusal is shown here.
 */
import * as Cause from "effect/Cause"
import { AsyncResult, Atom } from "effect/reactivity"
import type { Product } from "sitefx/catalog/products"
import type { StockAnswer, VariantResolution } from "sitefx/catalog/storefront"
import { STORES_APP_ID } from "sitefx/ecom"
import { useAtomSet, useAtomValue } from "sitefx/react"
import { type FormEvent, useEffect, useId, useState } from "react"
import { href } from "../../shell/router.ts"
import { addToCartAtom, refusalText } from "./atoms.ts"

/** Why the product cannot be added as chosen, or undefined when it can. */
const blocked = (resolution: VariantResolution, stock: StockAnswer): string | undefined => {
  switch (resolution._tag) {
    case "Resolved":
      return resolution.purchasable && stock.purchasable ? undefined : "Sold out in this combination"
    case "Incomplete":
      return `Choose ${resolution.missing.join(" and ")}`
    default:
      return "Not available"
  }
}

export function AddToCart(props: { readonly product: Product; readonly resolution: VariantResolution; readonly stock: StockAnswer }) {
  const { product, resolution, stock } = props
  const add = useAtomSet(addToCartAtom)
  const result = useAtomValue(addToCartAtom)
  const [quantity, setQuantity] = useState("1")
  const id = useId()
  const why = blocked(resolution, stock)
  const choice = resolution._tag === "Resolved" ? JSON.stringify(resolution.choices) : ""
  // a new choice or quantity starts afresh: the last answer was about another one
  useEffect(() => add(Atom.Reset), [add, choice, quantity])
  const count = Number(quantity)
  const valid = Number.isInteger(count) && count >= 1
  const submit = (e: FormEvent) => {
    e.preventDefault()
    if (why !== undefined || !valid || resolution._tag !== "Resolved" || product.id == null) return
    add({
      catalogReference: {
        appId: STORES_APP_ID,
        catalogItemId: product.id,
        options: resolution.variantId === undefined ? { options: resolution.choices } : { variantId: resolution.variantId }
      },
      quantity: count
    })
  }
  // what the page read of the stock says how many are left, when more were asked for than that
  const left = stock.quantity !== undefined && stock.level !== "choice" && count > stock.quantity ? stock.quantity : undefined
  return (
    <form className="add-to-cart" onSubmit={submit} aria-label="Add to cart">
      <div className="add-row">
        <div className="quantity-field">
          <label htmlFor={`${id}-quantity`}>Quantity</label>
          <input id={`${id}-quantity`} type="number" inputMode="numeric" min={1} step={1} value={quantity} onChange={(e) => setQuantity(e.target.value)} disabled={why !== undefined} />
        </div>
        <button type="submit" disabled={why !== undefined || !valid || result.waiting}>
          {result.waiting ? "Adding…" : why ?? "Add to cart"}
        </button>
      </div>
      <div role="status" aria-live="polite" className="add-outcome">
        {AsyncResult.isSuccess(result) && !result.waiting
          ? <p className="added">Added to your cart. <a href={href("store", "cart")}>View cart</a></p>
          : null}
      </div>
      {AsyncResult.isFailure(result) && !result.waiting
        ? <p className="error" role="alert"><strong>Not added.</strong> {refusalText(Cause.squash(result.cause), left)}</p>
        : null}
    </form>
  )
}
