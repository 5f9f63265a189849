/**
 * What a data query costs, judged by the work it does rather than by this machine's speed: SQLite's
 * query plan says whether the statement reads the collection's items through an index or one by one.
 * A query that filters or sorts without a usable index reads every item of the collection; past the
 * plan's threshold (its documented timeout times the scan rate that stands for it, platform/Profile.ts)
 * that is an index advice in the request log, and under the production profile a refusal as the platform
 * answers a call that ran out of time. A query without a filter or sort reads only its page.
 */
import * as Effect from "effect/Effect"
import type { SQLInputValue } from "node:sqlite"
import type { DatabaseShape } from "../platform/Database.ts"
import type { ProfileShape } from "../platform/Profile.ts"
import { PLAN_TIMEOUT_SECONDS } from "../platform/Profile.ts"
import { CurrentRequestNote, type IndexAdvice } from "../platform/requestNote.ts"
import type { Reject } from "../platform/responses.ts"
import { attempt, EngineFailure } from "../store/engineFailures.ts"
import type { Fragment } from "../store/sql.ts"
import { isObject } from "../store/values.ts"

/** A plan step that reads the item table through an index, with the index's name and the terms it seeks on. */
const SEARCH = /^SEARCH data_items USING (?:PRIMARY KEY|(?:COVERING )?INDEX (\S+)) \((.*)\)$/

/**
 * Whether a plan step reads the collection's items without an index of its own: a scan; a search on the
 * collection's id alone through the table's keys; or a search through another collection's index (every
 * index covers the whole item table, so SQLite may use one, where the platform has none for this collection).
 */
const readsWholeCollection = (detail: string, own: ReadonlySet<string>): boolean => {
  if (/^SCAN data_items\b/.test(detail)) return true
  const search = SEARCH.exec(detail)
  if (search === null) return false
  const index = search[1]
  if (index !== undefined && index.startsWith("sfx_idx_")) return !own.has(index)
  return search[2] === "collection_id=?"
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
 * Runs a synchronous read (a query, a count) as `attempt` does, keeping the index advice its judgement
 * gave in the request's note for the request log (even when the read was refused for it).
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

export interface ScanJudge {
  /**
   * Judges one statement over the collection's items (`WHERE collection_id = ? AND <where> <tail>`)
   * that reads `fields`: past the threshold it advises an index, and under the profile throws the
   * timed-out refusal.
   */
  readonly judge: (collectionId: string, publicName: string, where: Fragment, tail: Fragment | undefined, fields: ReadonlyArray<string>) => void
}

export const makeScanJudge = (db: DatabaseShape, profile: ProfileShape): ScanJudge => ({
  judge: (collectionId, publicName, where, tail, fields) => {
    if (fields.length === 0) return
    const plan = db.all(
      `EXPLAIN QUERY PLAN SELECT 1 FROM data_items WHERE collection_id = ? AND ${where.sql}${tail === undefined ? "" : ` ${tail.sql}`}`,
      collectionId,
      ...where.params,
      ...(tail?.params ?? [] as ReadonlyArray<SQLInputValue>)
    )
    const own = new Set(db.all("SELECT sql_name FROM data_indexes WHERE collection_id = ? AND status = 'ACTIVE'", publicName).map((r) => String(r.sql_name)))
    if (!plan.some((step) => readsWholeCollection(String(step.detail), own))) return
    const threshold = profile.scanThreshold()
    const rowsScanned = Number(db.get("SELECT COUNT(*) AS n FROM data_items WHERE collection_id = ?", collectionId)?.n ?? 0)
    if (rowsScanned <= threshold) return
    const advice: IndexAdvice = { collection: publicName, fields, rowsScanned }
    collecting?.(advice)
    const state = profile.get()
    if (state.profile !== "production") return
    const seconds = PLAN_TIMEOUT_SECONDS[state.plan]
    throw new EngineFailure({
      status: 504,
      code: "DEADLINE_EXCEEDED",
      description:
        `The query scans ${rowsScanned} items of ${publicName} without an index, past the ${seconds} s a ${state.plan} plan's data call may run ` +
        `(the production profile counts ${state.scanRowsPerSecond} items a second); an index on ${fields.join(", ")} lets it answer`,
      data: { ...advice, fields: [...fields], timeoutSeconds: seconds },
      rule: { kind: "bound", id: "data.query.timeout", fields: [...fields], limit: threshold }
    })
  }
})
