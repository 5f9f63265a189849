/**
 * The site's orders, on node:sqlite: each order is kept as its wire document (what the admin calls
 * return and the data filter language runs over), with its sequential number and its fulfillments
 * beside it. Every change commits on the ecom engine (EcomEngine): one transaction that also logs the
 * order's events (created, approved, updated, canceled, payment status updated, fulfilled), so an
 * acknowledged change has its events in the site's event log and a rolled-back one has none; a refusal
 * is an EngineFailure the storage code throws. Searches page with the store's cursor paging.
 *
 * {@link OrderStoreShape.placeOrder} is how orders come to be: the demo seed and the dev endpoint call
 * it, and a checkout calls it inside its own transaction (with the inventory it takes), so the order,
 * its number and its events commit or roll back with the rest.
 */
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import type { Sorting } from "../../../http/wire.ts"
import {
  DEFAULT_ORDERS_PAGE,
  FIRST_ORDER_NUMBER,
  type FulfillmentStatus,
  type OrderActivityType,
  MAX_ORDER_SORT,
  MAX_ORDERS_PAGE,
  ORDER_ENTITY,
  OrderCodes,
  OrderEventTypes,
  type OrderStatus,
  type PaymentStatus
} from "../../../ecom/orderProtocol.ts"
import type { BuyerInfo, Fulfillment, Order, OrderLineItem } from "../../../ecom/wire/orders.ts"
import { cursorPage, type CursorTable } from "../../store/cursorPaging.ts"
import type { LoggedEvent } from "../../store/domainLog.ts"
import { failure, type Emit } from "../../store/engine.ts"
import { EngineFailure } from "../../store/engineFailures.ts"
import type { CursorPaging, PageRequest } from "../../store/paging.ts"
import type { Fragment, SortTerm } from "../../store/sql.ts"
import { isObject } from "../../store/values.ts"
import type { Caller } from "../../platform/Caller.ts"
import { Database, type Row } from "../../platform/Database.ts"
import type { Reject } from "../../platform/responses.ts"
import { EcomEngine } from "../EcomEngine.ts"

/** One line of a new order: the item, how many, and its unit price (tax and discount default to none). */
export interface NewLine {
  readonly id?: string | undefined
  readonly productName: string
  readonly catalogItemId: string
  /** The app whose catalog holds the item (the store's by default). */
  readonly appId?: string | undefined
  readonly options?: Readonly<Record<string, unknown>> | undefined
  readonly quantity: number
  readonly price: number
  readonly discount?: number | undefined
  readonly tax?: number | undefined
  readonly sku?: string | undefined
  readonly shippable?: boolean | undefined
}

/** What a placed order is made of; everything but its lines and buyer has a default. */
export interface NewOrder {
  readonly id?: string | undefined
  readonly lineItems: ReadonlyArray<NewLine>
  readonly buyerInfo: BuyerInfo
  readonly currency?: string | undefined
  readonly shipping?: number | undefined
  /** APPROVED unless PENDING (a payment under way). */
  readonly status?: "APPROVED" | "PENDING" | undefined
  readonly paymentStatus?: "NOT_PAID" | "PAID" | "PENDING" | undefined
  readonly billingInfo?: Order["billingInfo"] | undefined
  readonly buyerNote?: string | undefined
  readonly checkoutId?: string | undefined
  /** When it was bought (now by default): the seed's orders have times of their own. */
  readonly purchasedDate?: string | undefined
}

/** A search as the route read it: the filter unchecked, cursor paging. */
export type OrderSearch = PageRequest<CursorPaging>

export interface OrderPage {
  readonly orders: ReadonlyArray<Order>
  readonly next: string | undefined
  readonly prev: string | undefined
}

export interface NewFulfillment {
  readonly lineItems?: ReadonlyArray<{ readonly id?: string | undefined; readonly quantity?: number | null | undefined }> | undefined
  readonly trackingInfo?: Fulfillment["trackingInfo"] | undefined
  readonly status?: string | null | undefined
  readonly completed?: boolean | null | undefined
}

