/**
 * The shopper's current cart, for the whole app: the cart with its totals (one `Cart.estimate`, which
 * answers both), read again after every change the app makes to it and whenever the session changes (a
 * visitor who signs in finds their cart merged into the member's by the platform), and the changes
 * themselves (add, set a quantity, remove) as actions. The product page and the cart page change it.
 *
 * The header's count reads the cart only where this browser knows there is one (`knownCartAtom`): the
 * platform answers a shopper without a cart with a refusal (OWNED_CART_NOT_FOUND, a 404), and a visitor
 * who never added anything should not meet one on every screen. Until then the header shows no count.
 * Coming back from paying (the address names the order), the app knows there is none: the platform
 * turned the cart into the order.
 */
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import { AsyncResult, Atom } from "effect/reactivity"
import { Cart, CartCodes, Checkout, EcomError } from "sitefx/ecom"
import { who } from "../../shell/who.ts"
import { runtime } from "../../site.ts"

/** The Reactivity key of the current cart: a change to it reads the cart again. */
const CART_KEY = "app/cart"

/** What this browser knows of the session's cart: nothing yet, that there is none, or that there is one. */
export type KnownCart = "unknown" | "none" | "some"

const KNOWN_KEY = "sitefx-demo/cart"
/** The last order whose coming back this browser has seen (so a reload of its page reads what is known again). */
const ORDER_KEY = "sitefx-demo/cart-ordered"

/**
 * Whether this page was opened by the checkout coming back after paying (`?orderId=` before the hash):
 * the session's cart became that order, and the session has none now. Once per order.
 */
const cartBecameOrder = (): boolean => {
  const orderId = Checkout.orderIdOf(window.location.href)
  if (orderId === undefined || window.localStorage.getItem(ORDER_KEY) === orderId) return false
  window.localStorage.setItem(ORDER_KEY, orderId)
  window.localStorage.setItem(KNOWN_KEY, "none")
  return true
}

const readKnown = (): KnownCart => {
  try {
    if (cartBecameOrder()) return "none"
    const v = window.localStorage.getItem(KNOWN_KEY)
    return v === "none" || v === "some" ? v : "unknown"
  } catch {
    return "unknown"
  }
}

/** Whether the session has a cart, as far as this browser knows (kept in localStorage, so the tabs and a reload share it). */
export const knownCartAtom = Atom.keepAlive(Atom.writable(readKnown, (ctx, next: KnownCart) => {
  try {
    window.localStorage.setItem(KNOWN_KEY, next)
  } catch {
    // storage refused: the memory lasts as long as the page
  }
  ctx.setSelf(next)
}))

export type CartLine = NonNullable<Cart.CartV1["lineItems"]>[number]

/** The cart as the app shows it: its lines, its totals, and how many items it holds. */
export interface CartView {
  readonly lines: ReadonlyArray<CartLine>
  /** Subtotal at full prices, the products' discounts, and the total (formatted in the store's currency). */
  readonly totals: { readonly subtotal?: string | undefined; readonly discount?: string | undefined; readonly discountAmount: number; readonly total?: string | undefined }
  /** Items, counting each line's quantity. */
  readonly count: number
}

const EMPTY: CartView = { lines: [], totals: { discountAmount: 0 }, count: 0 }

const viewOf = (estimate: Cart.EstimateTotalsResponse): CartView => {
  const lines = estimate.cart?.lineItems ?? []
  const summary = estimate.priceSummary
  return {
    lines,
    totals: {
      subtotal: summary?.subtotal?.formattedAmount,
      discount: summary?.discount?.formattedAmount,
      discountAmount: Number(summary?.discount?.amount ?? 0),
      total: summary?.total?.formattedAmount
    },
    count: lines.reduce((n, l) => n + (l.quantity ?? 0), 0)
  }
}

/** The current cart and its totals; an empty cart while the shopper has none yet. */
export const cartAtom = runtime.factory.withReactivity([CART_KEY])(
  runtime.atom((get) =>
    Effect.gen(function*() {
      // whose cart: read again when the session changes (the platform merges a visitor's cart into the member's at sign-in)
      yield* get.result(who.state)
      const view = yield* Cart.estimate().pipe(
        Effect.map(viewOf),
        Effect.catchTag("EcomError", (e) => e.code === CartCodes.ownedCartNotFound ? Effect.succeed(undefined) : Effect.fail(e))
      )
      get.set(knownCartAtom, view === undefined ? "none" : "some")
      return view ?? EMPTY
    })
  )
)

/** The header's count: read from the cart where there is one, none where there is none, unknown (no count shown) before the app knows. */
export const cartCountAtom = Atom.make((get): { readonly count: number | undefined; readonly waiting: boolean } => {
  const known = get(knownCartAtom)
  if (known === "unknown") return { count: undefined, waiting: false }
  if (known === "none") return { count: 0, waiting: false }
  const cart = get(cartAtom)
  return { count: Option.getOrUndefined(Option.map(AsyncResult.value(cart), (c) => c.count)), waiting: cart.waiting }
})

/** Adds a product (a variant, or choices) to the cart; the cart is there from then on. */
export const addToCartAtom = runtime.fn(
  (line: Cart.NewLineItem, get) => Effect.tap(Cart.add([line]), () => Effect.sync(() => get.set(knownCartAtom, "some"))),
  { reactivityKeys: [CART_KEY] }
)

/** Sets a line's quantity (from 1; removing a line is `removeLineAtom`). */
export const quantityAtom = runtime.fn((change: Cart.QuantityChange) => Cart.updateQuantities([change]), { reactivityKeys: [CART_KEY] })

/** Removes a line from the cart. */
export const removeLineAtom = runtime.fn((lineId: string) => Cart.removeLineItems([lineId]), { reactivityKeys: [CART_KEY] })

/** A refusal in words a shopper reads: the stock's refusal by what it means, else the platform's message. */
export const refusalText = (error: unknown, left?: number): string => {
  if (error instanceof EcomError && error.code === CartCodes.insufficientInventory) {
    return left === undefined ? "Not enough in stock for that quantity." : left === 0 ? "Sold out: none left in stock." : `Not enough in stock: only ${left} left.`
  }
  return error instanceof Error ? error.message : String(error)
}
