/**
 * The carts panel: the store's abandoned carts (abandoned, or recovered by a later order), as the
 * platform's admin reads them, with their buyer, when they were abandoned and their total. Open carts
 * are not listed: the platform's admin API has no read of them, so the panel says when one becomes an
 * abandoned cart instead.
 */
import type { AbandonedCart } from "sitefx/catalog/abandoned-carts"
import { useAtom, useAtomSet, useAtomValue } from "sitefx/react"
import { type FormEvent, useState } from "react"
import { ResultView } from "../shell/Result.tsx"
import { type CartFilter, cartsAtom, filterAtom } from "./atoms.ts"

const STATUSES = [["", "any status"], ["ABANDONED", "abandoned"], ["RECOVERED", "recovered"]] as const

const COLUMNS = ["Buyer", "Abandoned", "Total", "Status", "Cart"] as const

const buyerOf = (cart: AbandonedCart) => {
  const b = cart.buyerInfo
  const name = [b?.firstName, b?.lastName].filter((s) => typeof s === "string" && s !== "").join(" ")
  return { email: b?.email ?? undefined, name: name === "" ? undefined : name, kind: b?.identityType?.toLowerCase().replaceAll("_", " ") }
}

function CartRow(props: { readonly cart: AbandonedCart }) {
  const c = props.cart
  const buyer = buyerOf(c)
  // explicit roles: a narrow screen lays the rows out as blocks, which must not take their table semantics away
  return (
    <tr role="row">
      <th role="rowheader" scope="row" data-label="Buyer" className="wrap">
        {buyer.email ?? <span className="muted">no email</span>}
        {buyer.name === undefined && buyer.kind === undefined ? null : <span className="muted"> ({[buyer.name, buyer.kind].filter((s) => s !== undefined).join(", ")})</span>}
      </th>
      <td role="cell" data-label="Abandoned">{c.abandonTime ? <time dateTime={c.abandonTime}>{new Date(c.abandonTime).toLocaleString()}</time> : <span className="muted">unknown</span>}</td>
      <td role="cell" data-label="Total">{c.total ?? "–"}</td>
      <td role="cell" data-label="Status"><span className={`badge ${c.status === "RECOVERED" ? "good" : "warn"}`}>{c.status?.toLowerCase() ?? "unknown"}</span></td>
      <td role="cell" data-label="Cart" className="wrap"><code>{c.id}</code></td>
    </tr>
  )
}

function CartList(props: { readonly filter: CartFilter }) {
  const atom = cartsAtom(props.filter)
  const result = useAtomValue(atom)
  const loadMore = useAtomSet(atom.loadMore)
  const reload = useAtomSet(atom.reload)
  return (
    <>
      <div className="toolbar">
        <button type="button" className="secondary" onClick={() => reload()}>Refresh</button>
      </div>
      <ResultView result={result} loading="Reading the abandoned carts" failed="The abandoned carts could not be read." retry={() => reload()}>
        {(r, waiting) =>
          r.items.length === 0
            ? <p className="notice">No abandoned cart matches.</p>
            : (
              <>
                <table role="table" className="data-table">
                  <caption>
                    Abandoned carts, most recent first: {r.items.length} shown{r.total === undefined ? "" : ` of ${r.total}`}
                  </caption>
                  <thead role="rowgroup">
                    <tr role="row">{COLUMNS.map((c) => <th role="columnheader" scope="col" key={c}>{c}</th>)}</tr>
                  </thead>
                  <tbody role="rowgroup">
                    {r.items.map((c) => <CartRow key={c.id} cart={c} />)}
                  </tbody>
                </table>
                <div className="toolbar">
                  {r.hasMore
                    ? <button type="button" className="secondary" disabled={waiting} onClick={() => loadMore()}>{waiting ? "Loading…" : "Load more carts"}</button>
                    : <p className="muted">{waiting ? "Reading the carts again…" : "That is every cart that matches."}</p>}
                </div>
              </>
            )}
      </ResultView>
    </>
  )
}

export function CartsPanel() {
  const [filter, setFilter] = useAtom(filterAtom)
  const [form, setForm] = useState<CartFilter>(filter)
  const apply = (event: FormEvent) => {
    event.preventDefault()
    setFilter(form)
  }
  return (
    <section aria-labelledby="carts-title">
      <h1 id="carts-title">Abandoned carts</h1>
      <p className="lead">
        The carts shoppers left before paying, as the store's owner reads them: <code>sitefx/catalog</code>'s <code>AbandonedCarts</code> with the site's API key. A cart
        is recovered when an order is placed for it later.
      </p>
      <div className="notice" role="note">
        <p>
          <strong>Open carts are not listed:</strong> the platform's admin API reads abandoned carts only. A cart with items and a known buyer (a member, or a visitor who
          gave an email at the checkout) becomes an abandoned cart when it is left unchanged for an hour by the platform's clock; the{" "}
          <a href="#clock">clock panel</a> skews that clock to get there without waiting.
        </p>
        <p>
          The checkout link a reminder would carry is not part of what the admin reads either: it travels in the cart's <code>CartAbandonedEvent</code> (its{" "}
          <code>checkoutUrl</code>), which a webhook subscribed in the <a href="#events">events panel</a> receives.
        </p>
      </div>
      <form className="filters" onSubmit={apply} aria-label="Find abandoned carts">
        <div>
          <label htmlFor="carts-email">Buyer email starts with</label>
          <input id="carts-email" type="search" value={form.email} onChange={(e) => setForm({ ...form, email: e.target.value })} autoComplete="off" />
        </div>
        <div>
          <label htmlFor="carts-status">Status</label>
          <select id="carts-status" value={form.status} onChange={(e) => setForm({ ...form, status: e.target.value as CartFilter["status"] })}>
            {STATUSES.map(([value, text]) => <option key={value} value={value}>{text}</option>)}
          </select>
        </div>
        <div className="actions">
          <button type="submit">Find carts</button>
        </div>
      </form>
      <CartList filter={filter} />
    </section>
  )
}
