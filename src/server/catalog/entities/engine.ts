/**
 * What every entity service of the local platform's store shares: refusals in the platform's shape,
 * revisions (the text of an integer, "1" on create, one more on every write; a write naming another
 * revision is refused), write transactions that log their domain events as they commit, and
 * bulk answers that report every item's fate in request order.
 */
import * as Effect from "effect/Effect"
import { randomUUID } from "node:crypto"
import type { ItemMetadata } from "../../../catalog/wire/common.ts"
import { EntityCodes } from "../../../catalog/entities/protocol.ts"
import { attempt, catchFailure, EngineFailure, toItemError, toReject } from "../../store/engineFailures.ts"
import type { Json } from "../../store/values.ts"
import type { AdminCaller } from "../../platform/Caller.ts"
import type { DatabaseShape } from "../../platform/Database.ts"
import type { Reject } from "../../platform/responses.ts"
import { isoDate, type ServerClockShape } from "../../platform/ServerClock.ts"
import type { CatalogEvent, CatalogEventsShape, Emit } from "../CatalogEvents.ts"
import type { EntityTableShape } from "./entityTables.ts"

/** Collects the events of a write; they are logged in its transaction. */
export type { Emit } from "../CatalogEvents.ts"

export interface Engine {
  readonly db: DatabaseShape
  readonly now: () => string
  readonly newId: () => string
  /** Runs storage code in one transaction; an EngineFailure it throws is the answer; its events are logged in it. */
  readonly commit: <A>(f: (emit: Emit) => A) => Effect.Effect<A, Reject>
  /** Read-only storage code; an EngineFailure it throws is the answer. */
  readonly read: <A>(f: () => A) => Effect.Effect<A, Reject>
}

export const makeEngine = (db: DatabaseShape, clock: ServerClockShape, events: CatalogEventsShape): Engine => ({
  db,
  now: () => isoDate(clock.millis()),
  newId: () => randomUUID(),
  read: attempt,
  commit: (f) => attempt(() => events.transaction(f))
})

// refusals

/** A refusal as the route's failure. */
export const reject = (failure: EngineFailure): Effect.Effect<never, Reject> => Effect.fail(toReject(failure))

const failure = (status: number, code: string, description: string, data?: unknown) =>
  new EngineFailure({ status, code, description, ...(data === undefined ? {} : { data }) })

/** What each entity's 404 says: its label and application code. */
export interface Kind {
  readonly label: string
  readonly notFound: string
}

export const Kinds = {
  brand: { label: "Brand", notFound: EntityCodes.brandNotFound },
  ribbon: { label: "Ribbon", notFound: EntityCodes.ribbonNotFound },
  infoSection: { label: "Info section", notFound: EntityCodes.infoSectionNotFound },
  customization: { label: "Customization", notFound: EntityCodes.customizationNotFound },
  inventoryItem: { label: "Inventory item", notFound: EntityCodes.inventoryItemNotFound }
} as const satisfies Record<string, Kind>

export const notFound = (kind: Kind, id: string) => failure(404, kind.notFound, `${kind.label} ${JSON.stringify(id)} was not found`)

/** The entity, or its 404. */
export const found = (doc: Json | undefined, kind: Kind, id: string): Json => {
  if (doc === undefined) throw notFound(kind, id)
  return doc
}

export const alreadyExists = (description: string, data?: unknown) => failure(409, EntityCodes.alreadyExists, description, data)

/** A 400 naming one field, with the platform's rule name (`REQUIRED_FIELD`, `ONLY_SPACES_STRING_ERROR`, ...). */
export const invalid = (field: string, description: string, rule = "OTHER") =>
  new EngineFailure({
    status: 400,
    code: "VALIDATION_ERROR",
    description,
    violations: [{ field, description, violatedRule: rule, ruleName: rule, data: {} }]
  })

export const required = (field: string) => invalid(field, `${field} is required`, "REQUIRED_FIELD")

/** A 400 with an application code (a rule the entity's state breaks, not a field's shape). */
export const refused = (code: string, description: string, data?: unknown) => failure(400, code, description, data)

/** A name the platform takes: not empty, not only spaces. */
export const checkName = (field: string, value: unknown): string => {
  if (typeof value !== "string" || value === "") throw required(field)
  if (value.trim() === "") throw invalid(field, `${field} must not be only spaces`, "ONLY_SPACES_STRING_ERROR")
  return value
}

