/**
 * The orders panel: the site's orders, newest first, a page at a time (found by buyer, number, status,
 * payment, fulfillment); an order opens to its lines, its buyer, its money and its fulfillments, with
 * what the owner does to it: mark it as paid, fulfil what is left, cancel it (its items go back to stock).
 */
import type { Orders } from "sitefx/ecom"
import { useAtom, useAtomSet, useAtomValue } from "sitefx/react"
import { type FormEvent, useState } from "react"
import { ActionStatus, ResultView } from "../shell/Result.tsx"
import { type OrderAction, orderAction, type OrderFilter, ordersAtom, filterAtom, fulfillmentsAtom, label } from "./atoms.ts"

type Order = Orders.Order

const STATUSES = [["", "any placed"], ["APPROVED", "approved"], ["PENDING", "pending"], ["CANCELED", "canceled"], ["REJECTED", "rejected"]] as const
const PAYMENTS = [["", "any payment"], ["NOT_PAID", "not paid"], ["PAID", "paid"], ["PENDING", "pending"], ["PARTIALLY_PAID", "partially paid"], ["FULLY_REFUNDED", "refunded"]] as const
const FULFILLMENTS = [["", "any fulfillment"], ["NOT_FULFILLED", "not fulfilled"], ["PARTIALLY_FULFILLED", "partially fulfilled"], ["FULFILLED", "fulfilled"]] as const

const TONE: Record<string, string> = {
  PAID: "good",
  FULFILLED: "good",
  APPROVED: "good",
  NOT_PAID: "warn",
  NOT_FULFILLED: "warn",
  PARTIALLY_FULFILLED: "warn",
  PARTIALLY_PAID: "warn",
  PENDING: "warn",
  CANCELED: "bad",
  REJECTED: "bad",
  DECLINED: "bad"
}

function Badge(props: { readonly value: string | undefined }) {
  return <span className={`badge ${TONE[props.value ?? ""] ?? ""}`}>{label(props.value)}</span>
}

const when = (iso: string | null | undefined) => (iso === undefined || iso === null ? <span className="muted">unknown</span> : <time dateTime={iso}>{new Date(iso).toLocaleString()}</time>)

const money = (price: { readonly amount?: string | undefined; readonly formattedAmount?: string | undefined } | undefined, currency: string | null | undefined) =>
  price?.formattedAmount ?? (price?.amount === undefined ? "–" : `${price.amount} ${currency ?? ""}`.trim())

const personOf = (o: Order) => {
  const c = o.billingInfo?.contactDetails
  const name = [c?.firstName, c?.lastName].filter((s) => typeof s === "string" && s !== "").join(" ")
  return name === "" ? undefined : name
}

function Fulfillments(props: { readonly orderId: string }) {
  const result = useAtomValue(fulfillmentsAtom(props.orderId))
  return (
    <ResultView result={result} loading="Reading the fulfillments" failed="The fulfillments could not be read.">
      {(all) =>
        all.length === 0
          ? <p className="muted">Nothing fulfilled yet.</p>
          : (
            <ul className="plain">
              {all.map((f) => (
                <li key={f.id ?? f.createdDate}>
                  {when(f.createdDate)} · {f.lineItems?.reduce((n, l) => n + (l.quantity ?? 0), 0) ?? 0} item(s)
                  {f.trackingInfo?.trackingNumber === undefined || f.trackingInfo.trackingNumber === null
                    ? null
                    : <> · tracking <code>{f.trackingInfo.trackingNumber}</code>{f.trackingInfo.shippingProvider ? ` (${f.trackingInfo.shippingProvider})` : ""}</>}
                </li>
              ))}
            </ul>
          )}
    </ResultView>
  )
}

