/**
 * The carts panel's atoms: the store's abandoned carts as its owner reads them (sitefx/catalog's
 * `AbandonedCarts` with the site's API key), most recently abandoned first, a page at a time.
 */
import type { CartStatus } from "sitefx/catalog/abandoned-carts"
import * as AbandonedCarts from "sitefx/catalog/abandoned-carts"
import { Atom } from "effect/reactivity"
import { queryAtoms } from "sitefx/react"
import { adminRuntime } from "../admin.ts"

/** How many carts a page holds. */
export const CARTS_PAGE = 20

/** The query as the form holds it: "" is "any". */
export interface CartFilter {
  /** The start of the buyer's email. */
  readonly email: string
  readonly status: "" | CartStatus
}

export const NO_FILTER: CartFilter = { email: "", status: "" }

export const filterAtom = Atom.make<CartFilter>(NO_FILTER)

const queries = queryAtoms(adminRuntime)

/** The abandoned carts a filter matches, as sitefx/react's paged query atom (`loadMore`, `reload`). */
export const cartsAtom = (f: CartFilter) => {
  let query = AbandonedCarts.query().descending("abandonTime").limit(CARTS_PAGE)
  if (f.email.trim() !== "") query = query.startsWith("buyerInfo.email", f.email.trim())
  if (f.status !== "") query = query.eq("status", f.status)
  return queries.of({
    key: `abandoned carts ${JSON.stringify(f)}`,
    keys: ["sitefx/console/abandoned-carts"],
    first: query.find,
    idOf: (cart) => cart.id
  })
}
