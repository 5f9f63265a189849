/**
 * The hosted checkout page (`GET|POST /checkout`), opened by a checkout redirect session
 * (`?redirectSession=`, what `createRedirectSession({ ecomCheckout })` answers), by the checkout's
 * own URL (`?checkoutId=`, what `getCheckoutUrl` answers) or by an abandoned cart's checkout link
 * (`?cartId=`, in CartAbandonedEvent): that opens the checkout of the cart as Cart V1's
 * `create-checkout` makes it (cartCheckout.ts), the cart's owner's, with the buyer's email the cart
 * carries, the same one however often the link is opened; its form then posts to the checkout's own
 * URL. The cart's id is the link's capability, as a checkout's id is. Posting its form saves the buyer's details
 * and places the order (placeOrder.ts), then sends the browser to the session's thank-you page with
 * `orderId` (and `wixMemberLoggedIn`), or shows a thank-you page of its own.
 *
 * The form is protected as the authorize page is: never framed by another site; a post must carry the
 * token the page was rendered with (an HMAC of the checkout and the session, under the instance's
 * secret) and, from a browser, come from this platform's own origin. Every wrong input shows the page
 * again with what is wrong; nothing a browser sends answers 5xx.
 */
import * as Effect from "effect/Effect"
import * as HttpRouter from "effect/http/HttpRouter"
import * as HttpServerRequest from "effect/http/HttpServerRequest"
import * as HttpServerResponse from "effect/http/HttpServerResponse"
import { timingSafeEqual } from "node:crypto"
import { CHECKOUT_PAGE_PATH, THANK_YOU_ORDER_PARAM } from "../../../ecom/checkoutProtocol.ts"
import { ProductStore } from "../../catalog/products/ProductStore.ts"
import { CatalogEngine } from "../../catalog/CatalogEngine.ts"
import { html, messagePage, PAGE_HEADERS } from "../../oauth/pages.ts"
import { RedirectSessions } from "../../oauth/RedirectSessions.ts"
import { Database } from "../../platform/Database.ts"
import type { Reject } from "../../platform/responses.ts"
import { formBody, query, requestOrigin, route } from "../../platform/routing.ts"
import { derive } from "../../platform/secrets.ts"
import { CartStore } from "../carts/CartStore.ts"
import { OrderStore } from "../orders/OrderStore.ts"
import { checkoutPage, type CheckoutForm, CHECKOUT_FORM_FIELDS, type PageError, thankYouPage } from "./checkoutPage.ts"
import { checkoutOfCart } from "./cartCheckout.ts"
import { EMAIL } from "./checkoutRoutes.ts"
import { type CheckoutDetails, CheckoutStore, isCheckoutId, type StoredCheckout } from "./CheckoutStore.ts"
import { buyerOf, placeOrder, rememberBuyer } from "./placeOrder.ts"

/** The page is never shown inside another site's frame. */
// never framed; and its form's post carries the page's own Origin (under no-referrer, a browser sends
// `Origin: null`, which the origin check must refuse), while no other site learns the page's address
const FRAMING = { "x-frame-options": "DENY", "content-security-policy": "frame-ancestors 'none'", "referrer-policy": "same-origin" }

/** What opened the page: the checkout, and the redirect session's callbacks when a session did. */
interface Opened {
  readonly _tag: "Opened"
  readonly checkout: StoredCheckout
  readonly sessionId: string | undefined
  readonly postFlowUrl: string | undefined
  readonly thankYouPageUrl: string | undefined
}

/** Why the link opens no checkout, as the page says it. */
interface NotOpened {
  readonly _tag: "NotOpened"
  readonly title: string
  readonly message: string
  readonly status: number
}

const notOpened = (title: string, message: string, status = 400): NotOpened => ({ _tag: "NotOpened", title, message, status })

const INVALID_LINK = notOpened("Checkout link not valid", "This checkout link is not valid, has expired, or its checkout is gone.")

