/**
 * The current carts of the site's shoppers, one storage for both cart generations: a cart per owner
 * (a visitor or a member) in `ecom_carts` and its lines in `ecom_cart_line_items`, each line a catalog
 * reference and a quantity. Prices are never stored: every answer prices the lines from the catalog
 * as it is (a product's discount applies, a product gone from sale shows as such), and stock is
 * checked when a line is added or its quantity raised. A member's cart takes over the carts of the
 * visitors who signed in as them (SignIns), the first time it is asked for after the sign-in.
 *
 * Every write commits on the ecom engine (EcomEngine) and logs the cart's events of both generations
 * (`wix.ecom.v1.cart_*` and `wix.ecom.v2.cart_*`) in its transaction; a refusal is an EngineFailure the
 * storage code throws.
 *
 * A cart with a buyer email (the member's, or the one a checkout records with `setBuyerEmail`), with
 * line items and no order, left unchanged for {@link ABANDONED_AFTER_SECONDS} by the platform's clock,
 * becomes an abandoned cart (catalog/carts, same id) with CartAbandonedEvent, by `abandonDue`: the
 * platform runs it on its own (abandonSweep.ts: when the clock's skew changes, and once a minute) and
 * the abandoned carts' reads catch up first (registered with AbandonedCartStore), so a read never
 * misses a due cart. An order placed for it later (`completed`) makes its abandoned cart RECOVERED with
 * CartRecoveredEvent.
 *
 * The abandoned cart's checkout link is on the origin the shopper last changed the cart through (the
 * `Host` of their request), recorded with the cart: the platform knows no public URL of its own (its
 * options and `sitefx serve` name only the interface it listens on, `0.0.0.0` for every one, which is
 * no address a shopper's link can carry), while the shopper's requests show where they reach it. So the
 * link is the same whether a read or the platform's sweep abandoned the cart.
 */
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import { CART_V1_FQDN, CART_V2_FQDN, CartCodes, CartEventTypes, MAX_CART_LINE_ITEMS, MAX_LINE_ITEM_QUANTITY } from "../../../ecom/protocol.ts"
import type { CatalogReference } from "../../../ecom/wire/carts.ts"
import { MemberStore } from "../../accounts/MemberStore.ts"
import { SignIns } from "../../accounts/SignIns.ts"
import { AbandonedCartStore } from "../../catalog/carts/AbandonedCartStore.ts"
import { ProductStore } from "../../catalog/products/ProductStore.ts"
import type { Caller } from "../../platform/Caller.ts"
import { Database, type Row } from "../../platform/Database.ts"
import type { Reject } from "../../platform/responses.ts"
import { isoDate, ServerClock } from "../../platform/ServerClock.ts"
import type { DomainChange } from "../../store/domainLog.ts"
import { failure, reject } from "../../store/engine.ts"
import { outOfBounds } from "../../store/engineFailures.ts"
import { EcomEngine, type Emit } from "../EcomEngine.ts"
import { cartTotals, type CatalogItem } from "./pricing.ts"
import { cartV1, cartV2, catalogItem, type PricedCart, type StoredCart, type StoredLine } from "./views.ts"

/**
 * Where a shopper's call reached the platform (`http://host:port`, from its `Host`), the origin of the
 * checkout link when their cart is abandoned; undefined for a change made in-process.
 */
export type Origin = string | undefined

/** Whose cart: the session's visitor or member. */
export interface Owner {
  readonly kind: "visitor" | "member"
  readonly id: string
}

/** A line to add: a catalog reference and how many. */
export interface NewLine {
  readonly reference: CatalogReference
  readonly quantity: number
}

/** A cart found by its id (an abandoned cart's checkout link names it): whose it is, and what it holds. */
export interface CartById {
  readonly owner: Owner
  readonly cart: PricedCart
  /** The email to reach its buyer at: the one a checkout recorded, or the member's. */
  readonly email: string | undefined
  /** The order placed for it, when there is one. */
  readonly orderId: string | undefined
}

