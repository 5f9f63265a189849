/**
 * The store's subscription options, on node:sqlite: the options themselves (stored as their wire
 * documents), which options each product offers (in order, each possibly hidden on that product), and
 * whether each product may also be bought once, without subscribing (allowed unless set otherwise).
 * Writes that name several options check them all first and change nothing when one is missing. The
 * platform announces no events for subscription options, so their writes log none.
 */
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import { randomUUID } from "node:crypto"
import { SubscriptionCodes } from "../../../catalog/protocol.ts"
import type { SubscriptionOption, SubscriptionOptionInProduct } from "../../../catalog/wire/subscriptions.ts"
import { failure, violations } from "../../store/engine.ts"
import type { EngineFailure } from "../../store/engineFailures.ts"
import type { OffsetPaging } from "../../store/paging.ts"
import { Database } from "../../platform/Database.ts"

/** An option with its id, as stored and answered. */
export type StoredOption = SubscriptionOption & { readonly id: string }

export interface Assignment {
  readonly id: string
  readonly hidden: boolean
}

/**
 * Every call is synchronous storage code that throws an EngineFailure: routes run reads on the catalog's
 * engine (`read`) and writes in one of its transactions (`commit`), which a refusal rolls back.
 */
export interface SubscriptionOptionStoreShape {
  readonly get: (id: string) => StoredOption | undefined
  /** The option, or its 404. */
  readonly require: (id: string) => StoredOption
  /** Stores complete options (checked by the caller); 409 when a given id is taken. */
  readonly create: (options: ReadonlyArray<SubscriptionOption>) => ReadonlyArray<StoredOption>
  /**
   * Applies patches (only what each passes changes), checks every merged option with `check` (which
   * throws its refusal), and stores them all; 404 naming every unknown id.
   */
  readonly update: (patches: ReadonlyArray<StoredOption>, check: (merged: ReadonlyArray<StoredOption>) => void) => ReadonlyArray<StoredOption>
  /** Deletes the options and their assignments; 404 naming every unknown id. */
  readonly remove: (ids: ReadonlyArray<string>) => void
  /** The product's options in their order; hidden ones only when asked. */
  readonly forProduct: (productId: string, includeHidden: boolean) => ReadonlyArray<SubscriptionOptionInProduct>
  /** Replaces the product's options; 404 naming every unknown id. */
  readonly assign: (productId: string, assigned: ReadonlyArray<Assignment>) => void
  /** The products an option is assigned to, by product id; 404 for an unknown option. */
  readonly productIds: (id: string, includeHidden: boolean, paging: OffsetPaging) => { readonly ids: ReadonlyArray<string>; readonly total: number }
  readonly oneTimePurchasesAllowed: (productId: string) => boolean
  readonly allowOneTimePurchases: (productId: string, allowed: boolean) => void
}

/** 404 naming the unknown options. */
export const optionsNotFound = (ids: ReadonlyArray<string>): EngineFailure =>
  ids.length === 1
    ? failure(404, SubscriptionCodes.notFound, `Subscription option ${ids[0]} was not found`)
    : failure(404, SubscriptionCodes.notFound, `Subscription options ${ids.join(", ")} were not found`, { ids })

/**
 * Where a product id is checked before options are assigned to it. The local platform takes any
 * product id; the routes then ask the product store whether the product exists.
 */
export const checkProduct = (productId: string, field = "productId"): EngineFailure | undefined =>
  productId === "" || productId.length > 100 ? violations("productId has 1 to 100 characters", [{ field, description: "productId has 1 to 100 characters", violatedRule: "MAX_LENGTH", data: {} }]) : undefined

/** A stored option as it goes out: every field the platform always fills. */
export const normalize = (o: SubscriptionOption, id: string): StoredOption => {
  const s = o.subscriptionSettings ?? {}
  const autoRenewal = s.autoRenewal ?? false
  return {
    id,
    title: o.title ?? "",
    ...(o.description === undefined || o.description === null ? {} : { description: o.description }),
    subscriptionSettings: {
      frequency: s.frequency ?? "UNDEFINED",
      ...(s.interval === undefined || s.interval === null ? {} : { interval: s.interval }),
      autoRenewal,
      // a subscription that renews by itself has no number of payments
      ...(autoRenewal || s.billingCycles === undefined || s.billingCycles === null ? {} : { billingCycles: s.billingCycles })
    },
    discount: { type: o.discount?.type ?? "UNDEFINED", value: o.discount?.value ?? 0 }
  }
}

const defined = <T extends object>(o: T | undefined): Partial<T> =>
  o === undefined ? {} : Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined && v !== null)) as Partial<T>

/** `patch` over `current`: absent and null fields keep their value. */
export const merge = (current: StoredOption, patch: SubscriptionOption): SubscriptionOption => ({
  id: current.id,
  title: patch.title ?? current.title ?? null,
  description: patch.description ?? current.description ?? null,
  subscriptionSettings: { ...current.subscriptionSettings, ...defined(patch.subscriptionSettings) },
  discount: { ...current.discount, ...defined(patch.discount) }
})

