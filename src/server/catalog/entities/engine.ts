/**
 * What the catalog's v3 entity services share, on the store's engine (store/engine.ts, whose names this
 * file re-exports for them): the 404s of each entity, revisions (the text of an integer, "1" on create,
 * one more on every write; a write naming another revision is refused), the v3 domain events, and the
 * create, update and delete every entity service has.
 */
import { EntityCodes } from "../../../catalog/entities/protocol.ts"
import { domainEvent, failure, found, type Kind, required } from "../../store/engine.ts"
import type { Json } from "../../store/values.ts"
import type { AdminCaller } from "../../platform/Caller.ts"
import type { CatalogEvent, Emit } from "../CatalogEngine.ts"
import type { EntityTableShape } from "./entityTables.ts"

export {
  type BulkAnswer,
  bulk,
  checkName,
  compact,
  type Emit,
  type Engine,
  found,
  invalid,
  type Kind,
  makeEngine,
  maskPaths,
  masked,
  modifiedFields,
  nameKey,
  nextRevision,
  notFound,
  refused,
  reject,
  required
} from "../../store/engine.ts"

export const Kinds = {
  brand: { label: "Brand", notFound: EntityCodes.brandNotFound },
  ribbon: { label: "Ribbon", notFound: EntityCodes.ribbonNotFound },
  infoSection: { label: "Info section", notFound: EntityCodes.infoSectionNotFound },
  customization: { label: "Customization", notFound: EntityCodes.customizationNotFound },
  inventoryItem: { label: "Inventory item", notFound: EntityCodes.inventoryItemNotFound }
} as const satisfies Record<string, Kind>

export const alreadyExists = (description: string, data?: unknown) => failure(409, EntityCodes.alreadyExists, description, data)

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

// events

const fqdnOf = (entity: string) => `wix.stores.catalog.v3.${entity}`

export const createdEvent = (entity: string, doc: Json, actor: AdminCaller): CatalogEvent => domainEvent(fqdnOf(entity), doc, { kind: "created", entity: doc }, actor)

export const updatedEvent = (entity: string, doc: Json, fields: ReadonlyArray<string>, actor: AdminCaller): CatalogEvent =>
  domainEvent(fqdnOf(entity), doc, { kind: "updated", entity: doc, modifiedFields: fields }, actor)

export const deletedEvent = (entity: string, doc: Json, actor: AdminCaller): CatalogEvent => domainEvent(fqdnOf(entity), doc, { kind: "deleted", entity: doc }, actor)

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
