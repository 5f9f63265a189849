/**
 * Where the platform's checkout page sends the shopper once they have paid (`/?orderId=…#/store/thank-you`):
 * the order's id, which this browser remembers for the member area's list (placedOrders.ts). The order's
 * number and details are the store's to send: a visitor cannot read an order through the platform, so
 * this page shows what the address tells it and no more.
 */
import { useEffect, useRef } from "react"
import { Checkout } from "sitefx/ecom"
import { href } from "../../shell/router.ts"
import { currentQuery, paramsOf } from "../params.ts"
import { rememberOrder } from "./placedOrders.ts"

/** The order id the checkout page added to this page's address (before the hash; in the hash's query too). */
const orderIdOf = (): string | undefined => {
  const id = Checkout.orderIdOf(window.location.href) ?? paramsOf(currentQuery()).get(Checkout.THANK_YOU_ORDER_PARAM)
  return id === null || id === undefined || id.trim() === "" ? undefined : id.trim()
}

export function ThankYou() {
  const orderId = orderIdOf()
  const title = useRef<HTMLHeadingElement>(null)
  useEffect(() => title.current?.focus({ preventScroll: true }), [])
  useEffect(() => {
    if (orderId !== undefined) rememberOrder(orderId)
  }, [orderId])
  return (
    <section className="thank-you" aria-labelledby="thank-you-title">
      <h1 id="thank-you-title" tabIndex={-1} ref={title}>{orderId === undefined ? "No order to show" : "Thank you for your order"}</h1>
      {orderId === undefined
        ? <p className="notice">This page is where the checkout sends you once you have paid; this address names no order.</p>
        : (
          <div className="notice">
            <p>Your order is placed. Its id is <code data-testid="order-id">{orderId}</code>.</p>
            <p>The store sends its confirmation, with the order number, to the email address you gave at checkout.</p>
          </div>
        )}
      <p className="links">
        <a href={href("store")}>Continue shopping</a>
      </p>
    </section>
  )
}
