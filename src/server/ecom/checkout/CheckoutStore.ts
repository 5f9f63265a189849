/**
 * The store's checkouts: a checkout per purchase under way, in `ecom_checkouts`, made from the
 * shopper's current cart (the id Cart V1's `create-checkout` hands out) or from lines given to
 * `POST /ecom/v1/checkouts`. A checkout keeps its lines (catalog references and quantities, copied
 * from the cart when it was made), the buyer's email, the billing and shipping addresses and the
 * buyer's note; prices are never stored: every answer prices the lines from the catalog as it is, and
 * adds the platform's one flat shipping rate ({@link FLAT_SHIPPING_RATE}) when something ships. Once
 * its order is placed (placeOrder.ts) the checkout is completed and keeps the order's id.
 *
 * Storage code is synchronous and throws an EngineFailure; writes log `checkout_created`,
 * `checkout_updated` and `checkout_completed` in their transaction through EcomEngine.
 */
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import { randomUUID } from "node:crypto"
import {
  CHECKOUT_FQDN,
  CheckoutCodes,
  CheckoutEventTypes,
  type ChannelType,
  FLAT_SHIPPING_RATE,
  FLAT_SHIPPING_TITLE
} from "../../../ecom/checkoutProtocol.ts"
import { MAX_CART_LINE_ITEMS, MAX_LINE_ITEM_QUANTITY } from "../../../ecom/protocol.ts"
import type { CatalogReference, MultiCurrencyPrice } from "../../../ecom/wire/carts.ts"
import type { Checkout, CheckoutUpdate } from "../../../ecom/wire/checkouts.ts"
import type { AddressWithContact as AddressWire } from "../../../ecom/wire/orders.ts"

type AddressWithContact = typeof AddressWire.Type
import { ProductStore } from "../../catalog/products/ProductStore.ts"
import type { Caller } from "../../platform/Caller.ts"
import { Database, type Row } from "../../platform/Database.ts"
import { isoDate, ServerClock } from "../../platform/ServerClock.ts"
import type { LoggedEvent } from "../../store/domainLog.ts"
import { EngineFailure } from "../../store/engineFailures.ts"
import { EcomEngine } from "../EcomEngine.ts"
import { amountText, type CatalogItem, cartTotals, formatAmount } from "../carts/pricing.ts"
import { catalogItem, lineV1, type PricedCart, type StoredLine } from "../carts/views.ts"

/** Whose checkout: the visitor or member whose session made it. */
export interface CheckoutOwner {
  readonly kind: "visitor" | "member"
  readonly id: string
  /** The OAuth client of that session. */
  readonly clientId: string
}

/** What the buyer fills in before paying. */
export interface CheckoutDetails {
  readonly email?: string | undefined
  readonly billingInfo?: AddressWithContact | undefined
  readonly shippingDestination?: AddressWithContact | undefined
  readonly buyerNote?: string | undefined
}

export interface StoredCheckout {
  readonly id: string
  readonly owner: CheckoutOwner
  readonly cartId: string | undefined
  readonly channelType: ChannelType
  readonly lines: ReadonlyArray<StoredLine>
  readonly details: CheckoutDetails
  readonly completed: boolean
  readonly orderId: string | undefined
  readonly createdDate: string
  readonly updatedDate: string
}

/** A checkout with its lines priced from the catalog, its currency and totals. */
export interface PricedCheckout {
  readonly checkout: StoredCheckout
  readonly lines: PricedCart["lines"]
  readonly currency: string
  readonly totals: {
    readonly subtotal: number
    readonly discount: number
    readonly shipping: number
    readonly tax: number
    readonly total: number
  }
  /** Whether anything in it ships (then the flat rate applies). */
  readonly ships: boolean
}

