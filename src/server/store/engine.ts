/**
 * The store's write engine, shared by the modules whose storage is documents in tables (the catalog's
 * products, collections, entities, carts and subscription options; the shop): storage code is
 * synchronous and throws an {@link EngineFailure}; {@link Engine.read} runs it and answers the failure
 * as the platform's refusal, and {@link Engine.commit} runs it in one transaction with the events it
 * emits logged in that transaction (a refused write logs nothing and changes nothing). Bulk calls report
 * every item's fate in request order.
 */
import * as Effect from "effect/Effect"
import { randomUUID } from "node:crypto"
import type { ItemMetadata } from "../../catalog/wire/common.ts"
import type { FieldViolation } from "../../http/wire.ts"
import type { Caller } from "../platform/Caller.ts"
import type { DatabaseShape } from "../platform/Database.ts"
import type { Reject } from "../platform/responses.ts"
import { isoDate, type ServerClockShape } from "../platform/ServerClock.ts"
import { domainEventLog, type DomainChange, type LoggedEvent } from "./domainLog.ts"
import { attempt, catchFailure, EngineFailure, toItemError, toReject } from "./engineFailures.ts"
import type { SiteEventsShape } from "./SiteEvents.ts"
import type { Json } from "./values.ts"

/** Collects the events of a write; they are logged in its transaction. */
export type Emit = (event: LoggedEvent) => void

/** Where a module's writes log their events: in the write's own transaction. */
export interface EventLog {
  /** Runs a write in one transaction, with the events it emits logged in it. */
  readonly transaction: <A>(write: (emit: Emit) => A) => A
}

/**
 * The event log of one codec (`catalog/1`) in the site's log; make it once per codec, when the module's
 * layer is built (it registers the codec's reader with the log).
 */
export const eventLog = (db: DatabaseShape, log: SiteEventsShape, codec: string): EventLog => {
  const record = domainEventLog(log, codec)
  return {
    transaction: (write) =>
      db.transaction(() => {
        const emitted: Array<LoggedEvent> = []
        const result = write((e) => emitted.push(e))
        record(emitted)
        return result
      })
  }
}

export interface Engine {
  readonly db: DatabaseShape
  readonly now: () => string
  readonly newId: () => string
  /** Runs storage code in one transaction; an EngineFailure it throws is the answer; its events are logged in it. */
  readonly commit: <A>(f: (emit: Emit) => A) => Effect.Effect<A, Reject>
  /** Read-only storage code; an EngineFailure it throws is the answer. */
  readonly read: <A>(f: () => A) => Effect.Effect<A, Reject>
}

export const makeEngine = (db: DatabaseShape, clock: ServerClockShape, events: EventLog): Engine => ({
  db,
  now: () => isoDate(clock.millis()),
  newId: () => randomUUID(),
  read: attempt,
  commit: (f) => attempt(() => events.transaction(f))
})

// refusals

/** A refusal as the route's failure. */
export const reject = (failure: EngineFailure): Effect.Effect<never, Reject> => Effect.fail(toReject(failure))

/** A refusal with an application code (and its data, when it has some). */
export const failure = (status: number, code: string, description: string, data?: unknown) =>
  new EngineFailure({ status, code, description, ...(data === undefined ? {} : { data }) })

/** What a thing's 404 says: its label and application code. */
export interface Kind {
  readonly label: string
  readonly notFound: string
}

export const notFound = (kind: Kind, id: string) => failure(404, kind.notFound, `${kind.label} ${JSON.stringify(id)} was not found`)

/** The document, or its 404. */
export const found = (doc: Json | undefined, kind: Kind, id: string): Json => {
  if (doc === undefined) throw notFound(kind, id)
  return doc
}

/** A 400 naming one field, with the platform's rule name (`REQUIRED_FIELD`, `ONLY_SPACES_STRING_ERROR`, ...). */
export const invalid = (field: string, description: string, rule = "OTHER") =>
  new EngineFailure({
    status: 400,
    code: "VALIDATION_ERROR",
    description,
    violations: [{ field, description, violatedRule: rule, ruleName: rule, data: {} }]
  })

/** A 400 with the field violations a request broke, as the v1 APIs answer them. */
export const violations = (description: string, list: ReadonlyArray<FieldViolation>) =>
  new EngineFailure({ status: 400, code: "INVALID_ARGUMENT", description, violations: list })

export const required = (field: string) => invalid(field, `${field} is required`, "REQUIRED_FIELD")

/** A 400 with an application code (a rule the thing's state breaks, not a field's shape). */
export const refused = (code: string, description: string, data?: unknown) => failure(400, code, description, data)