/** Names compare without case and surrounding spaces. */
export const nameKey = (name: string): string => name.trim().toLowerCase()

// revisions

/** The write names the entity's current revision, or it is refused (missing: 400; another: 409). */
export const checkRevision = (kind: Kind, current: Json, sent: unknown, field: string): void => {
  if (sent === undefined || sent === null || sent === "") throw required(field)
  if (String(sent) !== current["revision"]) {
    throw failure(
      409,
      EntityCodes.revisionMismatch,
      `${kind.label} ${String(current["id"])} is at revision ${String(current["revision"])}, not ${String(sent)}: read it again and retry`,
      { currentRevision: current["revision"] }
    )
  }
}

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

// events

const fqdnOf = (entity: string) => `wix.stores.catalog.v3.${entity}`

type EntityChange = Exclude<Extract<CatalogEvent, { readonly _tag: "Domain" }>["change"], { readonly kind: "action" }>

/** A v3 domain event on one entity: its type (`..._created`, `_updated`, `_deleted`) follows from the change. */
const domainEvent = (entity: string, doc: Json, change: EntityChange, actor: AdminCaller): CatalogEvent => ({
  _tag: "Domain",
  type: `${fqdnOf(entity)}_${change.kind}`,
  entityFqdn: fqdnOf(entity),
  entityId: String(doc["id"]),
  change,
  actor
})

export const createdEvent = (entity: string, doc: Json, actor: AdminCaller): CatalogEvent => domainEvent(entity, doc, { kind: "created", entity: doc }, actor)

export const updatedEvent = (entity: string, doc: Json, fields: ReadonlyArray<string>, actor: AdminCaller): CatalogEvent =>
  domainEvent(entity, doc, { kind: "updated", entity: doc, modifiedFields: fields }, actor)

export const deletedEvent = (entity: string, doc: Json, actor: AdminCaller): CatalogEvent => domainEvent(entity, doc, { kind: "deleted", entity: doc }, actor)

// bulk

export interface BulkAnswer<K extends string> {
  readonly results: ReadonlyArray<{ readonly itemMetadata: ItemMetadata } & { readonly [P in K]?: Json }>
  readonly bulkActionMetadata: { readonly totalSuccesses: number; readonly totalFailures: number; readonly undetailedFailures: number }
}

/**
 * Runs `f` for each item (inside the caller's transaction): an EngineFailure becomes that item's error and
 * the others go on. `f` answers the entity's id and, when the caller wants it back, the entity.
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

/** Drops the keys whose value is undefined (Schema-decoded optional keys are absent, but built objects may carry them). */
export const compact = (doc: Json): Json => Object.fromEntries(Object.entries(doc).filter(([, v]) => v !== undefined))

// what the entities' writes share

/**
 * What the shared calls do to the table, inside the caller's transaction. `field` names the entity in
 * refusals: its key (`inventoryItem`), or its place in a bulk call (`inventoryItems[2]`); a service
 * whose refusals always name the same fields takes no `field`.
 */
export interface EntityOps {
  readonly create: (input: Json, actor: AdminCaller, emit: Emit, field: string) => Json
  readonly update: (input: Json, mask: ReadonlySet<string> | undefined, actor: AdminCaller, emit: Emit, field: string) => Json
  readonly remove: (id: string, actor: AdminCaller, emit: Emit) => void
}

/** The entity a write names by `${field}.id`, at the revision it names in `${field}.revision` (else 400, 404 or 409). */
export const revising = (table: EntityTableShape, kind: Kind, input: Json, field: string): Json => {
  const id = input["id"]
  if (typeof id !== "string" || id === "") throw required(`${field}.id`)
  const current = found(table.get(id), kind, id)
  checkRevision(kind, current, input["revision"], `${field}.revision`)
  return current
}

/** The delete of one entity by id (404 when there is none), logging its `entity` deleted event. */
export const removal = (table: EntityTableShape, kind: Kind, entity: string): EntityOps["remove"] => (id, actor, emit) => {
  const current = found(table.get(id), kind, id)
  table.remove(id)
  emit(deletedEvent(entity, current, actor))
}
