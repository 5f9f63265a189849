/**
 * What a data read costs, judged by the work it does rather than by this machine's speed: SQLite's
 * query plan says whether the statement reads the collection's items through an index or one by one.
 * A read that filters, sorts or groups without a usable index reads every item of the collection; past
 * the plan's threshold (its documented timeout times the scan rate that stands for it, platform/Profile.ts)
 * that is an index advice in the request log, and under the production profile a refusal as the platform
 * answers a call that ran out of time. A read without a filter or sort reads only its page.
 *
 * The judgement runs before every filtered or sorted read, so it is kept cheap: a statement's verdict is
 * kept per collection and statement text (the plan does not depend on the values bound to it: this
 * SQLite has no STAT4), until an index of any collection changes, a collection goes, or the database is
 * reset or restored; a collection's size is counted only when the plan scans, and counted again only
 * after the database has changed (SQLite's `total_changes()`, which any write moves).
 */
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import type { SQLInputValue } from "node:sqlite"
import { WDE } from "../../data/DataError.ts"
import { Database, type Row } from "../platform/Database.ts"
import { PLAN_TIMEOUT_SECONDS, Profile } from "../platform/Profile.ts"
import { CurrentRequestNote, type IndexAdvice } from "../platform/requestNote.ts"
import type { Reject } from "../platform/responses.ts"
import { attempt, EngineFailure } from "../store/engineFailures.ts"
import type { Fragment } from "../store/sql.ts"
import { isObject } from "../store/values.ts"
import { DataCollections } from "./DataCollections.ts"
import { publicId } from "./environments.ts"
import { Indexes } from "./Indexes.ts"

/** One read of a collection's items, as the judge weighs it. */
export interface JudgedRead {
  /** The collection's key (a sandbox's included). */
  readonly collectionId: string
  /** The read's condition on the items, after `collection_id = ?`. */
  readonly where: Fragment
  /** What follows the condition: the read's order (and limit), which an index may serve. */
  readonly tail?: Fragment | undefined
  /** The fields the read filters and sorts by, to index in that order; none: the read takes only its page. */
  readonly fields: ReadonlyArray<string>
  /**
   * The read goes through every item whatever the collection's indexes (a group over the whole
   * collection): only its size decides, and the advice names no field.
   */
  readonly everyItem?: boolean
}

export interface ScansShape {
  /**
   * Judges a read that is about to run: past the threshold it advises an index (for the request's
   * log, see {@link judgedRead}), and under the profile throws the timed-out refusal.
   */
  readonly judge: (read: JudgedRead) => void
}

/** Verdicts kept at most: statements vary with every query shape, as in the database's statement cache. */
const MAX_VERDICTS = 1000

/** A plan step that reads the item table through an index, with the index's name and the terms it seeks on. */
const SEARCH = /^SEARCH data_items USING (?:PRIMARY KEY|(?:COVERING )?INDEX (\S+)) \((.*)\)$/

/** A search term as the plan writes it: the column (`collection_id`, `<expr>`, ...), its comparison, `?`. */
const TERM = /^(<expr>|[\w.]+)(.*)\?$/

/** The columns of an index a search's terms use: one per equality, and one for a range on the next. */
const columnsOf = (terms: string): number => {
  const all = terms.split(" AND ")
  const equal = all.filter((t) => TERM.exec(t)?.[2] === "=").length
  return equal + (equal < all.length ? 1 : 0)
}

/** A step of a plan on the item table: the index it reads through (none: the table's keys), and the terms it seeks on (none: a scan). */
interface Step {
  readonly index: string | undefined
  readonly terms: string | undefined
}

/** How a plan reads the item table: its steps on it, and the sorts it adds for an ORDER BY. */
const readOf = (plan: ReadonlyArray<Row>): { readonly steps: ReadonlyArray<Step>; readonly sorts: number } => {
  const details = plan.map((step) => String(step.detail))
  return {
    steps: details.flatMap((detail): ReadonlyArray<Step> => {
      if (/^SCAN data_items\b/.test(detail)) return [{ index: undefined, terms: undefined }]
      const search = SEARCH.exec(detail)
      return search === null ? [] : [{ index: search[1], terms: search[2]! }]
    }),
    sorts: details.filter((detail) => detail.startsWith("USE TEMP B-TREE FOR ORDER BY")).length
  }
}

/** The fields a filter reads, in the order they appear (operators start with `$`). */
export const filterFields = (filter: unknown): ReadonlyArray<string> => {
  const found = new Set<string>()
  const walk = (node: unknown): void => {
    if (Array.isArray(node)) {
      for (const child of node) walk(child)
      return
    }
    if (!isObject(node)) return
    for (const [key, value] of Object.entries(node)) {
      if (key.startsWith("$")) walk(value)
      else found.add(key)
    }
  }
  walk(filter)
  return [...found]
}

// where a judgement's advice goes while a read runs: reads are synchronous, so the one being judged is the one collecting
let collecting: ((advice: IndexAdvice) => void) | undefined

/**
 * Runs a synchronous read (a query, a count, distinct values, an aggregation) as `attempt` does,
 * keeping the index advice its judgement gave in the request's note for the request log (even when
 * the read was refused for it).
 */
export const judgedRead = <A>(read: () => A): Effect.Effect<A, Reject> =>
  Effect.flatMap(CurrentRequestNote, (note) =>
    attempt(() => {
      const outer = collecting
      collecting = (advice) => {
        if (note !== undefined) note.advice = advice
      }
      try {
        return read()
      } finally {
        collecting = outer
      }
    }))