export const checkoutPageRoutes = HttpRouter.addAll(Effect.gen(function*() {
  const db = yield* Database
  const sessions = yield* RedirectSessions
  const checkouts = yield* CheckoutStore
  const services = {
    catalog: yield* CatalogEngine,
    products: yield* ProductStore,
    orders: yield* OrderStore,
    carts: yield* CartStore,
    checkouts
  }

  const cannotOpen = (why: NotOpened) => html(messagePage(why.title, why.message), why.status, FRAMING)

  const byItself = (checkout: StoredCheckout): Opened => ({ _tag: "Opened", checkout, sessionId: undefined, postFlowUrl: undefined, thankYouPageUrl: undefined })

  /** The checkout of an abandoned cart's link: the cart's, while it is there with lines and no order. */
  const openCart = (cartId: string): Effect.Effect<Opened | NotOpened> =>
    Effect.gen(function*() {
      if (!isCheckoutId(cartId)) return INVALID_LINK
      const found = services.carts.byId(cartId)
      // an order empties its cart: a cart gone may have been ordered from one of its checkouts
      const orderId = found === undefined ? checkouts.orderOfCart(cartId) : found.orderId
      if (orderId !== undefined) {
        const number = services.orders.get(orderId)?.number
        return notOpened("Order placed", `The order for this cart${number === undefined ? "" : `, number ${number},`} was placed already: there is nothing left to pay.`)
      }
      if (found === undefined) return notOpened("Cart not found", "This link's cart is not there: it was deleted, or the link is not complete.", 404)
      if (found.cart.lines.length === 0) return notOpened("Cart is empty", "This cart holds nothing any more, so there is nothing to check out.")
      // the link carries no session: the checkout is the cart owner's, made as the owner
      const owner = { ...found.owner, clientId: "" }
      const actor = { ...found.owner, clientId: "", tokenId: "" }
      const made = yield* Effect.result(checkoutOfCart(services.carts, checkouts, owner, found.email === undefined ? {} : { email: found.email }, actor))
      if (made._tag === "Failure") {
        const reject = made.failure
        return notOpened("This cart cannot be checked out", reject.body.message ?? "The platform refused to check this cart out.", reject.status >= 500 ? 409 : reject.status)
      }
      const checkout = made.success
      if (checkout.completed) return notOpened("Checkout completed", "This cart's checkout was completed already: there is nothing left to pay.")
      return byItself(checkout)
    })

  const open = Effect.flatMap(query, (params): Effect.Effect<Opened | NotOpened> => {
    const sessionId = params.get("redirectSession")
    if (sessionId !== null) {
      const session = sessions.load("ecomCheckout", sessionId)
      if (session === undefined) return Effect.succeed(INVALID_LINK)
      const checkout = checkouts.find(session.request.checkoutId)
      // a session opens only its creator's checkout
      if (checkout === undefined || checkout.owner.kind !== session.role || checkout.owner.id !== session.subject) return Effect.succeed(INVALID_LINK)
      return Effect.succeed({ _tag: "Opened", checkout, sessionId, postFlowUrl: session.request.postFlowUrl, thankYouPageUrl: session.request.thankYouPageUrl })
    }
    const checkoutId = params.get("checkoutId")
    if (checkoutId !== null) {
      const checkout = isCheckoutId(checkoutId) ? checkouts.find(checkoutId) : undefined
      return Effect.succeed(checkout === undefined ? INVALID_LINK : byItself(checkout))
    }
    const cartId = params.get("cartId")
    return cartId === null ? Effect.succeed(INVALID_LINK) : openCart(cartId)
  })

  const actionOf = (opened: Opened) =>
    `${CHECKOUT_PAGE_PATH}?${opened.sessionId === undefined ? `checkoutId=${encodeURIComponent(opened.checkout.id)}` : `redirectSession=${encodeURIComponent(opened.sessionId)}`}`
  const tokenOf = (opened: Opened) => derive(db.instance().tokenSecret, `checkout-form:${opened.checkout.id}:${opened.sessionId ?? ""}`)

  const formOf = (checkout: StoredCheckout): CheckoutForm => {
    const d = checkout.details
    const to = d.shippingDestination ?? d.billingInfo
    return {
      email: d.email ?? "",
      firstName: to?.contactDetails?.firstName ?? "",
      lastName: to?.contactDetails?.lastName ?? "",
      phone: to?.contactDetails?.phone ?? "",
      addressLine1: to?.address?.addressLine1 ?? "",
      addressLine2: to?.address?.addressLine2 ?? "",
      city: to?.address?.city ?? "",
      subdivision: to?.address?.subdivision ?? "",
      postalCode: to?.address?.postalCode ?? "",
      country: to?.address?.country ?? ""
    }
  }

  const show = (opened: Opened, form: CheckoutForm, error?: PageError, status = 200) =>
    html(checkoutPage({ action: actionOf(opened), token: tokenOf(opened), checkout: checkouts.priced(checkouts.find(opened.checkout.id)!), form, error }), status, FRAMING)

  /** After the order: the site's thank-you page with the order's id, or the platform's own. */
  const finish = (opened: Opened, orderId: string) => {
    if (opened.sessionId !== undefined) sessions.complete(opened.sessionId)
    if (opened.thankYouPageUrl !== undefined) {
      const target = new URL(opened.thankYouPageUrl)
      target.searchParams.set(THANK_YOU_ORDER_PARAM, orderId)
      target.searchParams.set("wixMemberLoggedIn", String(opened.checkout.owner.kind === "member"))
      return HttpServerResponse.redirect(target.toString(), { status: 303, headers: PAGE_HEADERS })
    }
    const order = services.orders.get(orderId)
    return html(thankYouPage(order?.number ?? orderId, opened.postFlowUrl), 200, FRAMING)
  }

  const page = Effect.gen(function*() {
    const opened = yield* open
    if (opened._tag === "NotOpened") return cannotOpen(opened)
    if (opened.checkout.completed && opened.checkout.orderId !== undefined) return finish(opened, opened.checkout.orderId)
    return show(opened, formOf(opened.checkout))
  })

  /** The post came from this platform's own page: its Origin (or, without one, Sec-Fetch-Site) says so. */
  const fromOwnPage = Effect.gen(function*() {
    const request = yield* HttpServerRequest.HttpServerRequest
    const origin = request.headers["origin"]
    if (origin !== undefined) return origin === (yield* requestOrigin)
    const site = request.headers["sec-fetch-site"]
    return site !== "cross-site" && site !== "same-site"
  })

  const submit = Effect.gen(function*() {
    const opened = yield* open
    if (opened._tag === "NotOpened") return cannotOpen(opened)
    const params = yield* Effect.result(formBody)
    if (params._tag === "Failure") return show(opened, formOf(opened.checkout), { message: "The form could not be read: send it again" }, 400)
    const form: CheckoutForm = Object.fromEntries(CHECKOUT_FORM_FIELDS.map((f) => [f, (params.success.get(f) ?? "").trim()]))
    const token = Buffer.from(form.token ?? "")
    const expected = Buffer.from(tokenOf(opened))
    if (!(yield* fromOwnPage) || token.length !== expected.length || !timingSafeEqual(token, expected)) {
      return show(opened, form, { message: "This form was not sent from this checkout page: reload it and pay again", rule: "ecom.checkout.form-origin" }, 403)
    }
    if (opened.checkout.completed && opened.checkout.orderId !== undefined) return finish(opened, opened.checkout.orderId)
    const problem = checkForm(form)
    if (problem !== undefined) return show(opened, form, { message: problem.message, rule: `ecom.checkout.form.${problem.field}` }, 400)
    const buyer = buyerOf(opened.checkout)
    const details = detailsOfForm(form)
    if (!opened.checkout.completed) {
      const saved = yield* Effect.result(Effect.try({ try: () => rememberBuyer(services.carts, checkouts.update(opened.checkout.id, details, buyer)), catch: (e) => e }))
      if (saved._tag === "Failure") return show(opened, form, { message: "This checkout cannot change any more" }, 409)
    }
    const placed = yield* Effect.result(placeOrder(services, opened.checkout.id))
    if (placed._tag === "Failure") return refused(opened, form, placed.failure)
    return finish(opened, placed.success.orderId)
  })

  const refused = (opened: Opened, form: CheckoutForm, reject: Reject) =>
    show(opened, form, { message: reject.body.message ?? "The order was refused", code: reject.code, rule: reject.rule?.id }, reject.status >= 500 ? 409 : reject.status)

  return [route("GET", CHECKOUT_PAGE_PATH, page), route("POST", CHECKOUT_PAGE_PATH, submit)]
}))

