/**
 * The current carts of the site's shoppers, one storage for both cart generations: a cart per owner
 * (a visitor or a member) in `ecom_carts` and its lines in `ecom_cart_line_items`, each line a catalog
 * reference and a quantity. Prices are never stored: every answer prices the lines from the catalog
 * as it is (a product's discount applies, a product gone from sale shows as such), and stock is
 * checked when a line is added or its quantity raised. A member's cart takes over the carts of the
 * visitors who signed in as them (SignIns), the first time it is asked for after the sign-in.
 *
 * Every write logs the cart's events of both generations (`wix.ecom.v1.cart_*` and `wix.ecom.v2.cart_*`)
 * in its transaction.
 */
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import { randomUUID } from "node:crypto"
import type { Product } from "../../../catalog/wire/products.ts"
import { CART_V1_FQDN, CART_V2_FQDN, CartCodes, CartEventTypes, MAX_CART_LINE_ITEMS, MAX_LINE_ITEM_QUANTITY } from "../../../ecom/protocol.ts"
import type { CatalogReference } from "../../../ecom/wire/carts.ts"
import { SignIns } from "../../accounts/SignIns.ts"
import { ProductStore } from "../../catalog/products/ProductStore.ts"
import type { Caller } from "../../platform/Caller.ts"
import { Database, type Row } from "../../platform/Database.ts"
import { application, conflict, invalidField, notFound, type Reject } from "../../platform/responses.ts"
import { isoDate, ServerClock } from "../../platform/ServerClock.ts"
import type { DomainChange } from "../../store/domainLog.ts"
import { EcomEvents, type Emit } from "../EcomEvents.ts"
import { priceItem, type CatalogItem } from "./pricing.ts"
import { cartV1, cartV2, type PricedCart, sellsHere, type StoredCart, type StoredLine } from "./views.ts"

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

export interface CartStoreShape {
  /** The owner's current cart, priced; undefined when they have none. */
  readonly current: (owner: Owner) => PricedCart | undefined
  /**
   * Adds lines (a reference already in the cart adds to its line), creating the cart when there is
   * none; `create` refuses when there is one. Refused whole when an item is not for sale or the stock
   * is short.
   */
  readonly add: (owner: Owner, lines: ReadonlyArray<NewLine>, actor: Caller, mode: "add" | "create") => Effect.Effect<PricedCart, Reject>
  /** Sets lines' quantities; a raise is checked against the stock. */
  readonly setQuantities: (
    owner: Owner,
    updates: ReadonlyArray<{ readonly id: string; readonly quantity: number }>,
    actor: Caller
  ) => Effect.Effect<PricedCart, Reject>
  readonly remove: (owner: Owner, lineIds: ReadonlyArray<string>, actor: Caller) => Effect.Effect<PricedCart, Reject>
  readonly delete: (owner: Owner, actor: Caller) => Effect.Effect<void, Reject>
  /** A checkout id for the cart (the same one until the cart changes); refused for an empty cart. */
  readonly createCheckout: (owner: Owner, actor: Caller) => Effect.Effect<string, Reject>
}

/** The platform's refusals of cart calls. */
export const ownedCartNotFound = () => notFound("The caller has no current cart", CartCodes.ownedCartNotFound)

const lineNotFound = (id: string) => notFound(`Line item ${id} is not in the cart`, CartCodes.lineItemNotFound)

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