function OrderDetail(props: { readonly order: Order; readonly act: (a: OrderAction) => void }) {
  const o = props.order
  const id = o.id ?? ""
  const number = o.number ?? id
  const address = o.billingInfo?.address
  const where = [address?.addressLine1, address?.addressLine2, address?.city, address?.postalCode, address?.country].filter((s) => typeof s === "string" && s !== "").join(", ")
  const s = o.priceSummary
  const canceled = o.status === "CANCELED"
  return (
    <section className="order-detail" aria-labelledby={`order-${id}-title`}>
      <h2 id={`order-${id}-title`}>Order {number}</h2>
      <div className="detail-grid">
        <div>
          <h3>Buyer</h3>
          <p className="wrap">{o.buyerInfo?.email ?? <span className="muted">no email</span>}</p>
          {personOf(o) === undefined ? null : <p>{personOf(o)}{o.billingInfo?.contactDetails?.phone ? ` · ${o.billingInfo.contactDetails.phone}` : ""}</p>}
          {where === "" ? null : <p className="wrap">{where}</p>}
          <p className="muted wrap">
            {o.buyerInfo?.memberId !== undefined ? <>member <code>{o.buyerInfo.memberId}</code></> : o.buyerInfo?.visitorId !== undefined ? <>visitor <code>{o.buyerInfo.visitorId}</code></> : "no member or visitor"}
          </p>
          {o.buyerNote ? <p className="wrap">Note: {o.buyerNote}</p> : null}
        </div>
        <div>
          <h3>Lines</h3>
          <ul className="plain" aria-label={`Lines of order ${number}`}>
            {(o.lineItems ?? []).map((l, i) => (
              <li key={l.id ?? i} className="wrap">
                {l.quantity ?? 1} × {l.productName?.original ?? l.catalogReference?.catalogItemId ?? "an item"}
                {l.physicalProperties?.sku ? <span className="muted"> (SKU {l.physicalProperties.sku})</span> : null} · {money(l.totalPriceAfterTax ?? l.price, o.currency)}
              </li>
            ))}
          </ul>
          <dl className="sums">
            <dt>Subtotal</dt><dd>{money(s?.subtotal, o.currency)}</dd>
            <dt>Shipping</dt><dd>{money(s?.shipping, o.currency)}</dd>
            {s?.discount?.amount !== undefined && Number(s.discount.amount) !== 0 ? <><dt>Discount</dt><dd>{money(s.discount, o.currency)}</dd></> : null}
            {s?.tax?.amount !== undefined && Number(s.tax.amount) !== 0 ? <><dt>Tax</dt><dd>{money(s.tax, o.currency)}</dd></> : null}
            <dt>Total</dt><dd><strong>{money(s?.total, o.currency)}</strong></dd>
          </dl>
        </div>
        <div>
          <h3>Fulfillments</h3>
          {id === "" ? null : <Fulfillments orderId={id} />}
        </div>
      </div>
      <div className="actions">
        <button type="button" disabled={o.paymentStatus === "PAID" || canceled} onClick={() => props.act({ kind: "mark-paid", id, number })}>
          Mark as paid
        </button>
        <button type="button" disabled={o.fulfillmentStatus === "FULFILLED" || canceled} onClick={() => props.act({ kind: "fulfil", id, number })}>
          Fulfil all remaining
        </button>
        <button type="button" className="secondary" disabled={canceled} onClick={() => props.act({ kind: "cancel", id, number })}>
          Cancel and restock
        </button>
      </div>
    </section>
  )
}

const COLUMNS = ["Order", "Placed", "Buyer", "Total", "Payment", "Fulfillment", "Status"] as const

function OrderRows(props: { readonly order: Order; readonly open: boolean; readonly toggle: () => void; readonly act: (a: OrderAction) => void }) {
  const o = props.order
  const number = o.number ?? o.id ?? "?"
  const detail = `order-${o.id}-detail`
  // explicit roles: a narrow screen lays the rows out as blocks, which must not take their table semantics away
  return (
    <>
      <tr role="row">
        <th role="rowheader" scope="row" data-label="Order">
          <button type="button" className="link" aria-expanded={props.open} aria-controls={props.open ? detail : undefined} aria-label={`Order ${number}`} onClick={props.toggle}>
            {number}
          </button>
        </th>
        <td role="cell" data-label="Placed">{when(o.purchasedDate ?? o.createdDate)}</td>
        <td role="cell" data-label="Buyer" className="wrap">{o.buyerInfo?.email ?? <span className="muted">none</span>}</td>
        <td role="cell" data-label="Total">{money(o.priceSummary?.total, o.currency)}</td>
        <td role="cell" data-label="Payment"><Badge value={o.paymentStatus} /></td>
        <td role="cell" data-label="Fulfillment"><Badge value={o.fulfillmentStatus} /></td>
        <td role="cell" data-label="Status"><Badge value={o.status} /></td>
      </tr>
      {props.open
        ? (
          <tr role="row" id={detail} className="detail-row">
            <td role="cell" colSpan={COLUMNS.length}><OrderDetail order={o} act={props.act} /></td>
          </tr>
        )
        : null}
    </>
  )
}

