/**
 * The orders placed in this browser, remembered by their ids in localStorage as the thank-you page
 * shows them. A member cannot read the store's orders through the platform (its orders API is for the
 * site's owner), so this list is all the member area can honestly show: what this browser saw, not the
 * member's order history.
 */

const KEY = "sitefx-demo/placed-orders"
/** The list keeps the latest few. */
const KEEP = 20

export interface PlacedOrder {
  readonly orderId: string
  /** When this browser came back from the checkout with it (ISO time). */
  readonly at: string
}

const isPlaced = (u: unknown): u is PlacedOrder =>
  typeof u === "object" && u !== null && typeof (u as PlacedOrder).orderId === "string" && typeof (u as PlacedOrder).at === "string"

/** The orders this browser remembers, the latest first. */
export const placedOrders = (): ReadonlyArray<PlacedOrder> => {
  try {
    const list: unknown = JSON.parse(window.localStorage.getItem(KEY) ?? "[]")
    return Array.isArray(list) ? list.filter(isPlaced) : []
  } catch {
    return []
  }
}

/** Remembers an order once (the thank-you page may be reloaded). */
export const rememberOrder = (orderId: string, at: Date = new Date()): void => {
  const list = placedOrders()
  if (list.some((o) => o.orderId === orderId)) return
  try {
    window.localStorage.setItem(KEY, JSON.stringify([{ orderId, at: at.toISOString() }, ...list].slice(0, KEEP)))
  } catch {
    // storage full or refused: the thank-you page still shows the order
  }
}