export interface CartStoreShape {
  /** The owner's current cart, priced; undefined when they have none. */
  readonly current: (owner: Owner) => PricedCart | undefined
  /** The cart with this id, priced; undefined when there is none (never made, ordered and emptied, or deleted). */
  readonly byId: (cartId: string) => CartById | undefined
  /**
   * Adds lines (a reference already in the cart adds to its line), creating the cart when there is
   * none; `create` refuses when there is one. Refused whole when an item is not for sale or the stock
   * is short.
   */
  readonly add: (owner: Owner, lines: ReadonlyArray<NewLine>, actor: Caller, mode: "add" | "create", origin: Origin) => Effect.Effect<PricedCart, Reject>
  /** Sets lines' quantities; a raise is checked against the stock. */
  readonly setQuantities: (
    owner: Owner,
    updates: ReadonlyArray<{ readonly id: string; readonly quantity: number }>,
    actor: Caller,
    origin: Origin
  ) => Effect.Effect<PricedCart, Reject>
  readonly remove: (owner: Owner, lineIds: ReadonlyArray<string>, actor: Caller, origin: Origin) => Effect.Effect<PricedCart, Reject>
  readonly delete: (owner: Owner, actor: Caller) => Effect.Effect<void, Reject>
  /** A checkout id for the cart (the same one until the cart changes); refused for an empty cart. */
  readonly createCheckout: (owner: Owner, actor: Caller) => Effect.Effect<string, Reject>
  /**
   * Records the buyer's email on a cart (a checkout's buyer details): a visitor's cart with one becomes
   * an abandoned cart when it is left unchanged for {@link ABANDONED_AFTER_SECONDS} and never ordered.
   * A member's cart has the member's email without this. Synchronous storage code, in the caller's
   * transaction when there is one; throws an EngineFailure (404) when there is no such cart.
   */
  readonly setBuyerEmail: (cartId: string, email: string) => void
  /**
   * Records that an order was placed for the cart, so it is never abandoned; when it was abandoned
   * already, its abandoned cart becomes RECOVERED and CartRecoveredEvent is logged. Synchronous, in the
   * caller's transaction when there is one (a checkout's, beside `OrderStore.placeOrder`). True when it
   * recovered an abandoned cart.
   */
  readonly completed: (cartId: string, orderId: string, actor: Caller) => boolean
  /**
   * Abandons the carts that are due: a cart with a buyer email, with line items and no order, unchanged
   * for {@link ABANDONED_AFTER_SECONDS} by the platform's clock. Each becomes an abandoned cart (its
   * checkout link on the origin recorded with the cart, or else on `fallback`) with CartAbandonedEvent,
   * once. A due cart with no recorded origin waits for a call that brings one (a read of the abandoned
   * carts) when `fallback` is undefined. Run before the abandoned carts are read, and by the sweep.
   */
  readonly abandonDue: (fallback: Origin) => Effect.Effect<void, Reject>
}

/**
 * How long a cart with a buyer email is left unchanged before it counts as abandoned. Neither the
 * platform's protocol notes nor the official abandoned-carts module name the platform's delay; sitefx
 * takes one hour.
 */
export const ABANDONED_AFTER_SECONDS = 60 * 60

/** The platform's refusals of cart calls. */
const noCart = () => failure(404, CartCodes.ownedCartNotFound, "The caller has no current cart")

/** The caller has no current cart: the route's failure. */
export const ownedCartNotFound = () => reject(noCart())

const lineNotFound = (id: string) => failure(404, CartCodes.lineItemNotFound, `Line item ${id} is not in the cart`)

