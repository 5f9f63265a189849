/**
 * The member's past orders, as far as the app can honestly know them: the orders placed in this browser
 * (remembered by id on the checkout's thank-you page), said to be that. The platform gives members no
 * read of their orders (its orders API is for the site's owner), so there is no history from the store here.
 */
import { useId, useState } from "react"
import { placedOrders } from "../store/cart/placedOrders.ts"

const when = (iso: string): string => {
  const date = new Date(iso)
  return Number.isNaN(date.getTime()) ? iso : date.toLocaleString(undefined, { dateStyle: "medium", timeStyle: "short" })
}

export function PastOrders() {
  const [orders] = useState(placedOrders)
  const id = useId()
  return (
    <section className="form past-orders" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>Orders placed in this browser</h2>
      <p className="hint">
        Remembered by this browser when the checkout came back here; not read from the store. The store sends each order's confirmation by email.
      </p>
      {orders.length === 0
        ? <p>No orders placed in this browser yet.</p>
        : (
          <ul className="placed-orders">
            {orders.map((o) => (
              <li key={o.orderId}>
                <code>{o.orderId}</code> <span className="hint">{when(o.at)}</span>
              </li>
            ))}
          </ul>
        )}
    </section>
  )
}
