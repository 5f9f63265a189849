/**
 * The site's abandoned carts, on node:sqlite. Each cart is kept as its wire document (what the admin
 * calls return and the data filter language runs over) beside what only its events carry (creation
 * time, item count, coupon, totals as numbers, checkout URL). Carts come from shoppers: a module whose
 * carts are abandoned with time (ecom's current carts) abandons the due ones on its own as the clock
 * moves, and registers with {@link AbandonedCartStoreShape.beforeRead} how, so that every read catches
 * up first and never misses a cart due by then; the dev endpoints add carts and
 * mark them recovered, each change committed on the catalog's engine with its v1 event; the demo seed
 * adds its carts without events.
 */
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import { randomUUID } from "node:crypto"
import { CartCodes, CartEventTypes } from "../../../catalog/protocol.ts"
import type { AbandonedCart, BuyerInfo, CartAbandonedEvent, CartActivity, CartRecoveredEvent } from "../../../catalog/wire/carts.ts"
import type { FilterNode } from "../../../data/FilterTree.ts"
import { failure, legacyEvent } from "../../store/engine.ts"
import type { OffsetPaging, PageRequest } from "../../store/paging.ts"
import { concat, orderBy, sortTerms, type Source, where } from "../../store/sql.ts"
import type { Caller } from "../../platform/Caller.ts"
import type { Reject } from "../../platform/responses.ts"
import { Database, type Row } from "../../platform/Database.ts"
import { CatalogEngine, type Emit } from "../CatalogEngine.ts"

/** What a new abandoned cart is made of; everything but the buyer has a default. */
export interface NewCart {
  readonly id?: string | undefined
  readonly buyerInfo?: BuyerInfo | undefined
  readonly creationTime?: string | undefined
  readonly abandonTime?: string | undefined
  readonly itemsCount?: number | undefined
  readonly couponId?: string | undefined
  readonly currency?: string | undefined
  readonly subtotal?: number | undefined
  readonly total?: number | undefined
  readonly checkoutUrl?: string | undefined
  readonly activities?: ReadonlyArray<CartActivity> | undefined
}

/** A cart as stored: its wire document and the facts its events carry. */
export interface StoredCart {
  readonly cart: AbandonedCart
  readonly creationTime: string
  readonly itemsCount: number
  readonly couponId: string | undefined
  readonly currency: string
  readonly subtotal: number
  readonly total: number
  readonly checkoutUrl: string
  readonly recoveredTime: string | undefined
}

/** A query whose filter a route checked already (its tree), with offset paging. */
export type CartQuery = PageRequest<OffsetPaging, FilterNode | undefined>

/**
 * Synchronous storage code that throws an EngineFailure, run on the catalog's engine: reads with `read`,
 * writes with `commit` (whose `emit` logs their events in their transaction).
 */
export interface AbandonedCartStoreShape {
  readonly get: (id: string) => StoredCart | undefined
  /** The cart, or its 404. */
  readonly require: (id: string) => StoredCart
  readonly query: (query: CartQuery) => { readonly carts: ReadonlyArray<AbandonedCart>; readonly total: number }
  /** Adds an abandoned cart and emits CartAbandonedEvent; 409 when the id is taken. */
  readonly abandon: (input: NewCart, actor: Caller, origin: string, emit: Emit) => StoredCart
  /** Marks a cart recovered and emits CartRecoveredEvent; 404 when unknown, 409 when recovered already. */
  readonly recover: (id: string, recoveredTime: string | undefined, actor: Caller, emit: Emit) => StoredCart
  /**
   * Registers how carts that are due become abandoned carts (they commit on their own module's engine,
   * with CartAbandonedEvent); `catchUp` runs every one registered.
   */
  readonly beforeRead: (abandonDue: (origin: string) => Effect.Effect<void, Reject>) => void
  /**
   * Brings the abandoned carts up to the platform's clock; the admin reads run it first. `origin` is the
   * reader's, for the checkout links of carts that recorded no origin of their own.
   */
  readonly catchUp: (origin: string) => Effect.Effect<void, Reject>
  /** Adds carts without events, keeping any already there (the demo seed). */
  readonly seed: (carts: ReadonlyArray<NewCart & { readonly recoveredTime?: string }>, origin: string) => void
}

const SOURCE: Source = { column: "doc" }

/** The total with its currency's symbol, as the platform shows it (`$45.00`). */
export const formatMoney = (amount: number, currency: string): string =>
  new Intl.NumberFormat("en-US", { style: "currency", currency }).format(amount)

/** True when Intl knows `currency` (a three-letter ISO 4217 code). */
export const isCurrency = (currency: string): boolean => {
  if (!/^[A-Z]{3}$/.test(currency)) return false
  try {
    formatMoney(0, currency)
    return true
  } catch {
    return false
  }
}

const notFoundCart = (id: string) => failure(404, CartCodes.notFound, `Abandoned cart ${id} was not found`)