/** JSON with object keys sorted, so equal references are equal text. */
const canonical = (value: unknown): string =>
  JSON.stringify(value, (_key, v: unknown) =>
    typeof v === "object" && v !== null && !Array.isArray(v)
      ? Object.fromEntries(Object.entries(v as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
      : v)

const referenceOf = (r: CatalogReference): StoredLine["reference"] => ({
  catalogItemId: r.catalogItemId,
  appId: r.appId,
  ...(r.options === undefined || r.options === null ? {} : { options: r.options })
})

const checkQuantity = (quantity: number, field: string): void => {
  if (!Number.isInteger(quantity) || quantity < 1 || quantity > MAX_LINE_ITEM_QUANTITY) {
    throw outOfBounds(field, `${field} must be a whole number from 1 to ${MAX_LINE_ITEM_QUANTITY}`, "MIN", { min: 1, max: MAX_LINE_ITEM_QUANTITY })
  }
}

type Wanted = { readonly reference: StoredLine["reference"]; readonly quantity: number }

const shortStock = (short: ReadonlyArray<{ readonly reference: StoredLine["reference"]; readonly requested: number; readonly available: number }>) =>
  failure(
    428,
    CartCodes.insufficientInventory,
    short.every((s) => s.available === 0)
      ? `Sold out: ${short.map((s) => s.reference.catalogItemId).join(", ")} has none left in stock`
      : `Not enough in stock: ${short.map((s) => `${s.reference.catalogItemId} has ${s.available} left, the cart would hold ${s.requested}`).join("; ")}`,
    { invalidItems: short.map((s) => ({ id: { catalogReference: s.reference }, requestedQuantity: s.requested, availableQuantity: s.available })) }
  )

export class CartStore extends Context.Service<CartStore, CartStoreShape>()("sitefx/server/ecom/CartStore") {
  static readonly layer: Layer.Layer<
    CartStore,
    never,
    Database | ServerClock | EcomEngine | ProductStore | SignIns | MemberStore | AbandonedCartStore
  > = Layer.effect(
    CartStore,
    Effect.gen(function*() {
      const db = yield* Database
      const clock = yield* ServerClock
      const engine = yield* EcomEngine
      const products = yield* ProductStore
      const signIns = yield* SignIns
      const members = yield* MemberStore
      const abandoned = yield* AbandonedCartStore
      db.migrate(
        "ecom-carts/1",
        `CREATE TABLE ecom_carts (
          id TEXT PRIMARY KEY,
          owner_kind TEXT NOT NULL,
          owner_id TEXT NOT NULL,
          created_date TEXT NOT NULL,
          updated_date TEXT NOT NULL,
          revision INTEGER NOT NULL,
          checkout_id TEXT,
          UNIQUE (owner_kind, owner_id)
        );
        CREATE TABLE ecom_cart_line_items (
          id TEXT PRIMARY KEY,
          cart_id TEXT NOT NULL REFERENCES ecom_carts (id) ON DELETE CASCADE,
          seq INTEGER NOT NULL,
          reference_key TEXT NOT NULL,
          reference TEXT NOT NULL,
          quantity INTEGER NOT NULL
        );
        CREATE INDEX ecom_cart_line_items_cart ON ecom_cart_line_items (cart_id, seq);`
      )
      // the buyer's email (a visitor's, from a checkout), the order placed for the cart, and when it was abandoned
      db.migrate(
        "ecom-carts/2",
        `ALTER TABLE ecom_carts ADD COLUMN buyer_email TEXT;
        ALTER TABLE ecom_carts ADD COLUMN order_id TEXT;
        ALTER TABLE ecom_carts ADD COLUMN abandoned_date TEXT;
        CREATE INDEX ecom_carts_open ON ecom_carts (updated_date) WHERE abandoned_date IS NULL AND order_id IS NULL;`
      )
      // where the shopper last changed the cart from: the origin of its checkout link once abandoned
      db.migrate("ecom-carts/3", "ALTER TABLE ecom_carts ADD COLUMN origin TEXT;")

      const itemOf = (reference: StoredLine["reference"]): CatalogItem => catalogItem(products, reference)

      const linesOf = (cartId: string): Array<StoredLine> =>
        db.all("SELECT id, reference, quantity FROM ecom_cart_line_items WHERE cart_id = ? ORDER BY seq", cartId).map((r) => ({
          id: String(r.id),
          reference: JSON.parse(String(r.reference)) as StoredLine["reference"],
          quantity: Number(r.quantity)
        }))

      const toStored = (row: Row): StoredCart => ({
        id: String(row.id),
        ownerKind: row.owner_kind === "member" ? "member" : "visitor",
        ownerId: String(row.owner_id),
        createdDate: String(row.created_date),
        updatedDate: String(row.updated_date),
        revision: Number(row.revision),
        checkoutId: row.checkout_id === null || row.checkout_id === undefined ? undefined : String(row.checkout_id),
        lines: linesOf(String(row.id))
      })

      const find = (owner: Owner): StoredCart | undefined => {
        const row = db.get("SELECT * FROM ecom_carts WHERE owner_kind = ? AND owner_id = ?", owner.kind, owner.id)
        return row === undefined ? undefined : toStored(row)
      }

      /** The owner's cart, or the refusal. */
      const owned = (owner: Owner): StoredCart => {
        const cart = find(owner)
        if (cart === undefined) throw noCart()
        return cart
      }

      const priced = (cart: StoredCart): PricedCart => {
        const lines = cart.lines.map((line) => ({ ...line, item: itemOf(line.reference) }))
        const first = lines.find((l) => l.item.found)?.item
        return { cart, lines, currency: first !== undefined && first.found ? first.currency : "USD" }
      }

      /** The cart's events of both generations for one change. */
      const emitChange = (emit: Emit, cart: StoredCart, kind: DomainChange["kind"], actor: Caller) => {
        const view = priced(cart)
        const v1 = cartV1(view) as Record<string, unknown>
        const v2 = cartV2(view) as Record<string, unknown>
        const change = (entity: Record<string, unknown>): DomainChange =>
          kind === "updated" ? { kind, entity, modifiedFields: ["lineItems"] } : kind === "created" ? { kind, entity } : { kind: "deleted", entity }
        const type = kind === "created" ? "created" : kind === "updated" ? "updated" : "deleted"
        emit({ _tag: "Domain", type: CartEventTypes.v1[type], entityFqdn: CART_V1_FQDN, entityId: cart.id, change: change(v1), actor })
        emit({ _tag: "Domain", type: CartEventTypes.v2[type], entityFqdn: CART_V2_FQDN, entityId: cart.id, change: change(v2), actor })
      }

      const insertCart = (owner: Owner, origin: Origin): StoredCart => {
        const at = engine.now()
        const id = engine.newId()
        db.run(
          "INSERT INTO ecom_carts (id, owner_kind, owner_id, created_date, updated_date, revision, origin) VALUES (?, ?, ?, ?, ?, 1, ?)",
          id,
          owner.kind,
          owner.id,
          at,
          at,
          origin ?? null
        )
        return { id, ownerKind: owner.kind, ownerId: owner.id, createdDate: at, updatedDate: at, revision: 1, checkoutId: undefined, lines: [] }
      }

      /**
       * A change to the cart's lines: a new revision, and any checkout made from the old lines dropped;
       * the shopper's origin replaces the one recorded, a change without one keeps it.
       */
      const touch = (cartId: string, origin: Origin) =>
        db.run(
          "UPDATE ecom_carts SET updated_date = ?, revision = revision + 1, checkout_id = NULL, origin = COALESCE(?, origin) WHERE id = ?",
          engine.now(),
          origin ?? null,
          cartId
        )

      const originOf = (cartId: string): Origin => {
        const recorded = db.get("SELECT origin FROM ecom_carts WHERE id = ?", cartId)?.origin
        return typeof recorded === "string" ? recorded : undefined
      }

      const nextSeq = (cartId: string): number =>
        Number(db.get("SELECT COALESCE(MAX(seq), 0) + 1 AS n FROM ecom_cart_line_items WHERE cart_id = ?", cartId)?.n ?? 1)

      const addLine = (cartId: string, reference: StoredLine["reference"], quantity: number) => {
        const existing = db.get("SELECT id, quantity FROM ecom_cart_line_items WHERE cart_id = ? AND reference_key = ?", cartId, canonical(reference))
        if (existing !== undefined) {
          db.run("UPDATE ecom_cart_line_items SET quantity = ? WHERE id = ?", Math.min(MAX_LINE_ITEM_QUANTITY, Number(existing.quantity) + quantity), String(existing.id))
        } else {
          db.run(
            "INSERT INTO ecom_cart_line_items (id, cart_id, seq, reference_key, reference, quantity) VALUES (?, ?, ?, ?, ?, ?)",
            engine.newId(),
            cartId,
            nextSeq(cartId),
            canonical(reference),
            JSON.stringify(reference),
            quantity
          )
        }
      }

      const deleteRows = (cartId: string) => {
        db.run("DELETE FROM ecom_cart_line_items WHERE cart_id = ?", cartId)
        db.run("DELETE FROM ecom_carts WHERE id = ?", cartId)
      }

      /**
       * The carts of visitors who signed in as the member, moved into the member's cart (created when
       * the member has none, the visitor's lines added to it) and deleted; the hand-overs are done.
       */
      const takeOver = (owner: Owner): void => {
        if (owner.kind !== "member") return
        const visitors = signIns.visitorsOf(owner.id)
        if (visitors.length === 0) return
        const actor: Caller = { kind: "none" }
        engine.write((emit) => {
          for (const visitorId of visitors) {
            signIns.forget(visitorId)
            const from = find({ kind: "visitor", id: visitorId })
            if (from === undefined) continue
            const existing = find(owner)
            // the visitor's requests are the member's: the member's cart goes on from where they came
            const origin = originOf(from.id)
            const into = existing ?? insertCart(owner, origin)
            for (const line of from.lines) addLine(into.id, line.reference, line.quantity)
            touch(into.id, origin)
            deleteRows(from.id)
            emitChange(emit, from, "deleted", actor)
            emitChange(emit, find(owner)!, existing === undefined ? "created" : "updated", actor)
          }
        })
      }

      const current = (owner: Owner): PricedCart | undefined => {
        takeOver(owner)
        const cart = find(owner)
        return cart === undefined ? undefined : priced(cart)
      }

      const cartById: CartStoreShape["byId"] = (cartId) => {
        const row = db.get("SELECT * FROM ecom_carts WHERE id = ?", cartId)
        if (row === undefined) return undefined
        const cart = toStored(row)
        return {
          owner: { kind: cart.ownerKind, id: cart.ownerId },
          cart: priced(cart),
          email: emailOf(row),
          orderId: typeof row.order_id === "string" ? row.order_id : undefined
        }
      }

      /** Refuses unless the lines' references are for sale and in stock at their new quantities. */
      const checkStock = (wanted: ReadonlyArray<Wanted>): void => {
        const short: Array<{ reference: StoredLine["reference"]; requested: number; available: number }> = []
        for (const w of wanted) {
          const item = itemOf(w.reference)
          if (!item.found) throw failure(404, CartCodes.itemNotFoundInCatalog, item.reason, { catalogReference: w.reference })
          if (item.available !== undefined && w.quantity > item.available) short.push({ reference: w.reference, requested: w.quantity, available: item.available })
        }
        if (short.length > 0) throw shortStock(short)
      }

      /** A change of the owner's cart: the quantities checked first, hand-overs done, then `f` on the engine. */
      const changeCart = (
        owner: Owner,
        quantities: ReadonlyArray<number>,
        f: (emit: Emit) => StoredCart
      ): Effect.Effect<PricedCart, Reject> =>
        engine.read(() => quantities.forEach((q, i) => checkQuantity(q, `lineItems[${i}].quantity`))).pipe(
          Effect.andThen(() => {
            takeOver(owner)
            return engine.commit(f)
          }),
          Effect.map(priced)
        )

      const add: CartStoreShape["add"] = (owner, input, actor, mode, origin) =>
        changeCart(owner, input.map((l) => l.quantity), (emit) => {
          const existing = find(owner)
          if (mode === "create" && existing !== undefined) throw failure(409, CartCodes.cartExists, "The caller has a current cart already")
          // what each touched line would hold: what it holds and what is added, one reference summed once
          const held = new Map((existing?.lines ?? []).map((l) => [canonical(l.reference), l.quantity]))
          const wanted = new Map<string, Wanted>()
          for (const line of input) {
            const reference = referenceOf(line.reference)
            const key = canonical(reference)
            const before = wanted.get(key)?.quantity ?? held.get(key) ?? 0
            wanted.set(key, { reference, quantity: before + line.quantity })
          }
          const newLines = [...wanted.keys()].filter((k) => !held.has(k)).length
          if (held.size + newLines > MAX_CART_LINE_ITEMS) {
            throw failure(400, CartCodes.maxLineItemsExceeded, `A cart holds at most ${MAX_CART_LINE_ITEMS} line items`, { maxLineItems: MAX_CART_LINE_ITEMS })
          }
          checkStock([...wanted.values()])
          const cart = existing ?? insertCart(owner, origin)
          for (const line of input) addLine(cart.id, referenceOf(line.reference), line.quantity)
          if (existing !== undefined || input.length > 0) touch(cart.id, origin)
          const after = find(owner)!
          emitChange(emit, after, existing === undefined ? "created" : "updated", actor)
          return after
        })

      const setQuantities: CartStoreShape["setQuantities"] = (owner, updates, actor, origin) =>
        changeCart(owner, updates.map((u) => u.quantity), (emit) => {
          const cart = owned(owner)
          const byId = new Map(cart.lines.map((l) => [l.id, l]))
          const raised: Array<Wanted> = []
          for (const u of updates) {
            const line = byId.get(u.id)
            if (line === undefined) throw lineNotFound(u.id)
            if (u.quantity > line.quantity) raised.push({ reference: line.reference, quantity: u.quantity })
          }
          checkStock(raised)
          for (const u of updates) db.run("UPDATE ecom_cart_line_items SET quantity = ? WHERE id = ?", u.quantity, u.id)
          touch(cart.id, origin)
          const after = find(owner)!
          emitChange(emit, after, "updated", actor)
          return after
        })

      const remove: CartStoreShape["remove"] = (owner, lineIds, actor, origin) =>
        changeCart(owner, [], (emit) => {
          const cart = owned(owner)
          const ids = new Set(cart.lines.map((l) => l.id))
          const unknown = lineIds.find((id) => !ids.has(id))
          if (unknown !== undefined) throw lineNotFound(unknown)
          for (const id of lineIds) db.run("DELETE FROM ecom_cart_line_items WHERE id = ?", id)
          touch(cart.id, origin)
          const after = find(owner)!
          emitChange(emit, after, "updated", actor)
          return after
        })

      const deleteCart: CartStoreShape["delete"] = (owner, actor) =>
        Effect.suspend(() => {
          takeOver(owner)
          return engine.commit((emit) => {
            const cart = owned(owner)
            deleteRows(cart.id)
            emitChange(emit, cart, "deleted", actor)
          })
        })

      const createCheckout: CartStoreShape["createCheckout"] = (owner, _actor) =>
        Effect.suspend(() => {
          takeOver(owner)
          return engine.commit(() => {
            const cart = owned(owner)
            if (cart.lines.length === 0) throw failure(428, CartCodes.emptyCart, "A checkout needs a cart with line items")
            checkStock(cart.lines)
            if (cart.checkoutId !== undefined) return cart.checkoutId
            const checkoutId = engine.newId()
            db.run("UPDATE ecom_carts SET checkout_id = ? WHERE id = ?", checkoutId, cart.id)
            return checkoutId
          })
        })

      const setBuyerEmail: CartStoreShape["setBuyerEmail"] = (cartId, email) =>
        engine.write(() => {
          if (db.run("UPDATE ecom_carts SET buyer_email = ? WHERE id = ?", email, cartId) === 0) {
            throw failure(404, "CART_NOT_FOUND", `Cart ${cartId} was not found`)
          }
        })

      const completed: CartStoreShape["completed"] = (cartId, orderId, actor) =>
        engine.write((emit) => {
          db.run("UPDATE ecom_carts SET order_id = ? WHERE id = ?", orderId, cartId)
          // the cart may be gone (a checkout empties it); its abandoned cart is still there
          const left = abandoned.get(cartId)
          if (left === undefined || left.cart.status !== "ABANDONED") return false
          abandoned.recover(cartId, undefined, actor, emit)
          return true
        })

      /** The email to remind the cart's buyer at: theirs from a checkout, or the member's. */
      const emailOf = (row: Row): string | undefined =>
        typeof row.buyer_email === "string" && row.buyer_email !== ""
          ? row.buyer_email
          : row.owner_kind === "member"
          ? members.byId(String(row.owner_id))?.email
          : undefined

      const afterMillis = ABANDONED_AFTER_SECONDS * 1000
      // on the index ecom_carts_open: the open carts changed before the cut-off, none when nothing is due
      const due = (fallback: Origin) =>
        db.all(
          `SELECT * FROM ecom_carts WHERE abandoned_date IS NULL AND order_id IS NULL AND updated_date <= ?
            AND (buyer_email IS NOT NULL OR owner_kind = 'member')
            AND (origin IS NOT NULL OR ? IS NOT NULL)
            AND EXISTS (SELECT 1 FROM ecom_cart_line_items WHERE cart_id = ecom_carts.id)
          ORDER BY updated_date, id`,
          isoDate(clock.millis() - afterMillis),
          fallback ?? null
        )

      const abandonDue: CartStoreShape["abandonDue"] = (fallback) =>
        // a read or a sweep with nothing due writes nothing
        Effect.suspend(() => due(fallback).length === 0 ? Effect.void : engine.commit((emit) => {
          const actor: Caller = { kind: "none" }
          // found again in the transaction: whatever ran since the first look (an order, a change) counts
          for (const row of due(fallback)) {
            // a member gone from the site leaves no email to remind
            const email = emailOf(row)
            if (email === undefined) continue
            const origin = typeof row.origin === "string" ? row.origin : fallback
            if (origin === undefined) continue
            const cart = toStored(row)
            const abandonTime = isoDate(Date.parse(cart.updatedDate) + afterMillis)
            db.run("UPDATE ecom_carts SET abandoned_date = ? WHERE id = ?", abandonTime, cart.id)
            // abandoned once: a cart the dev endpoints abandoned under this id already stays as it is
            if (abandoned.get(cart.id) !== undefined) continue
            const view = priced(cart)
            const totals = cartTotals(view.lines)
            abandoned.abandon({
              id: cart.id,
              buyerInfo: { id: cart.ownerId, identityType: cart.ownerKind === "member" ? "MEMBER" : "VISITOR", email },
              creationTime: cart.createdDate,
              abandonTime,
              itemsCount: cart.lines.reduce((n, l) => n + l.quantity, 0),
              currency: view.currency,
              subtotal: totals.subtotal,
              total: totals.total
            }, actor, origin, emit)
          }
        }))

      abandoned.beforeRead(abandonDue)

      return CartStore.of({
        current,
        byId: cartById,
        add,
        setQuantities,
        remove,
        delete: deleteCart,
        createCheckout,
        setBuyerEmail,
        completed,
        abandonDue
      })
    })
  )
}