/** An order of the demo seed: placed, then maybe fulfilled whole or canceled. */
export interface SeedOrder extends NewOrder {
  readonly fulfilled?: boolean | undefined
  readonly canceled?: boolean | undefined
}

export interface CancelOptions {
  readonly restockAllItems?: boolean | undefined
  readonly sendOrderCanceledEmail?: boolean | undefined
  readonly customMessage?: string | null | undefined
}

export interface OrderStoreShape {
  readonly get: (id: string) => Order | undefined
  /** One page of orders; refused for a filter, sort, limit or cursor it cannot run. */
  readonly search: (search: OrderSearch) => Effect.Effect<OrderPage, Reject>
  /**
   * Writes a new order with the next number and logs `order_created`, `order_approved` (an approved
   * order) and `order_payment_status_updated` (a paid one) with it, in the caller's transaction when
   * there is one (a checkout's), in its own otherwise. Synchronous storage code on the ecom engine
   * (`write`), so a checkout can call it inside `db.transaction`.
   */
  readonly placeOrder: (input: NewOrder, actor: Caller) => Order
  /**
   * Cancels an order and logs `order_updated` and `order_canceled` (with the options given); throws the
   * refusal of an order canceled, pending or rejected. Synchronous storage code on the ecom engine
   * (`write`), so a restocking cancel (cancelOrder.ts) runs it in the transaction that gives the stock back.
   */
  readonly cancel: (id: string, options: CancelOptions, actor: Caller) => Order
  readonly markAsPaid: (id: string, actor: Caller) => Effect.Effect<Order, Reject>
  readonly fulfillments: (orderId: string) => ReadonlyArray<Fulfillment> | undefined
  readonly createFulfillment: (
    orderId: string,
    fulfillment: NewFulfillment,
    actor: Caller
  ) => Effect.Effect<{ readonly fulfillmentId: string; readonly fulfillments: ReadonlyArray<Fulfillment> }, Reject>
  /** The orders of the demo seed, placed without events, when there are no orders yet. */
  readonly seed: (orders: ReadonlyArray<SeedOrder>) => void
}

/** The store's own app, as an order's catalog references name it. */
export const STORES_APP_ID = "215238eb-22a5-4c36-9e7b-e7c08025e04e"

const SOURCE = { column: "doc" } as const
const TIE: SortTerm = { expr: "seq", desc: true }
const DEFAULT_SORT: ReadonlyArray<Sorting> = [{ fieldName: "createdDate", order: "DESC" }]

const invalidCursor = () =>
  new EngineFailure({
    status: 400,
    code: OrderCodes.invalidCursor,
    description: "The cursor is not one this search handed out",
    rule: { kind: "validation", id: "ecom.orders.cursor", fields: ["search.cursorPaging.cursor"] }
  })

/** Whether a filter names `status` anywhere (then it chooses which statuses it wants). */
const mentionsStatus = (filter: unknown): boolean => {
  if (Array.isArray(filter)) return filter.some(mentionsStatus)
  if (!isObject(filter)) return false
  return Object.entries(filter).some(([k, v]) => k === "status" || mentionsStatus(v))
}

/**
 * The statuses a search leaves out: never INITIALIZED, and PENDING and REJECTED unless the filter names
 * a status, as the platform's search does.
 */
const statusGuard = (filter: unknown): Fragment =>
  mentionsStatus(filter)
    ? { sql: "status <> 'INITIALIZED'", params: [] }
    : { sql: "status NOT IN ('INITIALIZED', 'PENDING', 'REJECTED')", params: [] }

/** The orders as the store's cursor paging runs over them: newest first unless the search sorts. */
const PAGED: CursorTable = {
  table: "ecom_orders",
  tag: "orders",
  source: SOURCE,
  tie: TIE,
  at: "search",
  noun: "orders",
  bounds: { defaultLimit: DEFAULT_ORDERS_PAGE, maxLimit: MAX_ORDERS_PAGE },
  invalidCursor,
  defaultSort: DEFAULT_SORT,
  maxSort: MAX_ORDER_SORT,
  guard: statusGuard
}

