/**
 * Placing a checkout's order, in one transaction: the lines priced again from the catalog, every line
 * checked against the stock left (all refused together when one is short: INSUFFICIENT_INVENTORY
 * naming each short line), the tracked stock taken (the catalog's inventory events logged), the order
 * placed (OrderStore.placeOrder: its number and events), the checkout completed (`checkout_completed`),
 * the cart it came from marked ordered (an abandoned one recovered: CartRecoveredEvent) and deleted. A refusal throws, so the transaction rolls back and nothing has
 * changed; the database writes one transaction at a time, so two buyers never take the same last item.
 * A checkout completed already answers the order it has: paying twice places one order.
 */
import * as Effect from "effect/Effect"
import { CheckoutCodes } from "../../../ecom/checkoutProtocol.ts"
import type { CatalogReference } from "../../../ecom/wire/carts.ts"
import type { Engine } from "../../store/engine.ts"
import { EngineFailure } from "../../store/engineFailures.ts"
import type { ProductStoreShape } from "../../catalog/products/ProductStore.ts"
import type { Caller } from "../../platform/Caller.ts"
import type { Reject } from "../../platform/responses.ts"
import type { CartStoreShape } from "../carts/CartStore.ts"
import type { OrderStoreShape } from "../orders/OrderStore.ts"
import type { CheckoutStoreShape, StoredCheckout } from "./CheckoutStore.ts"
import { takeStock, tracksInventory } from "../../catalog/products/stock.ts"

export interface PlaceOrderServices {
  readonly catalog: Engine
  readonly products: ProductStoreShape
  readonly orders: OrderStoreShape
  readonly carts: CartStoreShape
  readonly checkouts: CheckoutStoreShape
}

/** What placing answers: the order's id, and whether this call placed it (false: the checkout had it already). */
export interface Placed {
  readonly orderId: string
  readonly placed: boolean
}

/** A short line, as the refusal names it. */
interface Short {
  readonly lineItemId: string
  readonly catalogReference: CatalogReference
  readonly requestedQuantity: number
  readonly availableQuantity: number
}

const refusal = (status: number, code: string, description: string, rule: string, data?: unknown) =>
  new EngineFailure({ status, code, description, ...(data === undefined ? {} : { data }), rule: { kind: "precondition", id: rule } })

/** The buyer of a checkout, as its events name them. */
export const buyerOf = (checkout: StoredCheckout): Caller => ({ ...checkout.owner, tokenId: "" })

