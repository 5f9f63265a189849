/**
 * The hosted checkout page, plain server-rendered HTML: the checkout's lines and totals (the flat
 * shipping rate named), a form for the buyer's email, name and shipping address, and a "Pay (test)"
 * button; a refusal is shown above the form with its code and rule. No script: it works with any client
 * that can post a form.
 */
import { FLAT_SHIPPING_RATE } from "../../../ecom/checkoutProtocol.ts"
import { escapeHtml, htmlPage } from "../../oauth/pages.ts"
import { formatAmount } from "../carts/pricing.ts"
import type { PricedCheckout } from "./CheckoutStore.ts"

/** The form's fields, in order: the hidden token and what the buyer types. */
export const CHECKOUT_FORM_FIELDS = ["token", "email", "firstName", "lastName", "phone", "addressLine1", "addressLine2", "city", "subdivision", "postalCode", "country"] as const
export type CheckoutFormField = typeof CHECKOUT_FORM_FIELDS[number]
export type CheckoutForm = Partial<Record<CheckoutFormField, string>>

/** A refusal as the page shows it. */
export interface PageError {
  readonly message: string
  readonly code?: string | undefined
  readonly rule?: string | undefined
}

const STYLE = `
  body { font: 15px/1.4 system-ui, sans-serif; margin: 0; background: #f6f6f4; color: #1d1d1b; }
  main { background: #fff; margin: 2rem auto; padding: 2rem; border-radius: 12px; box-shadow: 0 1px 4px rgba(0,0,0,.08); width: min(34rem, 92vw); box-sizing: border-box; }
  @media (max-width: 30rem) { main { margin: 1rem auto; padding: 1rem; } }
  h1 { font-size: 1.3rem; margin: 0 0 1rem; } h2 { font-size: 1.05rem; margin: 1.5rem 0 .5rem; }
  table { width: 100%; border-collapse: collapse; } td, th { padding: .3rem .4rem; text-align: left; } td:first-child, th:first-child { padding-left: 0; } td:last-child, th:last-child { padding-right: 0; } td.n, th.n { text-align: right; }
  tfoot td { border-top: 1px solid #ddd; } tr.total td { font-weight: 600; }
  label { display: block; margin: .6rem 0 .2rem; }
  input { width: 100%; box-sizing: border-box; padding: .45rem; font: inherit; border: 1px solid #bbb; border-radius: 6px; }
  .row { display: grid; grid-template-columns: 1fr 1fr; gap: .75rem; }
  button { margin-top: 1.25rem; width: 100%; padding: .65rem; font: inherit; border: 0; border-radius: 6px; background: #1d1d1b; color: #fff; cursor: pointer; }
  .error { color: #b00020; margin: 0 0 1rem; } .hint { color: #666; font-size: .85rem; margin-top: 1rem; }`

const shell = (title: string, body: string): string => htmlPage(title, STYLE, body)

const field = (name: CheckoutFormField, label: string, form: CheckoutForm, attrs: string) =>
  `<div><label for="${name}">${escapeHtml(label)}</label><input id="${name}" name="${name}" value="${escapeHtml(form[name] ?? "")}" ${attrs}></div>`

export const checkoutPage = (options: {
  readonly action: string
  readonly token: string
  readonly checkout: PricedCheckout
  readonly form: CheckoutForm
  readonly error?: PageError | undefined
}): string => {
  const { checkout, form, error } = options
  const money = (n: number) => escapeHtml(formatAmount(n, checkout.currency))
  const rows = checkout.lines.map((line) => {
    const item = line.item
    if (!item.found) return `<tr><td colspan="3">${escapeHtml(item.reason)}</td><td class="n">–</td></tr>`
    const options = item.options.map((o) => `${o.name}: ${o.choice}`).join(", ")
    return `<tr><td>${escapeHtml(item.name)}${options === "" ? "" : ` <small>(${escapeHtml(options)})</small>`}</td><td class="n">${line.quantity} ×</td><td class="n">${money(item.price)}</td><td class="n">${money(Math.round(item.price * line.quantity * 100) / 100)}</td></tr>`
  }).join("\n")
  const t = checkout.totals
  return shell(
    "Checkout",
    `<main>
<h1>Checkout</h1>
${error === undefined ? "" : `<p class="error" role="alert"${error.code === undefined ? "" : ` data-code="${escapeHtml(error.code)}"`}${error.rule === undefined ? "" : ` data-rule="${escapeHtml(error.rule)}"`}>${error.code === undefined ? "" : `${escapeHtml(error.code)}: `}${escapeHtml(error.message)}</p>`}
<table>
<thead><tr><th>Item</th><th class="n">Qty</th><th class="n">Price</th><th class="n">Total</th></tr></thead>
<tbody>
${rows}
</tbody>
<tfoot>
<tr><td colspan="3">Subtotal</td><td class="n">${money(t.subtotal)}</td></tr>
${t.discount > 0 ? `<tr><td colspan="3">Discount</td><td class="n">−${money(t.discount)}</td></tr>` : ""}
<tr><td colspan="3">Shipping (flat rate ${money(checkout.ships ? FLAT_SHIPPING_RATE : 0)} per order)</td><td class="n">${money(t.shipping)}</td></tr>
<tr class="total"><td colspan="3">Total</td><td class="n">${money(t.total)}</td></tr>
</tfoot>
</table>
<form method="post" action="${escapeHtml(options.action)}">
<input type="hidden" name="token" value="${escapeHtml(options.token)}">
<h2>Buyer</h2>
${field("email", "Email", form, `type="email" autocomplete="email" required maxlength="254"`)}
<div class="row">${field("firstName", "First name", form, `autocomplete="given-name" required maxlength="100"`)}${field("lastName", "Last name", form, `autocomplete="family-name" required maxlength="100"`)}</div>
${field("phone", "Phone (optional)", form, `type="tel" autocomplete="tel" maxlength="50"`)}
<h2>Shipping address</h2>
${field("addressLine1", "Address", form, `autocomplete="address-line1" required maxlength="200"`)}
${field("addressLine2", "Address line 2 (optional)", form, `autocomplete="address-line2" maxlength="200"`)}
<div class="row">${field("city", "City", form, `autocomplete="address-level2" required maxlength="100"`)}${field("postalCode", "Postal code", form, `autocomplete="postal-code" maxlength="20"`)}</div>
<div class="row">${field("subdivision", "State or region (optional)", form, `autocomplete="address-level1" maxlength="100"`)}${field("country", "Country (two letters)", form, `autocomplete="country" required maxlength="2" pattern="[A-Za-z]{2}"`)}</div>
<button type="submit">Pay (test) ${money(t.total)}</button>
</form>
<p class="hint">sitefx local platform: a test payment, no card is charged. Shipping is a flat ${money(FLAT_SHIPPING_RATE)} per order that ships.</p>
</main>`
  )
}

/** What the buyer sees after paying when the site gave no thank-you page. */
export const thankYouPage = (orderNumber: string, next: string | undefined): string =>
  shell(
    "Thank you",
    `<main>
<h1>Thank you for your order</h1>
<p>Order number <strong>${escapeHtml(orderNumber)}</strong> is placed and paid (test payment).</p>
${next === undefined ? "" : `<p><a href="${escapeHtml(next)}">Back to the store</a></p>`}
</main>`
  )