export class SubscriptionOptionStore extends Context.Service<SubscriptionOptionStore, SubscriptionOptionStoreShape>()(
  "sitefx/server/catalog/SubscriptionOptionStore"
) {
  static readonly layer: Layer.Layer<SubscriptionOptionStore, never, Database> = Layer.effect(
    SubscriptionOptionStore,
    Effect.gen(function*() {
      const db = yield* Database
      db.migrate(
        "catalog/subscriptions/1",
        `CREATE TABLE catalog_subscription_options (
          seq INTEGER PRIMARY KEY AUTOINCREMENT,
          id TEXT NOT NULL UNIQUE,
          doc TEXT NOT NULL
        );
        CREATE TABLE catalog_subscription_assignments (
          product_id TEXT NOT NULL,
          option_id TEXT NOT NULL REFERENCES catalog_subscription_options (id) ON DELETE CASCADE,
          position INTEGER NOT NULL,
          hidden INTEGER NOT NULL,
          PRIMARY KEY (product_id, option_id)
        );
        CREATE INDEX catalog_subscription_assignments_option ON catalog_subscription_assignments (option_id, hidden, product_id);
        CREATE TABLE catalog_subscription_products (
          product_id TEXT PRIMARY KEY,
          one_time_allowed INTEGER NOT NULL
        );`,
        ["catalog-subscriptions/1"]
      )

      const get = (id: string): StoredOption | undefined => {
        const row = db.get("SELECT doc FROM catalog_subscription_options WHERE id = ?", id)
        return row === undefined ? undefined : JSON.parse(String(row.doc)) as StoredOption
      }

      const absent = (ids: ReadonlyArray<string>): void => {
        const unknown = [...new Set(ids)].filter((id) => get(id) === undefined)
        if (unknown.length > 0) throw optionsNotFound(unknown)
      }

      return SubscriptionOptionStore.of({
        get,
        require: (id) => {
          const option = get(id)
          if (option === undefined) throw optionsNotFound([id])
          return option
        },
        create: (options) => {
          const ids = options.map((o) => o.id ?? randomUUID())
          // every id is checked before anything is written
          const taken = ids.find((id, i) => ids.indexOf(id) !== i || get(id) !== undefined)
          if (taken !== undefined) throw failure(409, SubscriptionCodes.alreadyExists, `A subscription option with id ${taken} exists already`)
          return options.map((option, i) => {
            const made = normalize(option, ids[i]!)
            db.run("INSERT INTO catalog_subscription_options (id, doc) VALUES (?, ?)", made.id, JSON.stringify(made))
            return made
          })
        },
        update: (patches, check) => {
          absent(patches.map((p) => p.id))
          const merged = patches.map((p) => normalize(merge(get(p.id)!, p), p.id))
          check(merged)
          for (const option of merged) db.run("UPDATE catalog_subscription_options SET doc = ? WHERE id = ?", JSON.stringify(option), option.id)
          return merged
        },
        remove: (ids) => {
          absent(ids)
          for (const id of new Set(ids)) db.run("DELETE FROM catalog_subscription_options WHERE id = ?", id)
        },
        forProduct: (productId, includeHidden) =>
          db.all(
            `SELECT o.doc, a.hidden FROM catalog_subscription_assignments a
             JOIN catalog_subscription_options o ON o.id = a.option_id
             WHERE a.product_id = ?${includeHidden ? "" : " AND a.hidden = 0"} ORDER BY a.position`,
            productId
          ).map((row) => {
            const { id, ...rest } = JSON.parse(String(row.doc)) as StoredOption
            return { id, hidden: row.hidden === 1, ...rest }
          }),
        assign: (productId, assigned) => {
          absent(assigned.map((a) => a.id))
          db.run("DELETE FROM catalog_subscription_assignments WHERE product_id = ?", productId)
          for (const [position, a] of assigned.entries()) {
            db.run(
              "INSERT INTO catalog_subscription_assignments (product_id, option_id, position, hidden) VALUES (?, ?, ?, ?)",
              productId,
              a.id,
              position,
              a.hidden ? 1 : 0
            )
          }
        },
        productIds: (id, includeHidden, paging) => {
          absent([id])
          const where = `WHERE option_id = ?${includeHidden ? "" : " AND hidden = 0"}`
          const ids = db.all(
            `SELECT product_id FROM catalog_subscription_assignments ${where} ORDER BY product_id LIMIT ? OFFSET ?`,
            id,
            paging.limit,
            paging.offset
          ).map((row) => String(row.product_id))
          const total = Number(db.get(`SELECT COUNT(*) AS n FROM catalog_subscription_assignments ${where}`, id)?.n ?? 0)
          return { ids, total }
        },
        oneTimePurchasesAllowed: (productId) =>
          db.get("SELECT one_time_allowed FROM catalog_subscription_products WHERE product_id = ?", productId)?.one_time_allowed !== 0,
        allowOneTimePurchases: (productId, allowed) => {
          db.run(
            `INSERT INTO catalog_subscription_products (product_id, one_time_allowed) VALUES (?, ?)
             ON CONFLICT (product_id) DO UPDATE SET one_time_allowed = excluded.one_time_allowed`,
            productId,
            allowed ? 1 : 0
          )
        }
      })
    })
  )
}