/** Places the checkout's order (see the file's comment); refused with the rule that stopped it. */
export const placeOrder = (services: PlaceOrderServices, checkoutId: string): Effect.Effect<Placed, Reject> =>
  services.catalog.commit((catalogEmit): Placed => {
    const { checkouts, products, orders } = services
    const checkout = checkouts.find(checkoutId)
    if (checkout === undefined) throw refusal(404, CheckoutCodes.checkoutNotFound, `Checkout ${checkoutId} was not found`, "ecom.checkout.exists")
    if (checkout.completed) {
      if (checkout.orderId !== undefined) return { orderId: checkout.orderId, placed: false }
      throw refusal(400, CheckoutCodes.alreadyCompleted, `Checkout ${checkoutId} was completed without an order`, "ecom.checkout.completed-once")
    }
    if (checkout.lines.length === 0) throw refusal(400, CheckoutCodes.emptyCheckout, "A checkout needs at least one line item", "ecom.checkout.lines")
    const email = checkout.details.email
    if (email === undefined || email === "") {
      throw refusal(400, CheckoutCodes.buyerEmailRequired, "The buyer's email is needed to place the order", "ecom.checkout.buyer-email")
    }
    const actor = buyerOf(checkout)
    const priced = checkouts.priced(checkout)

    // one variant in several lines counts once, with their quantities summed
    const wanted = new Map<string, { productId: string; variantId: string | undefined; quantity: number; available: number | undefined; lines: Array<{ id: string; reference: CatalogReference; quantity: number }> }>()
    for (const line of priced.lines) {
      const item = line.item
      if (!item.found) {
        throw refusal(404, CheckoutCodes.itemNotFoundInCatalog, `Line ${line.id}: ${item.reason}`, "ecom.checkout.item-for-sale", { lineItemId: line.id, catalogReference: line.reference })
      }
      const key = `${item.productId}/${item.variantId ?? ""}`
      const entry = wanted.get(key) ?? { productId: item.productId, variantId: item.variantId, quantity: 0, available: item.available, lines: [] }
      entry.quantity += line.quantity
      entry.lines.push({ id: line.id, reference: line.reference as CatalogReference, quantity: line.quantity })
      wanted.set(key, entry)
    }
    const short: Array<Short> = []
    for (const w of wanted.values()) {
      if (w.available !== undefined && w.quantity > w.available) {
        for (const l of w.lines) short.push({ lineItemId: l.id, catalogReference: l.reference, requestedQuantity: w.quantity, availableQuantity: w.available })
      }
    }
    if (short.length > 0) {
      throw refusal(
        428,
        CheckoutCodes.insufficientInventory,
        `Not enough in stock: ${short.map((s) => `line ${s.lineItemId} (${s.catalogReference.catalogItemId}) asks for ${s.requestedQuantity}, ${s.availableQuantity} left`).join("; ")}`,
        "ecom.checkout.inventory",
        { invalidItems: short.map((s) => ({ id: { lineItemId: s.lineItemId, catalogReference: s.catalogReference }, requestedQuantity: s.requestedQuantity, availableQuantity: s.availableQuantity })) }
      )
    }
    for (const w of wanted.values()) {
      if (w.variantId !== undefined && tracksInventory(products, w.productId)) takeStock(products, w.productId, w.variantId, w.quantity, actor, catalogEmit)
    }

    const { details, owner } = checkout
    const contact = details.shippingDestination ?? details.billingInfo
    const order = orders.placeOrder({
      lineItems: priced.lines.flatMap((line) => {
        const item = line.item
        if (!item.found) return []
        return [{
          productName: item.name,
          catalogItemId: line.reference.catalogItemId,
          appId: line.reference.appId,
          ...(line.reference.options === undefined || line.reference.options === null ? {} : { options: line.reference.options }),
          quantity: line.quantity,
          price: item.fullPrice,
          discount: Math.round((item.fullPrice - item.price) * line.quantity * 100) / 100,
          sku: item.sku,
          shippable: item.physical
        }]
      }),
      buyerInfo: { ...(owner.kind === "member" ? { memberId: owner.id } : { visitorId: owner.id }), email },
      currency: priced.currency,
      shipping: priced.totals.shipping,
      paymentStatus: "PAID",
      ...(contact === undefined ? {} : { billingInfo: details.billingInfo ?? contact }),
      ...(details.buyerNote === undefined ? {} : { buyerNote: details.buyerNote }),
      checkoutId: checkout.id
    }, actor)
    checkouts.complete(checkout.id, order.id!, actor)
    // the cart is never abandoned now (and, abandoned already, is recovered), then emptied
    if (checkout.cartId !== undefined) services.carts.completed(checkout.cartId, order.id!, actor)
    emptyCart(services.carts, checkout, actor)
    return { orderId: order.id!, placed: true }
  })

/**
 * Records the buyer's email, once the checkout has one, on the cart the checkout came from, so a cart
 * left unpaid becomes an abandoned cart the store can remind its buyer of. A cart gone already (emptied
 * by the buyer) has nothing to record.
 */
export const rememberBuyer = (carts: CartStoreShape, checkout: StoredCheckout): void => {
  const email = checkout.details.email
  if (checkout.cartId === undefined || email === undefined) return
  try {
    carts.setBuyerEmail(checkout.cartId, email)
  } catch (error) {
    if (!(error instanceof EngineFailure && error.status === 404)) throw error
  }
}

/**
 * Deletes the cart the checkout came from, when the buyer's current cart is still that one, in the
 * caller's transaction (CartStore's writes join it). (A candidate for CartStore: marking a cart
 * checked out.)
 */
const emptyCart = (carts: CartStoreShape, checkout: StoredCheckout, actor: Caller): void => {
  if (checkout.cartId === undefined) return
  const owner = { kind: checkout.owner.kind, id: checkout.owner.id }
  if (carts.current(owner)?.cart.id !== checkout.cartId) return
  // the cart's writes are synchronous: its Effect runs to its end here, inside this transaction
  Effect.runSyncExit(carts.delete(owner, actor))
}
