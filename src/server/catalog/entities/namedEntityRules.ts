/**
 * Brands and ribbons: entities that are a unique name (compared without case and surrounding spaces).
 * Create, get, update (revision checked), delete, query, count, get-or-create by name, and the bulk
 * forms of create, update, get-or-create and delete, each reporting every item's fate.
 */
import type { Json } from "../../store/values.ts"
import type { AdminCaller } from "../../platform/Caller.ts"
import {
  alreadyExists,
  bulk,
  checkName,
  createdEvent,
  type Emit,
  type Engine,
  type Kind,
  masked,
  modifiedFields,
  nameKey,
  nextRevision,
  removal,
  revising,
  updatedEvent
} from "./engine.ts"
import type { EntityTableShape } from "./entityTables.ts"

/** The storage side of a named entity: what each call does to its table, inside the caller's transaction. */
export const namedOps = (service: { readonly key: "brand" | "ribbon"; readonly kind: Kind }, table: EntityTableShape, engine: Engine) => {
  const { key: entity, kind } = service
  const taken = (name: string) => alreadyExists(`A ${entity} named ${JSON.stringify(name)} already exists`, { name })

  const create = (input: Json, actor: AdminCaller, emit: Emit): Json => {
    const name = checkName(`${entity}.name`, input["name"])
    const now = engine.now()
    const doc: Json = { id: engine.newId(), revision: "1", createdDate: now, updatedDate: now, name }
    if (!table.insert(doc, nameKey(name))) throw taken(name)
    emit(createdEvent(entity, doc, actor))
    return doc
  }

  const update = (input: Json, mask: ReadonlySet<string> | undefined, actor: AdminCaller, emit: Emit): Json => {
    const current = revising(table, kind, input, entity)
    const patch = masked({ ...(input["name"] === undefined ? {} : { name: input["name"] }) }, mask)
    const name = patch["name"] === undefined ? current["name"] as string : checkName(`${entity}.name`, patch["name"])
    const next: Json = { ...current, name, revision: nextRevision(current), updatedDate: engine.now() }
    if (!table.replace(next, nameKey(name))) throw taken(name)
    emit(updatedEvent(entity, next, modifiedFields(current, next), actor))
    return next
  }

  const remove = removal(table, kind, entity)

  const getOrCreate = (name: unknown, field: string, actor: AdminCaller, emit: Emit): Json => {
    const checked = checkName(field, name)
    return table.byKey(nameKey(checked)) ?? create({ name: checked }, actor, emit)
  }

  return { create, update, remove, getOrCreate }
}