/** A name the platform takes: not empty, not only spaces. */
export const checkName = (field: string, value: unknown): string => {
  if (typeof value !== "string" || value === "") throw required(field)
  if (value.trim() === "") throw invalid(field, `${field} must not be only spaces`, "ONLY_SPACES_STRING_ERROR")
  return value
}

/** Names compare without case and surrounding spaces. */
export const nameKey = (name: string): string => name.trim().toLowerCase()

// revisions and partial writes

export const nextRevision = (doc: Json): string => String(Number(doc["revision"] ?? "0") + 1)

/** The top-level fields whose values differ (system fields aside), for `modifiedFields`. */
export const modifiedFields = (before: Json, after: Json): ReadonlyArray<string> => {
  const keys = new Set([...Object.keys(before), ...Object.keys(after)])
  return [...keys].filter((k) => k !== "revision" && k !== "updatedDate" && JSON.stringify(before[k]) !== JSON.stringify(after[k]))
}

/** A field mask on the wire: paths joined with commas; undefined means "every field given". */
export const maskPaths = (mask: string | undefined): ReadonlySet<string> | undefined =>
  mask === undefined || mask.trim() === "" ? undefined : new Set(mask.split(",").map((p) => p.trim().split(".")[0]!).filter((p) => p !== ""))

/** The fields of `patch` a write applies: all of them, or those its mask names. */
export const masked = (patch: Json, mask: ReadonlySet<string> | undefined): Json =>
  mask === undefined ? patch : Object.fromEntries(Object.entries(patch).filter(([k]) => mask.has(k)))

/** Drops the keys whose value is undefined (Schema-decoded optional keys are absent, but built objects may carry them). */
export const compact = (doc: Json): Json => Object.fromEntries(Object.entries(doc).filter(([, v]) => v !== undefined))

// events

/** A domain event on one entity of `entityFqdn`: its type (`<fqdn>_created`, `_updated`, `_deleted`) follows from the change. */
export const domainEvent = (
  entityFqdn: string,
  doc: Json,
  change: Exclude<DomainChange, { readonly kind: "action" }>,
  actor: Caller
): LoggedEvent => ({
  _tag: "Domain",
  type: `${entityFqdn}_${change.kind}`,
  entityFqdn,
  entityId: String(doc["id"]),
  change,
  actor
})

/** A v1 ("non-domain") event: its full type and the body the platform sends for it. */
export const legacyEvent = (type: string, entityId: string, body: Json, actor: Caller): LoggedEvent => ({ _tag: "Legacy", type, entityId, body, actor })

// bulk

export interface BulkAnswer<K extends string> {
  readonly results: ReadonlyArray<{ readonly itemMetadata: ItemMetadata } & { readonly [P in K]?: Json }>
  readonly bulkActionMetadata: { readonly totalSuccesses: number; readonly totalFailures: number; readonly undetailedFailures: number }
}

/**
 * Runs `f` for each item (inside the caller's transaction): an EngineFailure becomes that item's error and
 * the others go on. `f` answers the item's id and, when the caller wants it back, the entity.
 */
export const bulk = <A, K extends string = "item">(
  items: ReadonlyArray<A>,
  f: (item: A, index: number) => { readonly id: string; readonly entity?: Json | undefined },
  key: K = "item" as K
): BulkAnswer<K> => {
  let successes = 0
  const results = items.map((item, originalIndex) => {
    const outcome = catchFailure(() => f(item, originalIndex))
    if (outcome.ok) {
      successes++
      return {
        itemMetadata: { id: outcome.value.id, originalIndex, success: true },
        ...(outcome.value.entity === undefined ? {} : { [key]: outcome.value.entity })
      }
    }
    const id = idOf(item)
    return { itemMetadata: { ...(id === undefined ? {} : { id }), originalIndex, success: false, error: toItemError(outcome.failure) } }
  })
  return {
    results: results as BulkAnswer<K>["results"],
    bulkActionMetadata: { totalSuccesses: successes, totalFailures: items.length - successes, undetailedFailures: 0 }
  }
}

/** The id a bulk item names, for its result when it failed. */
const idOf = (item: unknown): string | undefined => {
  if (typeof item === "string") return item
  if (typeof item !== "object" || item === null) return undefined
  const record = item as Json
  for (const k of ["id", "inventoryItemId", "customizationId"]) if (typeof record[k] === "string") return record[k] as string
  for (const v of Object.values(record)) {
    if (typeof v === "object" && v !== null && typeof (v as Json)["id"] === "string") return (v as Json)["id"] as string
  }
  return undefined
}