const money = (amount: number, currency: string) => ({
  amount: (Math.round(amount * 100) / 100).toFixed(2).replace(/\.00$/, "").replace(/(\.\d)0$/, "$1"),
  formattedAmount: new Intl.NumberFormat("en-US", { style: "currency", currency }).format(amount)
})

const amountOf = (price: { readonly amount?: string } | undefined): number => Number(price?.amount ?? 0)

/** How far each line is fulfilled, from the fulfillments so far. */
const fulfilledQuantities = (fulfillments: ReadonlyArray<Fulfillment>): Map<string, number> => {
  const done = new Map<string, number>()
  for (const f of fulfillments) for (const l of f.lineItems ?? []) done.set(l.id ?? "", (done.get(l.id ?? "") ?? 0) + (l.quantity ?? 0))
  return done
}

const fulfillmentStatusOf = (lines: ReadonlyArray<OrderLineItem>, fulfillments: ReadonlyArray<Fulfillment>): FulfillmentStatus => {
  const done = fulfilledQuantities(fulfillments)
  const total = lines.reduce((n, l) => n + (l.quantity ?? 0), 0)
  const fulfilled = lines.reduce((n, l) => n + Math.min(done.get(l.id ?? "") ?? 0, l.quantity ?? 0), 0)
  return fulfilled === 0 ? "NOT_FULFILLED" : fulfilled >= total ? "FULFILLED" : "PARTIALLY_FULFILLED"
}