/** The first thing wrong with the form, naming its field. */
const checkForm = (form: CheckoutForm): { readonly field: string; readonly message: string } | undefined => {
  const required: ReadonlyArray<readonly [keyof CheckoutForm, string]> = [
    ["email", "Give your email"],
    ["firstName", "Give your first name"],
    ["lastName", "Give your last name"],
    ["addressLine1", "Give the shipping address"],
    ["city", "Give the city"],
    ["country", "Give the country"]
  ]
  for (const [f, message] of required) if ((form[f] ?? "") === "") return { field: f, message }
  if ((form.email ?? "").length > 254 || !EMAIL.test(form.email ?? "")) return { field: "email", message: "The email is not an email address" }
  if (!/^[A-Za-z]{2}$/.test(form.country ?? "")) return { field: "country", message: "The country is its two-letter code (US, DE, FR…)" }
  const limits: ReadonlyArray<readonly [keyof CheckoutForm, number]> = [
    ["firstName", 100], ["lastName", 100], ["phone", 50], ["addressLine1", 200], ["addressLine2", 200], ["city", 100], ["subdivision", 100], ["postalCode", 20]
  ]
  for (const [f, max] of limits) if ((form[f] ?? "").length > max) return { field: f, message: `${f} takes at most ${max} characters` }
  return undefined
}

const detailsOfForm = (form: CheckoutForm): CheckoutDetails => {
  const optional = (v: string | undefined) => (v === undefined || v === "" ? {} : undefined)
  const contact = {
    firstName: form.firstName!,
    lastName: form.lastName!,
    ...(optional(form.phone) ?? { phone: form.phone! })
  }
  const address = {
    addressLine1: form.addressLine1!,
    city: form.city!,
    country: form.country!.toUpperCase(),
    ...(optional(form.addressLine2) ?? { addressLine2: form.addressLine2! }),
    ...(optional(form.subdivision) ?? { subdivision: form.subdivision! }),
    ...(optional(form.postalCode) ?? { postalCode: form.postalCode! })
  }
  const destination = { address, contactDetails: contact }
  return { email: form.email!, shippingDestination: destination, billingInfo: destination }
}