export class Scans extends Context.Service<Scans, ScansShape>()("sitefx/server/data/Scans") {
  static readonly layer: Layer.Layer<Scans, never, Database | Profile | Indexes | DataCollections> = Layer.effect(
    Scans,
    Effect.gen(function*() {
      const db = yield* Database
      const profile = yield* Profile
      const indexes = yield* Indexes
      const collections = yield* DataCollections

      /** Whether a statement reads its collection's items without an index of the collection, by collection and statement. */
      const verdicts = new Map<string, boolean>()
      /** A collection's item count, and SQLite's count of changed rows when it was taken. */
      const sizes = new Map<string, { readonly changes: number; readonly rows: number }>()
      const forget = () => {
        verdicts.clear()
        sizes.clear()
      }
      // a new or dropped index changes plans, and which indexes are a collection's; so does a restore
      indexes.onChange(() => verdicts.clear())
      collections.onRemove(forget)
      db.onReset(forget)

      const explain = (read: JudgedRead, indexedBy?: string) =>
        readOf(db.all(
          `EXPLAIN QUERY PLAN SELECT 1 FROM data_items${indexedBy === undefined ? "" : ` INDEXED BY "${indexedBy}"`} ` +
            `WHERE collection_id = ? AND ${read.where.sql}${read.tail === undefined ? "" : ` ${read.tail.sql}`}`,
          read.collectionId,
          ...read.where.params,
          ...(read.tail?.params ?? [] as ReadonlyArray<SQLInputValue>)
        ))

      /**
       * Whether the read goes through the collection's items one by one, rather than through an index
       * the platform would have: the items' ids, or one of the collection's own. A plan's step on the
       * item table is served when it seeks on more than the collection's id through the table's keys (their
       * sequence is the order of a read without a sort, which says nothing of its filter), or through such
       * an index seeks on more than the collection's id or gives the read's order. Every index covers the
       * whole item table, so SQLite may read through another collection's (two collections may hold the
       * same index, and it takes either), or prefer the table's order to an index that would serve; so
       * when its plan is not served, the read is still served if SQLite can serve it through one of those
       * indexes, named to it.
       */
      const readsWholeCollection = (read: JudgedRead): boolean => {
        const ordered = read.tail?.sql.includes("ORDER BY") === true
        const usable = new Set(db.all(
          "SELECT sql_name AS name FROM data_indexes WHERE collection_id = ? AND status = 'ACTIVE' " +
            "UNION ALL SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'data_items' AND name LIKE 'sqlite_autoindex_%'",
          publicId(read.collectionId)
        ).map((r) => String(r.name)))
        const served = (plan: ReturnType<typeof readOf>) =>
          plan.steps.length > 0 && plan.steps.every(({ index, terms }) =>
            terms !== undefined && (index === undefined
              ? columnsOf(terms) > 1
              : usable.has(index) && (columnsOf(terms) > 1 || (ordered && plan.sorts === 0))))
        if (served(explain(read))) return false
        return ![...usable].some((name) => {
          try {
            return served(explain(read, name))
          } catch {
            return false // SQLite cannot read through it for this statement (a unique index holds only its own items)
          }
        })
      }

      const verdict = (read: JudgedRead): boolean => {
        const key = `${read.collectionId}\u0000${read.where.sql}\u0000${read.tail?.sql ?? ""}`
        let whole = verdicts.get(key)
        if (whole === undefined) {
          whole = readsWholeCollection(read)
          if (verdicts.size >= MAX_VERDICTS) verdicts.delete(verdicts.keys().next().value as string)
        } else {
          verdicts.delete(key) // least recently used goes first
        }
        verdicts.set(key, whole)
        return whole
      }

      const sizeOf = (collectionId: string): number => {
        const changes = Number(db.get("SELECT total_changes() AS n")?.n ?? 0)
        const known = sizes.get(collectionId)
        if (known !== undefined && known.changes === changes) return known.rows
        const rows = Number(db.get("SELECT COUNT(*) AS n FROM data_items WHERE collection_id = ?", collectionId)?.n ?? 0)
        sizes.set(collectionId, { changes, rows })
        return rows
      }

      return Scans.of({
        judge: (read) => {
          if (read.everyItem !== true && (read.fields.length === 0 || !verdict(read))) return
          const threshold = profile.scanThreshold()
          const rowsScanned = sizeOf(read.collectionId)
          if (rowsScanned <= threshold) return
          const collection = publicId(read.collectionId)
          const fields = read.everyItem === true ? [] : [...read.fields]
          const advice: IndexAdvice = { collection, fields, rowsScanned }
          collecting?.(advice)
          const state = profile.get()
          if (state.profile !== "production") return
          const seconds = PLAN_TIMEOUT_SECONDS[state.plan]
          // the platform fails a data call past its time with WDE0028 "Operation time limit exceeded", answered
          // 429 (the status its external-database adapters give that code), never a 5xx: the call is judged
          throw new EngineFailure({
            status: 429,
            code: WDE.operationTimeLimit,
            description:
              `Operation time limit exceeded: the ${fields.length === 0 ? "read goes through every one of" : "query scans"} ${rowsScanned} items of ${collection} without an index, ` +
              `past the ${seconds} s a ${state.plan} plan's data call may run (the production profile counts ${state.scanRowsPerSecond} items a second); ` +
              (fields.length === 0 ? "no index serves it: a first filter on indexed fields lets it answer" : `an index on ${fields.join(", ")} lets it answer`),
            data: { ...advice, fields, timeoutSeconds: seconds },
            rule: { kind: "bound", id: "data.query.timeout", fields, limit: threshold }
          })
        }
      })
    })
  )
}