export class OrderStore extends Context.Service<OrderStore, OrderStoreShape>()("sitefx/server/ecom/OrderStore") {
  static readonly layer: Layer.Layer<OrderStore, never, Database | EcomEngine> = Layer.effect(
    OrderStore,
    Effect.gen(function*() {
      const db = yield* Database
      const engine = yield* EcomEngine
      db.migrate(
        "ecom-orders/1",
        `CREATE TABLE ecom_orders (
          seq INTEGER PRIMARY KEY AUTOINCREMENT,
          id TEXT NOT NULL UNIQUE,
          number INTEGER NOT NULL UNIQUE,
          status TEXT NOT NULL,
          doc TEXT NOT NULL,
          fulfillments TEXT NOT NULL DEFAULT '[]'
        );`
      )
      const parse = (row: Row | undefined): Order | undefined => (row === undefined ? undefined : (JSON.parse(String(row["doc"])) as Order))
      const get = (id: string): Order | undefined => parse(db.get("SELECT doc FROM ecom_orders WHERE id = ?", id))
      const fulfillmentsOf = (id: string): ReadonlyArray<Fulfillment> | undefined => {
        const row = db.get("SELECT fulfillments FROM ecom_orders WHERE id = ?", id)
        return row === undefined ? undefined : (JSON.parse(String(row["fulfillments"])) as ReadonlyArray<Fulfillment>)
      }
      const save = (order: Order) => db.run("UPDATE ecom_orders SET doc = ?, status = ? WHERE id = ?", JSON.stringify(order), order.status ?? "APPROVED", order.id!)

      const now = engine.now
      const activity = (type: OrderActivityType, at: string) => ({ id: engine.newId(), createdDate: at, type })

      const created = (o: Order, actor: Caller): LoggedEvent => ({
        _tag: "Domain",
        type: OrderEventTypes.created,
        entityFqdn: ORDER_ENTITY,
        entityId: o.id!,
        change: { kind: "created", entity: o as Record<string, unknown> },
        actor
      })
      const updated = (o: Order, modifiedFields: ReadonlyArray<string>, actor: Caller): LoggedEvent => ({
        _tag: "Domain",
        type: OrderEventTypes.updated,
        entityFqdn: ORDER_ENTITY,
        entityId: o.id!,
        change: { kind: "updated", entity: o as Record<string, unknown>, modifiedFields },
        actor
      })
      const action = (type: string, o: Order, body: Record<string, unknown>, actor: Caller): LoggedEvent => ({
        _tag: "Domain",
        type,
        entityFqdn: ORDER_ENTITY,
        entityId: o.id!,
        change: { kind: "action", body },
        actor
      })

      const build = (input: NewOrder, number: number, at: string): Order => {
        const currency = input.currency ?? "USD"
        const lines: Array<OrderLineItem> = input.lineItems.map((l) => {
          const gross = l.price * l.quantity
          const discount = l.discount ?? 0
          const tax = l.tax ?? 0
          return {
            id: l.id ?? engine.newId(),
            productName: { original: l.productName },
            catalogReference: { catalogItemId: l.catalogItemId, appId: l.appId ?? STORES_APP_ID, ...(l.options === undefined ? {} : { options: { ...l.options } }) },
            quantity: l.quantity,
            price: money(l.price, currency),
            totalDiscount: money(discount, currency),
            totalPriceBeforeTax: money(gross - discount, currency),
            totalPriceAfterTax: money(gross - discount + tax, currency),
            itemType: { preset: l.shippable === false ? "DIGITAL" : "PHYSICAL" },
            physicalProperties: { ...(l.sku === undefined ? {} : { sku: l.sku }), shippable: l.shippable ?? true }
          }
        })
        const subtotal = input.lineItems.reduce((n, l) => n + l.price * l.quantity, 0)
        const discount = input.lineItems.reduce((n, l) => n + (l.discount ?? 0), 0)
        const tax = input.lineItems.reduce((n, l) => n + (l.tax ?? 0), 0)
        const shipping = input.shipping ?? 0
        const total = subtotal - discount + tax + shipping
        const paid = input.paymentStatus === "PAID"
        const buyer = input.buyerInfo
        return {
          id: input.id ?? engine.newId(),
          number: String(number),
          createdDate: at,
          updatedDate: at,
          purchasedDate: input.purchasedDate ?? at,
          lineItems: lines,
          buyerInfo: buyer,
          paymentStatus: input.paymentStatus ?? "NOT_PAID",
          fulfillmentStatus: "NOT_FULFILLED",
          status: input.status ?? "APPROVED",
          currency,
          weightUnit: "KG",
          taxIncludedInPrices: false,
          priceSummary: {
            subtotal: money(subtotal, currency),
            shipping: money(shipping, currency),
            tax: money(tax, currency),
            discount: money(discount, currency),
            total: money(total, currency)
          },
          ...(input.billingInfo === undefined ? {} : { billingInfo: input.billingInfo }),
          ...(input.buyerNote === undefined ? {} : { buyerNote: input.buyerNote }),
          archived: false,
          activities: [activity("ORDER_PLACED", at), ...(paid ? [activity("ORDER_PAID", at)] : [])],
          channelInfo: { type: "WEB" },
          createdBy: buyer.memberId !== undefined ? { memberId: buyer.memberId } : buyer.visitorId !== undefined ? { visitorId: buyer.visitorId } : {},
          seenByAHuman: false,
          ...(input.checkoutId === undefined ? {} : { checkoutId: input.checkoutId }),
          balanceSummary: { balance: money(paid ? 0 : total, currency), paid: money(paid ? total : 0, currency) }
        }
      }

      const insert = (input: NewOrder, created: string): Order => {
        const last = db.get("SELECT MAX(number) AS n FROM ecom_orders")?.["n"]
        const number = typeof last === "number" || typeof last === "bigint" ? Number(last) + 1 : FIRST_ORDER_NUMBER
        const order = build(input, number, created)
        db.run("INSERT INTO ecom_orders (id, number, status, doc) VALUES (?, ?, ?, ?)", order.id!, number, order.status!, JSON.stringify(order))
        return order
      }

      const placeOrder = (input: NewOrder, actor: Caller): Order =>
        engine.write((emit) => {
          const order = insert(input, now())
          emit(created(order, actor))
          if (order.status === "APPROVED") emit(action(OrderEventTypes.approved, order, { order }, actor))
          if (order.paymentStatus !== "NOT_PAID") {
            emit(action(OrderEventTypes.paymentStatusUpdated, order, { order, previousPaymentStatus: "NOT_PAID" satisfies PaymentStatus }, actor))
          }
          return order
        })

      const missing = (id: string) => failure(404, OrderCodes.notFound, `Order ${id} was not found`)
      const refused = (code: string, description: string, id: string) =>
        new EngineFailure({ status: 400, code, description, rule: { kind: "precondition", id } })
      const badLine = (code: string, description: string, id: string, field: string) =>
        new EngineFailure({ status: 400, code, description, rule: { kind: "validation", id, fields: [field] } })

      /** A change of one order, committed on the engine: `f` throws what is wrong with it, or gives it changed. */
      const change = <A>(id: string, f: (order: Order, emit: Emit) => A): Effect.Effect<A, Reject> =>
        engine.commit((emit) => {
          const order = get(id)
          if (order === undefined) throw missing(id)
          return f(order, emit)
        })

      const search = (request: OrderSearch): Effect.Effect<OrderPage, Reject> =>
        engine.read(() => {
          const page = cursorPage(db, PAGED, request)
          return { orders: page.items as ReadonlyArray<Order>, next: page.next, prev: page.prev }
        })

      return OrderStore.of({
        get,
        search,
        placeOrder,
        cancel: (id, options, actor) =>
          engine.write((emit) => {
            const order = get(id)
            if (order === undefined) throw missing(id)
            if (order.status === "CANCELED") throw refused(OrderCodes.alreadyCanceled, `Order ${id} is canceled already`, "ecom.order.canceled-once")
            if (order.status === "PENDING") throw refused(OrderCodes.isPending, `Order ${id} waits for its payment and cannot be canceled`, "ecom.order.cancel-pending")
            if (order.status === "REJECTED") throw refused(OrderCodes.isRejected, `Order ${id} was rejected and cannot be canceled`, "ecom.order.cancel-rejected")
            const at = now()
            const next: Order = { ...order, status: "CANCELED" satisfies OrderStatus, updatedDate: at, activities: [...(order.activities ?? []), activity("ORDER_CANCELED", at)] }
            save(next)
            emit(updated(next, ["status", "activities"], actor))
            emit(action(OrderEventTypes.canceled, next, {
              order: next,
              restockAllItems: options.restockAllItems ?? false,
              sendOrderCanceledEmail: options.sendOrderCanceledEmail ?? false,
              ...(options.customMessage === undefined || options.customMessage === null ? {} : { customMessage: options.customMessage })
            }, actor))
            return next
          }),
        markAsPaid: (id, actor) =>
          change(id, (order, emit) => {
            if (order.paymentStatus === "PAID") throw refused(OrderCodes.alreadyPaid, `Order ${id} is paid already`, "ecom.order.paid-once")
            if (order.status === "CANCELED") throw refused(OrderCodes.isCanceled, `Order ${id} is canceled`, "ecom.order.pay-canceled")
            const at = now()
            const currency = order.currency ?? "USD"
            const total = amountOf(order.priceSummary?.total)
            const previous = order.paymentStatus ?? "NOT_PAID"
            const approving = order.status === "PENDING"
            const next: Order = {
              ...order,
              paymentStatus: "PAID",
              ...(approving ? { status: "APPROVED" as const } : {}),
              updatedDate: at,
              balanceSummary: { balance: money(0, currency), paid: money(total, currency) },
              activities: [...(order.activities ?? []), activity("ORDER_PAID", at)]
            }
            save(next)
            emit(updated(next, ["paymentStatus", "balanceSummary", "activities", ...(approving ? ["status"] : [])], actor))
            emit(action(OrderEventTypes.paymentStatusUpdated, next, { order: next, previousPaymentStatus: previous }, actor))
            if (approving) emit(action(OrderEventTypes.approved, next, { order: next }, actor))
            return next
          }),
        fulfillments: fulfillmentsOf,
        createFulfillment: (orderId, input, actor) =>
          change(orderId, (order, emit) => {
            if (order.status === "CANCELED") throw refused(OrderCodes.isCanceled, `Order ${orderId} is canceled`, "ecom.order.fulfil-canceled")
            const lines = order.lineItems ?? []
            const before = fulfillmentsOf(orderId) ?? []
            const done = fulfilledQuantities(before)
            const left = (l: OrderLineItem) => (l.quantity ?? 0) - (done.get(l.id ?? "") ?? 0)
            const trackingNumber = input.trackingInfo?.trackingNumber
            if (trackingNumber != null && trackingNumber !== "" && before.some((f) => f.trackingInfo?.trackingNumber === trackingNumber)) {
              throw refused(OrderCodes.trackingNumberExists, `Tracking number ${trackingNumber} is another fulfillment's of order ${orderId}`, "ecom.fulfillment.tracking-number-unique")
            }
            // no lines named: the whole of what is left
            const asked = input.lineItems === undefined || input.lineItems.length === 0
              ? lines.filter((l) => left(l) > 0).map((l) => ({ id: l.id!, quantity: left(l) }))
              : input.lineItems.map((l) => ({ id: l.id ?? "", quantity: l.quantity ?? lines.find((x) => x.id === l.id)?.quantity ?? 0 }))
            for (const [i, a] of asked.entries()) {
              const line = lines.find((l) => l.id === a.id)
              if (line === undefined) throw badLine(OrderCodes.lineItemNotFound, `Order ${orderId} has no line item ${a.id}`, "ecom.fulfillment.line-item", `fulfillment.lineItems[${i}].id`)
              if (!Number.isInteger(a.quantity) || a.quantity < 1 || a.quantity > left(line)) {
                throw badLine(OrderCodes.nothingToFulfill, `Line item ${a.id} of order ${orderId} has ${left(line)} left to fulfil, not ${a.quantity}`, "ecom.fulfillment.quantity", `fulfillment.lineItems[${i}].quantity`)
              }
            }
            if (asked.length === 0) throw refused(OrderCodes.nothingToFulfill, `Every item of order ${orderId} is fulfilled already`, "ecom.fulfillment.nothing-left")
            const at = now()
            const fulfillment: Fulfillment = {
              id: engine.newId(),
              createdDate: at,
              lineItems: asked,
              ...(input.trackingInfo === undefined ? {} : { trackingInfo: input.trackingInfo }),
              ...(input.status === undefined || input.status === null ? {} : { status: input.status }),
              completed: input.completed ?? false
            }
            const fulfillments = [...before, fulfillment]
            const status = fulfillmentStatusOf(lines, fulfillments)
            const next: Order = {
              ...order,
              fulfillmentStatus: status,
              updatedDate: at,
              activities: [
                ...(order.activities ?? []),
                ...(status === "FULFILLED" ? [activity("ORDER_FULFILLED", at)] : []),
                ...(trackingNumber != null && trackingNumber !== "" ? [activity("TRACKING_NUMBER_ADDED", at)] : [])
              ]
            }
            save(next)
            db.run("UPDATE ecom_orders SET fulfillments = ? WHERE id = ?", JSON.stringify(fulfillments), orderId)
            if (next.fulfillmentStatus !== order.fulfillmentStatus) emit(updated(next, ["fulfillmentStatus", "activities"], actor))
            if (status === "FULFILLED") emit(action(OrderEventTypes.fulfilled, next, { order: next }, actor))
            return { fulfillmentId: fulfillment.id!, fulfillments }
          }),
        seed: (orders) =>
          db.transaction(() => {
            if (db.get("SELECT 1 AS one FROM ecom_orders LIMIT 1") !== undefined) return
            for (const input of orders) {
              const at = input.purchasedDate ?? now()
              const order = insert(input, at)
              if (input.canceled === true) {
                save({ ...order, status: "CANCELED", activities: [...(order.activities ?? []), activity("ORDER_CANCELED", at)] })
              } else if (input.fulfilled === true) {
                const lineItems = (order.lineItems ?? []).map((l) => ({ id: l.id!, quantity: l.quantity ?? 0 }))
                save({ ...order, fulfillmentStatus: "FULFILLED", activities: [...(order.activities ?? []), activity("ORDER_FULFILLED", at)] })
                db.run("UPDATE ecom_orders SET fulfillments = ? WHERE id = ?", JSON.stringify([{ id: engine.newId(), createdDate: at, lineItems, completed: true }]), order.id!)
              }
            }
          })
      })
    })
  )
}
