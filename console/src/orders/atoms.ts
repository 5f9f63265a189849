/**
 * The orders panel's atoms: the site's orders as a search (newest first, a page at a time, more on
 * demand), an order's fulfillments, and what the owner does to an order. They are the admin calls of
 * sitefx/ecom's `Orders`, with the site's API key; every action refreshes the orders shown.
 */
import * as Effect from "effect/Effect"
import { Atom } from "effect/reactivity"
import { type EcomFailure, Orders } from "sitefx/ecom"
import type { PlatformClient } from "sitefx/http"
import { type PageLike, queryAtoms } from "sitefx/react"
import { adminRuntime } from "../admin.ts"
import type { Outcome } from "../shell/Result.tsx"

/** The Reactivity key of the orders: an action invalidates it, and the search and fulfillments read again. */
const KEYS = ["sitefx/console/orders"]

/** How many orders a page holds. */
export const ORDERS_PAGE = 20

/** The search as the form holds it: "" is "any". */
export interface OrderFilter {
  /** A buyer's email (its start) or an order's number. */
  readonly text: string
  readonly status: "" | Orders.OrderStatus
  readonly payment: "" | Orders.PaymentStatus
  readonly fulfillment: "" | Orders.FulfillmentStatus
}

export const NO_FILTER: OrderFilter = { text: "", status: "", payment: "", fulfillment: "" }

export const filterAtom = Atom.make<OrderFilter>(NO_FILTER)

/** The search a filter asks for: newest first, a page of {@link ORDERS_PAGE}. */
export const searchOf = (f: OrderFilter): Orders.OrderSearch => {
  let search = Orders.search().descending("createdDate").limit(ORDERS_PAGE)
  const text = f.text.trim()
  if (/^\d+$/.test(text)) search = search.eq("number", text)
  else if (text !== "") search = search.startsWith("buyerInfo.email", text)
  if (f.status !== "") search = search.eq("status", f.status)
  if (f.payment !== "") search = search.eq("paymentStatus", f.payment)
  if (f.fulfillment !== "") search = search.eq("fulfillmentStatus", f.fulfillment)
  return search
}

const pageOf = (page: Orders.OrderPage): PageLike<Orders.Order, EcomFailure, PlatformClient> => ({
  items: page.orders,
  hasNext: page.hasNext,
  next: Effect.map(page.next, pageOf)
})

const queries = queryAtoms(adminRuntime)

/** The orders a filter matches, as sitefx/react's paged query atom (`loadMore`, `reload`). */
export const ordersAtom = (f: OrderFilter) => {
  const search = searchOf(f)
  return queries.of<Orders.Order, EcomFailure>({
    key: `orders ${JSON.stringify(f)}`,
    keys: KEYS,
    first: Effect.map(search.find, pageOf),
    idOf: (order) => order.id
  })
}

/** An order's fulfillments, oldest first. */
export const fulfillmentsAtom = Atom.family((orderId: string) => adminRuntime.atom(Orders.fulfillments(orderId)).pipe(Atom.withReactivity(KEYS)))

/** Something the owner does to an order. */
export interface OrderAction {
  readonly kind: "mark-paid" | "fulfil" | "cancel"
  readonly id: string
  readonly number: string
}

/** Runs an action on an order; its outcome says what it did, and the orders are read again. */
export const orderAction = adminRuntime.fn((action: OrderAction) => {
  switch (action.kind) {
    case "mark-paid":
      return Effect.map(Orders.markAsPaid(action.id), (o): Outcome => ({ message: `Order ${action.number} is marked as paid (payment ${label(o.paymentStatus)}).` }))
    case "fulfil":
      return Effect.map(
        Effect.andThen(Orders.fulfil(action.id), Orders.get(action.id)),
        (o): Outcome => ({ message: `Fulfilled what was left of order ${action.number} (now ${label(o.fulfillmentStatus)}).` })
      )
    case "cancel":
      return Effect.map(Orders.cancel(action.id, { restockAllItems: true }), (o): Outcome => ({ message: `Order ${action.number} is ${label(o.status)}; its items are back in stock.` }))
  }
}, { reactivityKeys: KEYS })

/** An enumeration's value as words: `NOT_FULFILLED` is "not fulfilled". */
export const label = (value: string | undefined): string => (value === undefined ? "unknown" : value.toLowerCase().replaceAll("_", " "))