function OrderList(props: { readonly filter: OrderFilter; readonly act: (a: OrderAction) => void }) {
  const atom = ordersAtom(props.filter)
  const result = useAtomValue(atom)
  const loadMore = useAtomSet(atom.loadMore)
  const reload = useAtomSet(atom.reload)
  const [open, setOpen] = useState<ReadonlySet<string>>(new Set())
  const toggle = (id: string) => setOpen((now) => {
    const next = new Set(now)
    if (!next.delete(id)) next.add(id)
    return next
  })
  return (
    <>
    <div className="toolbar">
      <button type="button" className="secondary" onClick={() => reload()}>Refresh</button>
    </div>
    <ResultView result={result} loading="Reading the orders" failed="The orders could not be read." retry={() => reload()}>
      {(r, waiting) =>
        r.items.length === 0
          ? <p className="notice">No order matches. A shopper's order appears here once they pay on the checkout page.</p>
          : (
            <>
              <table role="table" className="data-table">
                <caption>Orders, newest first: {r.items.length} shown{r.hasMore ? ", more to load" : ""}</caption>
                <thead role="rowgroup">
                  <tr role="row">{COLUMNS.map((c) => <th role="columnheader" scope="col" key={c}>{c}</th>)}</tr>
                </thead>
                <tbody role="rowgroup">
                  {r.items.map((o) => <OrderRows key={o.id} order={o} open={open.has(o.id ?? "")} toggle={() => toggle(o.id ?? "")} act={props.act} />)}
                </tbody>
              </table>
              <div className="toolbar">
                {r.hasMore
                  ? <button type="button" className="secondary" disabled={waiting} onClick={() => loadMore()}>{waiting ? "Loading…" : "Load more orders"}</button>
                  : <p className="muted">{waiting ? "Reading the orders again…" : "That is every order that matches."}</p>}
              </div>
            </>
          )}
    </ResultView>
    </>
  )
}

export function OrdersPanel() {
  const [filter, setFilter] = useAtom(filterAtom)
  const [form, setForm] = useState<OrderFilter>(filter)
  const act = useAtomSet(orderAction)
  const outcome = useAtomValue(orderAction)
  const apply = (event: FormEvent) => {
    event.preventDefault()
    setFilter(form)
  }
  const field = <K extends keyof OrderFilter>(key: K) => (value: string) => setForm({ ...form, [key]: value })
  return (
    <section aria-labelledby="orders-title">
      <h1 id="orders-title">Orders</h1>
      <p className="lead">
        The store's orders as its owner reads them: <code>sitefx/ecom</code>'s <code>Orders</code> with the site's API key. Open an order for its lines and buyer, and to mark it as
        paid, fulfil it or cancel it. As on the platform, pending and rejected orders show only when the status asks for them.
      </p>
      <form className="filters" onSubmit={apply} aria-label="Find orders">
        <div>
          <label htmlFor="orders-text">Buyer email or order number</label>
          <input id="orders-text" type="search" value={form.text} onChange={(e) => field("text")(e.target.value)} placeholder="ada@ or 10001" autoComplete="off" />
        </div>
        <div>
          <label htmlFor="orders-status">Status</label>
          <select id="orders-status" value={form.status} onChange={(e) => field("status")(e.target.value)}>
            {STATUSES.map(([value, text]) => <option key={value} value={value}>{text}</option>)}
          </select>
        </div>
        <div>
          <label htmlFor="orders-payment">Payment</label>
          <select id="orders-payment" value={form.payment} onChange={(e) => field("payment")(e.target.value)}>
            {PAYMENTS.map(([value, text]) => <option key={value} value={value}>{text}</option>)}
          </select>
        </div>
        <div>
          <label htmlFor="orders-fulfillment">Fulfillment</label>
          <select id="orders-fulfillment" value={form.fulfillment} onChange={(e) => field("fulfillment")(e.target.value)}>
            {FULFILLMENTS.map(([value, text]) => <option key={value} value={value}>{text}</option>)}
          </select>
        </div>
        <div className="actions">
          <button type="submit">Find orders</button>
        </div>
      </form>
      <ActionStatus result={outcome} />
      <OrderList filter={filter} act={act} />
    </section>
  )
}