export interface CheckoutStoreShape {
  readonly find: (id: string) => StoredCheckout | undefined
  /** The checkout when `caller` may see it (its owner, or an API key); throws CHECKOUT_NOT_FOUND otherwise. */
  readonly require: (id: string, caller: Caller) => StoredCheckout
  readonly priced: (checkout: StoredCheckout) => PricedCheckout
  /** The checkout as the checkout calls answer it. */
  readonly view: (checkout: StoredCheckout) => Checkout
  /** The order placed from a checkout of the cart, when one was. */
  readonly orderOfCart: (cartId: string) => string | undefined
  /**
   * The checkout of a current cart, under the id the cart handed out; made once, from the cart's lines
   * and with `details` (the buyer's email the cart carries), then the same checkout as it is.
   */
  readonly fromCart: (cart: PricedCart, checkoutId: string, owner: CheckoutOwner, details: CheckoutDetails, actor: Caller) => StoredCheckout
  /** A new checkout of `lines` (each for sale); throws a refusal naming the line that is not. */
  readonly create: (
    owner: CheckoutOwner,
    lines: ReadonlyArray<{ readonly reference: CatalogReference; readonly quantity: number }>,
    channelType: ChannelType,
    details: CheckoutDetails,
    actor: Caller
  ) => StoredCheckout
  /** Changes the buyer's details; a completed checkout changes no more. */
  readonly update: (id: string, details: CheckoutDetails, actor: Caller) => StoredCheckout
  /**
   * Marks the checkout completed (with the order placed from it, when there is one) and logs
   * `checkout_completed`, in the caller's transaction; once only, a second call changes nothing.
   */
  readonly complete: (id: string, orderId: string | undefined, actor: Caller) => StoredCheckout
}

const failure = (status: number, code: string, description: string, data?: unknown) =>
  new EngineFailure({ status, code, description, ...(data === undefined ? {} : { data }) })

export const checkoutNotFound = (id: string) => failure(404, CheckoutCodes.checkoutNotFound, `Checkout ${id} was not found`)

const money = (n: number, currency: string): MultiCurrencyPrice => {
  const amount = amountText(n)
  const formatted = formatAmount(n, currency)
  return { amount, convertedAmount: amount, formattedAmount: formatted, formattedConvertedAmount: formatted }
}

const CHECKOUT_ID = /^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/