export class AbandonedCartStore extends Context.Service<AbandonedCartStore, AbandonedCartStoreShape>()("sitefx/server/catalog/AbandonedCartStore") {
  static readonly layer: Layer.Layer<AbandonedCartStore, never, Database | CatalogEngine> = Layer.effect(
    AbandonedCartStore,
    Effect.gen(function*() {
      const db = yield* Database
      const engine = yield* CatalogEngine
      db.migrate(
        "catalog/carts/1",
        `CREATE TABLE catalog_abandoned_carts (
          seq INTEGER PRIMARY KEY AUTOINCREMENT,
          id TEXT NOT NULL UNIQUE,
          doc TEXT NOT NULL,
          facts TEXT NOT NULL
        );`,
        ["catalog-carts/1"]
      )

      const toStored = (row: Row): StoredCart => {
        const facts = JSON.parse(String(row.facts)) as Omit<StoredCart, "cart">
        return { ...facts, cart: JSON.parse(String(row.doc)) as AbandonedCart }
      }

      const get = (id: string): StoredCart | undefined => {
        const row = db.get("SELECT doc, facts FROM catalog_abandoned_carts WHERE id = ?", id)
        return row === undefined ? undefined : toStored(row)
      }

      const write = (stored: StoredCart, insert: boolean): void => {
        const { cart, ...facts } = stored
        if (insert) {
          db.run("INSERT INTO catalog_abandoned_carts (id, doc, facts) VALUES (?, ?, ?)", cart.id!, JSON.stringify(cart), JSON.stringify(facts))
        } else {
          db.run("UPDATE catalog_abandoned_carts SET doc = ?, facts = ? WHERE id = ?", JSON.stringify(cart), JSON.stringify(facts), cart.id!)
        }
      }

      const build = (input: NewCart, origin: string, now: string): StoredCart => {
        const id = input.id ?? randomUUID()
        const currency = input.currency ?? "USD"
        const total = input.total ?? input.subtotal ?? 0
        const abandonTime = input.abandonTime ?? now
        const cart: AbandonedCart = {
          id,
          status: "ABANDONED",
          abandonTime,
          buyerInfo: input.buyerInfo ?? { identityType: "VISITOR" },
          total: formatMoney(total, currency),
          activities: input.activities ?? []
        }
        return {
          cart,
          creationTime: input.creationTime ?? abandonTime,
          itemsCount: input.itemsCount ?? 1,
          couponId: input.couponId,
          currency,
          subtotal: input.subtotal ?? total,
          total,
          checkoutUrl: input.checkoutUrl ?? `${origin}/checkout?cartId=${encodeURIComponent(id)}`,
          recoveredTime: undefined
        }
      }

      const abandonedEvent = (s: StoredCart): CartAbandonedEvent => ({
        cartId: s.cart.id!,
        creationTime: s.creationTime,
        abandonTime: s.cart.abandonTime ?? null,
        ...(s.cart.buyerInfo === undefined ? {} : { buyerInfo: s.cart.buyerInfo }),
        itemsCount: s.itemsCount,
        ...(s.couponId === undefined ? {} : { couponId: s.couponId }),
        totals: { subtotal: s.subtotal, total: s.total, formattedTotal: formatMoney(s.total, s.currency) },
        checkoutUrl: s.checkoutUrl
      })

      const recoveredEvent = (s: StoredCart): CartRecoveredEvent => ({
        cartId: s.cart.id!,
        recoveredTime: s.recoveredTime ?? null,
        creationTime: s.creationTime,
        abandonedTime: s.cart.abandonTime ?? null
      })

      const recovered = (s: StoredCart, at: string): StoredCart => ({ ...s, cart: { ...s.cart, status: "RECOVERED" }, recoveredTime: at })

      const require = (id: string): StoredCart => {
        const stored = get(id)
        if (stored === undefined) throw notFoundCart(id)
        return stored
      }

      const sources: Array<(origin: string) => Effect.Effect<void, Reject>> = []

      return AbandonedCartStore.of({
        get,
        require,
        beforeRead: (abandonDue) => void sources.push(abandonDue),
        catchUp: (origin) => Effect.forEach(sources, (abandonDue) => abandonDue(origin), { discard: true }),
        query: (q) => {
          const condition = q.filter === undefined ? { sql: "1", params: [] } : where(q.filter, SOURCE)
          const terms = sortTerms(SOURCE, q.sort)
          const order = terms.length === 0 ? "seq" : `${orderBy(terms)}, seq`
          const page = concat("SELECT doc FROM catalog_abandoned_carts WHERE ", condition, ` ORDER BY ${order} LIMIT ? OFFSET ?`)
          const rows = db.all(page.sql, ...page.params, q.paging.limit, q.paging.offset)
          const counted = concat("SELECT COUNT(*) AS n FROM catalog_abandoned_carts WHERE ", condition)
          const total = Number(db.get(counted.sql, ...counted.params)?.n ?? 0)
          return { carts: rows.map((row) => JSON.parse(String(row.doc)) as AbandonedCart), total }
        },
        abandon: (input, actor, origin, emit) => {
          if (input.id !== undefined && get(input.id) !== undefined) throw failure(409, "ALREADY_EXISTS", `An abandoned cart with id ${input.id} exists already`)
          const made = build(input, origin, engine.now())
          write(made, true)
          emit(legacyEvent(CartEventTypes.abandoned, made.cart.id!, abandonedEvent(made), actor))
          return made
        },
        recover: (id, recoveredTime, actor, emit) => {
          const current = require(id)
          if (current.cart.status === "RECOVERED") throw failure(409, CartCodes.alreadyRecovered, `Abandoned cart ${id} is recovered already`)
          const next = recovered(current, recoveredTime ?? engine.now())
          write(next, false)
          emit(legacyEvent(CartEventTypes.recovered, id, recoveredEvent(next), actor))
          return next
        },
        seed: (carts, origin) =>
          db.transaction(() => {
            for (const input of carts) {
              if (input.id !== undefined && get(input.id) !== undefined) continue
              const made = build(input, origin, input.abandonTime ?? engine.now())
              write(input.recoveredTime === undefined ? made : recovered(made, input.recoveredTime), true)
            }
          })
      })
    })
  )
}