export class CartStore extends Context.Service<CartStore, CartStoreShape>()("sitefx/server/ecom/CartStore") {
  static readonly layer: Layer.Layer<CartStore, never, Database | ServerClock | EcomEvents | ProductStore | SignIns> = Layer.effect(
    CartStore,
    Effect.gen(function*() {
      const db = yield* Database
      const clock = yield* ServerClock
      const events = yield* EcomEvents
      const products = yield* ProductStore
      const signIns = yield* SignIns
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

      const now = () => isoDate(clock.millis())

      const product = (id: string): Product | undefined => {
        const doc = products.doc(id, false)
        return doc === undefined ? undefined : JSON.parse(doc) as Product
      }

      const itemOf = (reference: StoredLine["reference"]): CatalogItem =>
        sellsHere(reference.appId)
          ? priceItem(product(reference.catalogItemId), reference as CatalogReference)
          : { found: false, reason: `App ${reference.appId} sells nothing on this site` }

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

      const insertCart = (owner: Owner): StoredCart => {
        const at = now()
        const id = randomUUID()
        db.run(
          "INSERT INTO ecom_carts (id, owner_kind, owner_id, created_date, updated_date, revision) VALUES (?, ?, ?, ?, ?, 1)",
          id,
          owner.kind,
          owner.id,
          at,
          at
        )
        return { id, ownerKind: owner.kind, ownerId: owner.id, createdDate: at, updatedDate: at, revision: 1, checkoutId: undefined, lines: [] }
      }

      /** A change to the cart's lines: a new revision, and any checkout made from the old lines dropped. */
      const touch = (cartId: string) =>
        db.run("UPDATE ecom_carts SET updated_date = ?, revision = revision + 1, checkout_id = NULL WHERE id = ?", now(), cartId)

      const nextSeq = (cartId: string): number =>
        Number(db.get("SELECT COALESCE(MAX(seq), 0) + 1 AS n FROM ecom_cart_line_items WHERE cart_id = ?", cartId)?.n ?? 1)

      const addLine = (cartId: string, reference: StoredLine["reference"], quantity: number) => {
        const existing = db.get("SELECT id, quantity FROM ecom_cart_line_items WHERE cart_id = ? AND reference_key = ?", cartId, canonical(reference))
        if (existing !== undefined) {
          db.run("UPDATE ecom_cart_line_items SET quantity = ? WHERE id = ?", Math.min(MAX_LINE_ITEM_QUANTITY, Number(existing.quantity) + quantity), String(existing.id))
        } else {
          db.run(
            "INSERT INTO ecom_cart_line_items (id, cart_id, seq, reference_key, reference, quantity) VALUES (?, ?, ?, ?, ?, ?)",
            randomUUID(),
            cartId,
            nextSeq(cartId),
            canonical(reference),
            JSON.stringify(reference),
            quantity
          )
        }
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
        events.transaction((emit) => {
          for (const visitorId of visitors) {
            signIns.forget(visitorId)
            const from = find({ kind: "visitor", id: visitorId })
            if (from === undefined) continue
            const existing = find(owner)
            const into = existing ?? insertCart(owner)
            for (const line of from.lines) addLine(into.id, line.reference, line.quantity)
            touch(into.id)
            db.run("DELETE FROM ecom_cart_line_items WHERE cart_id = ?", from.id)
            db.run("DELETE FROM ecom_carts WHERE id = ?", from.id)
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

      const checkQuantity = (quantity: number, field: string): Reject | undefined =>
        Number.isInteger(quantity) && quantity >= 1 && quantity <= MAX_LINE_ITEM_QUANTITY
          ? undefined
          : invalidField(field, `${field} must be a whole number from 1 to ${MAX_LINE_ITEM_QUANTITY}`, "MIN", { min: 1, max: MAX_LINE_ITEM_QUANTITY })

      const shortStock = (short: ReadonlyArray<{ readonly reference: StoredLine["reference"]; readonly requested: number; readonly available: number }>) =>
        application(
          428,
          CartCodes.insufficientInventory,
          short.every((s) => s.available === 0)
            ? `Sold out: ${short.map((s) => s.reference.catalogItemId).join(", ")} has none left in stock`
            : `Not enough in stock: ${short.map((s) => `${s.reference.catalogItemId} has ${s.available} left, the cart would hold ${s.requested}`).join("; ")}`,
          { invalidItems: short.map((s) => ({ id: { catalogReference: s.reference }, requestedQuantity: s.requested, availableQuantity: s.available })) }
        )

      /** The lines' references for sale and in stock at their new quantities, or the refusal. */
      const checkStock = (wanted: ReadonlyArray<{ readonly reference: StoredLine["reference"]; readonly quantity: number }>): Reject | undefined => {
        const short: Array<{ reference: StoredLine["reference"]; requested: number; available: number }> = []
        for (const w of wanted) {
          const item = itemOf(w.reference)
          if (!item.found) {
            return application(404, CartCodes.itemNotFoundInCatalog, item.reason, { catalogReference: w.reference })
          }
          if (item.available !== undefined && w.quantity > item.available) short.push({ reference: w.reference, requested: w.quantity, available: item.available })
        }
        return short.length === 0 ? undefined : shortStock(short)
      }

      const add: CartStoreShape["add"] = (owner, input, actor, mode) =>
        Effect.gen(function*() {
          for (const [i, line] of input.entries()) {
            const bad = checkQuantity(line.quantity, `lineItems[${i}].quantity`)
            if (bad !== undefined) return yield* bad
          }
          takeOver(owner)
          const outcome = events.transaction((emit): StoredCart | Reject => {
            const existing = find(owner)
            if (mode === "create" && existing !== undefined) return conflict("The caller has a current cart already", CartCodes.cartExists)
            // what each touched line would hold: what it holds and what is added, one reference summed once
            const held = new Map((existing?.lines ?? []).map((l) => [canonical(l.reference), l.quantity]))
            const wanted = new Map<string, { reference: StoredLine["reference"]; quantity: number }>()
            for (const line of input) {
              const reference = referenceOf(line.reference)
              const key = canonical(reference)
              const before = wanted.get(key)?.quantity ?? held.get(key) ?? 0
              wanted.set(key, { reference, quantity: before + line.quantity })
            }
            const newLines = [...wanted.keys()].filter((k) => !held.has(k)).length
            if (held.size + newLines > MAX_CART_LINE_ITEMS) {
              return application(400, CartCodes.maxLineItemsExceeded, `A cart holds at most ${MAX_CART_LINE_ITEMS} line items`, { maxLineItems: MAX_CART_LINE_ITEMS })
            }
            const refused = checkStock([...wanted.values()])
            if (refused !== undefined) return refused
            const cart = existing ?? insertCart(owner)
            for (const line of input) addLine(cart.id, referenceOf(line.reference), line.quantity)
            if (existing !== undefined || input.length > 0) touch(cart.id)
            const after = find(owner)!
            if (existing === undefined) emitChange(emit, after, "created", actor)
            else emitChange(emit, after, "updated", actor)
            return after
          })
          if (!("lines" in outcome)) return yield* outcome
          return priced(outcome)
        })

      const setQuantities: CartStoreShape["setQuantities"] = (owner, updates, actor) =>
        Effect.gen(function*() {
          for (const [i, u] of updates.entries()) {
            const bad = checkQuantity(u.quantity, `lineItems[${i}].quantity`)
            if (bad !== undefined) return yield* bad
          }
          takeOver(owner)
          const outcome = events.transaction((emit): StoredCart | Reject => {
            const cart = find(owner)
            if (cart === undefined) return ownedCartNotFound()
            const byId = new Map(cart.lines.map((l) => [l.id, l]))
            const raised: Array<{ reference: StoredLine["reference"]; quantity: number }> = []
            for (const u of updates) {
              const line = byId.get(u.id)
              if (line === undefined) return lineNotFound(u.id)
              if (u.quantity > line.quantity) raised.push({ reference: line.reference, quantity: u.quantity })
            }
            const refused = checkStock(raised)
            if (refused !== undefined) return refused
            for (const u of updates) db.run("UPDATE ecom_cart_line_items SET quantity = ? WHERE id = ?", u.quantity, u.id)
            touch(cart.id)
            const after = find(owner)!
            emitChange(emit, after, "updated", actor)
            return after
          })
          if (!("lines" in outcome)) return yield* outcome
          return priced(outcome)
        })

      const remove: CartStoreShape["remove"] = (owner, lineIds, actor) =>
        Effect.gen(function*() {
          takeOver(owner)
          const outcome = events.transaction((emit): StoredCart | Reject => {
            const cart = find(owner)
            if (cart === undefined) return ownedCartNotFound()
            const ids = new Set(cart.lines.map((l) => l.id))
            const unknown = lineIds.find((id) => !ids.has(id))
            if (unknown !== undefined) return lineNotFound(unknown)
            for (const id of lineIds) db.run("DELETE FROM ecom_cart_line_items WHERE id = ?", id)
            touch(cart.id)
            const after = find(owner)!
            emitChange(emit, after, "updated", actor)
            return after
          })
          if (!("lines" in outcome)) return yield* outcome
          return priced(outcome)
        })

      const deleteCart: CartStoreShape["delete"] = (owner, actor) =>
        Effect.gen(function*() {
          takeOver(owner)
          const outcome = events.transaction((emit) => {
            const cart = find(owner)
            if (cart === undefined) return false
            db.run("DELETE FROM ecom_cart_line_items WHERE cart_id = ?", cart.id)
            db.run("DELETE FROM ecom_carts WHERE id = ?", cart.id)
            emitChange(emit, cart, "deleted", actor)
            return true
          })
          if (!outcome) return yield* ownedCartNotFound()
        })

      const createCheckout: CartStoreShape["createCheckout"] = (owner, _actor) =>
        Effect.gen(function*() {
          takeOver(owner)
          const outcome = db.transaction((): string | Reject => {
            const cart = find(owner)
            if (cart === undefined) return ownedCartNotFound()
            if (cart.lines.length === 0) return application(428, CartCodes.emptyCart, "A checkout needs a cart with line items")
            const refused = checkStock(cart.lines)
            if (refused !== undefined) return refused
            if (cart.checkoutId !== undefined) return cart.checkoutId
            const checkoutId = randomUUID()
            db.run("UPDATE ecom_carts SET checkout_id = ? WHERE id = ?", checkoutId, cart.id)
            return checkoutId
          })
          if (typeof outcome !== "string") return yield* outcome
          return outcome
        })

      return CartStore.of({ current, add, setQuantities, remove, delete: deleteCart, createCheckout })
    })
  )
}