export class CheckoutStore extends Context.Service<CheckoutStore, CheckoutStoreShape>()("sitefx/server/ecom/CheckoutStore") {
  static readonly layer: Layer.Layer<CheckoutStore, never, Database | ServerClock | EcomEngine | ProductStore> = Layer.effect(
    CheckoutStore,
    Effect.gen(function*() {
      const db = yield* Database
      const clock = yield* ServerClock
      const events = yield* EcomEngine
      const products = yield* ProductStore
      db.migrate(
        "ecom-checkouts/1",
        `CREATE TABLE ecom_checkouts (
          id TEXT PRIMARY KEY,
          owner_kind TEXT NOT NULL,
          owner_id TEXT NOT NULL,
          client_id TEXT NOT NULL,
          cart_id TEXT,
          channel_type TEXT NOT NULL,
          lines TEXT NOT NULL,
          details TEXT NOT NULL,
          completed INTEGER NOT NULL DEFAULT 0,
          order_id TEXT,
          created_date TEXT NOT NULL,
          updated_date TEXT NOT NULL
        );
        CREATE INDEX ecom_checkouts_cart ON ecom_checkouts (cart_id);`
      )

      const now = () => isoDate(clock.millis())

      const itemOf = (reference: StoredLine["reference"]): CatalogItem => catalogItem(products, reference)

      const toStored = (row: Row): StoredCheckout => ({
        id: String(row.id),
        owner: { kind: row.owner_kind === "member" ? "member" : "visitor", id: String(row.owner_id), clientId: String(row.client_id) },
        cartId: row.cart_id === null ? undefined : String(row.cart_id),
        channelType: String(row.channel_type) as ChannelType,
        lines: JSON.parse(String(row.lines)) as Array<StoredLine>,
        details: JSON.parse(String(row.details)) as CheckoutDetails,
        completed: Number(row.completed) === 1,
        orderId: row.order_id === null ? undefined : String(row.order_id),
        createdDate: String(row.created_date),
        updatedDate: String(row.updated_date)
      })

      const find = (id: string): StoredCheckout | undefined => {
        const row = db.get("SELECT * FROM ecom_checkouts WHERE id = ?", id)
        return row === undefined ? undefined : toStored(row)
      }

      const require = (id: string, caller: Caller): StoredCheckout => {
        const found = find(id)
        if (found === undefined) throw checkoutNotFound(id)
        if (caller.kind === "admin") return found
        if (caller.kind !== "none" && caller.kind === found.owner.kind && caller.id === found.owner.id) return found
        // another shopper's checkout is as good as none
        throw checkoutNotFound(id)
      }

      const priced = (checkout: StoredCheckout): PricedCheckout => {
        const lines = checkout.lines.map((line) => ({ ...line, item: itemOf(line.reference) }))
        const first = lines.find((l) => l.item.found)?.item
        const currency = first !== undefined && first.found ? first.currency : "USD"
        const ships = lines.some((l) => l.item.found && l.item.physical)
        const base = cartTotals(lines)
        const shipping = ships ? FLAT_SHIPPING_RATE : 0
        return {
          checkout,
          lines,
          currency,
          ships,
          totals: { ...base, shipping, total: Math.round((base.total + shipping) * 100) / 100 }
        }
      }

      const view = (checkout: StoredCheckout): Checkout => {
        const p = priced(checkout)
        const { currency, totals } = p
        const { details, owner } = checkout
        const summary = {
          subtotal: money(totals.subtotal, currency),
          shipping: money(totals.shipping, currency),
          tax: money(totals.tax, currency),
          discount: money(totals.discount, currency),
          total: money(totals.total, currency)
        }
        const who = owner.kind === "member" ? { memberId: owner.id } : { visitorId: owner.id }
        return {
          id: checkout.id,
          lineItems: p.lines.map((l) => lineV1(l, currency)),
          ...(details.billingInfo === undefined ? {} : { billingInfo: details.billingInfo }),
          shippingInfo: {
            ...(details.shippingDestination === undefined ? {} : { shippingDestination: details.shippingDestination }),
            ...(p.ships
              ? {
                selectedCarrierServiceOption: {
                  code: "flat-rate",
                  title: FLAT_SHIPPING_TITLE,
                  cost: {
                    price: money(totals.shipping, currency),
                    totalPriceBeforeTax: money(totals.shipping, currency),
                    totalPriceAfterTax: money(totals.shipping, currency)
                  }
                }
              }
              : {})
          },
          ...(details.buyerNote === undefined ? {} : { buyerNote: details.buyerNote }),
          buyerInfo: { ...who, ...(details.email === undefined ? {} : { email: details.email }) },
          conversionCurrency: currency,
          paymentCurrency: currency,
          currency,
          priceSummary: summary,
          payNow: summary,
          appliedDiscounts: [],
          weightUnit: "KG",
          channelType: checkout.channelType,
          completed: checkout.completed,
          taxIncludedInPrice: false,
          createdBy: who,
          createdDate: checkout.createdDate,
          updatedDate: checkout.updatedDate,
          ...(checkout.cartId === undefined ? {} : { cartId: checkout.cartId })
        }
      }

      const domain = (checkout: StoredCheckout, kind: "created" | "updated", actor: Caller): LoggedEvent => {
        const entity = view(checkout) as Record<string, unknown>
        return {
          _tag: "Domain",
          type: kind === "created" ? CheckoutEventTypes.created : CheckoutEventTypes.updated,
          entityFqdn: CHECKOUT_FQDN,
          entityId: checkout.id,
          change: kind === "created" ? { kind, entity } : { kind, entity, modifiedFields: ["buyerInfo", "billingInfo", "shippingInfo", "buyerNote"] },
          actor
        }
      }

      const insert = (
        id: string,
        owner: CheckoutOwner,
        cartId: string | undefined,
        channelType: ChannelType,
        lines: ReadonlyArray<StoredLine>,
        details: CheckoutDetails
      ) => {
        const at = now()
        db.run(
          `INSERT INTO ecom_checkouts (id, owner_kind, owner_id, client_id, cart_id, channel_type, lines, details, created_date, updated_date)
           VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
          id,
          owner.kind,
          owner.id,
          owner.clientId,
          cartId ?? null,
          channelType,
          JSON.stringify(lines),
          JSON.stringify(details),
          at,
          at
        )
        return find(id)!
      }

      const orderOfCart: CheckoutStoreShape["orderOfCart"] = (cartId) => {
        const row = db.get("SELECT order_id FROM ecom_checkouts WHERE cart_id = ? AND order_id IS NOT NULL ORDER BY updated_date DESC LIMIT 1", cartId)
        return row === undefined ? undefined : String(row.order_id)
      }

      const fromCart: CheckoutStoreShape["fromCart"] = (cart, checkoutId, owner, details, actor) =>
        events.write((emit) => {
          const existing = find(checkoutId)
          if (existing !== undefined) return existing
          const lines = cart.cart.lines.map((l) => ({ id: l.id, reference: l.reference, quantity: l.quantity }))
          const created = insert(checkoutId, owner, cart.cart.id, "WEB", lines, details)
          emit(domain(created, "created", actor))
          return created
        })

      const create: CheckoutStoreShape["create"] = (owner, input, channelType, details, actor) => {
        if (input.length === 0) throw failure(400, CheckoutCodes.emptyCheckout, "A checkout needs at least one line item")
        if (input.length > MAX_CART_LINE_ITEMS) {
          throw failure(400, "MAX_LINE_ITEMS_EXCEEDED", `A checkout holds at most ${MAX_CART_LINE_ITEMS} line items`, { maxLineItems: MAX_CART_LINE_ITEMS })
        }
        const lines = input.map((line, i) => {
          if (!Number.isInteger(line.quantity) || line.quantity < 1 || line.quantity > MAX_LINE_ITEM_QUANTITY) {
            const description = `lineItems[${i}].quantity must be a whole number from 1 to ${MAX_LINE_ITEM_QUANTITY}`
            throw new EngineFailure({
              status: 400,
              code: "INVALID_ARGUMENT",
              description,
              violations: [{ field: `lineItems[${i}].quantity`, description, violatedRule: "MIN", data: { min: 1, max: MAX_LINE_ITEM_QUANTITY } }]
            })
          }
          const reference: StoredLine["reference"] = {
            catalogItemId: line.reference.catalogItemId,
            appId: line.reference.appId,
            ...(line.reference.options === undefined || line.reference.options === null ? {} : { options: line.reference.options })
          }
          const item = itemOf(reference)
          if (!item.found) throw failure(404, CheckoutCodes.itemNotFoundInCatalog, item.reason, { catalogReference: reference })
          return { id: randomUUID(), reference, quantity: line.quantity }
        })
        return events.write((emit) => {
          const created = insert(randomUUID(), owner, undefined, channelType, lines, details)
          emit(domain(created, "created", actor))
          return created
        })
      }

      const update: CheckoutStoreShape["update"] = (id, details, actor) =>
        events.write((emit) => {
          const before = find(id)
          if (before === undefined) throw checkoutNotFound(id)
          if (before.completed) throw failure(400, CheckoutCodes.alreadyCompleted, `Checkout ${id} is completed: it changes no more`)
          const merged: CheckoutDetails = { ...before.details, ...Object.fromEntries(Object.entries(details).filter(([, v]) => v !== undefined)) }
          db.run("UPDATE ecom_checkouts SET details = ?, updated_date = ? WHERE id = ?", JSON.stringify(merged), now(), id)
          const after = find(id)!
          emit(domain(after, "updated", actor))
          return after
        })

      const complete: CheckoutStoreShape["complete"] = (id, orderId, actor) =>
        events.write((emit) => {
          const before = find(id)
          if (before === undefined) throw checkoutNotFound(id)
          if (before.completed) return before
          db.run("UPDATE ecom_checkouts SET completed = 1, order_id = ?, updated_date = ? WHERE id = ?", orderId ?? null, now(), id)
          const after = find(id)!
          emit({
            _tag: "Domain",
            type: CheckoutEventTypes.completed,
            entityFqdn: CHECKOUT_FQDN,
            entityId: id,
            change: { kind: "action", body: { checkout: view(after) as Record<string, unknown> } },
            actor
          })
          return after
        })

      return CheckoutStore.of({ find, require, priced, view, orderOfCart, fromCart, create, update, complete })
    })
  )
}

/** Whether `id` can name a checkout (a GUID): anything else is refused before a lookup. */
export const isCheckoutId = (id: string): boolean => CHECKOUT_ID.test(id)

/** A checkout update's fields as the buyer's details (what the wire leaves out stays as it is). */
export const detailsOf = (update: CheckoutUpdate | undefined): CheckoutDetails => ({
  email: update?.buyerInfo?.email ?? undefined,
  billingInfo: update?.billingInfo,
  shippingDestination: update?.shippingInfo?.shippingDestination,
  buyerNote: update?.buyerNote ?? undefined
})
