/**
 * Brands and ribbons: entities that are a unique name (compared without case and surrounding spaces).
 * Create, get, update (revision checked), delete, query, count, get-or-create by name, and the bulk
 * forms of create, update, get-or-create and delete, each reporting every item's fate.
 */
import type * as Schema from "effect/Schema"
import type * as HttpRouter from "effect/http/HttpRouter"
import { EntityPaths, MAX_ENTITY_PAGE } from "../../../catalog/entities/protocol.ts"
import * as W from "../../../catalog/entities/wire/index.ts"
import type { Json } from "../../store/values.ts"
import type { AdminCaller } from "../../platform/Caller.ts"
import type { StoreAccess } from "../access.ts"
import {
  alreadyExists,
  bulk,
  checkName,
  createdEvent,
  type Emit,
  type Engine,
  Kinds,
  masked,
  modifiedFields,
  nameKey,
  nextRevision,
  updatedEvent
} from "./engine.ts"
import { entityCrud, type EntityService, outcome, removal, revising } from "./crud.ts"
import type { EntityTableShape } from "./entityTables.ts"

interface NamedService extends EntityService {
  /** Event slug and the wire key of one entity (`brand`). */
  readonly key: "brand" | "ribbon"
  /** Get-or-create by name (`brandName`), and its bulk form over a list of names (`brandNames`). */
  readonly getOrCreate: {
    readonly path: HttpRouter.PathInput
    readonly bulkPath: HttpRouter.PathInput
    readonly schema: Schema.Codec<any, any>
    readonly bulkSchema: Schema.Codec<any, any>
    readonly name: string
    readonly names: string
  }
}

const BRANDS: NamedService = {
  key: "brand",
  list: "brands",
  idParam: "brandId",
  kind: Kinds.brand,
  maxLimit: MAX_ENTITY_PAGE.brands,
  counted: { request: "ASSIGNED_PRODUCTS_COUNT", field: "assignedProductsCount" },
  paths: {
    collection: EntityPaths.brands,
    query: EntityPaths.brandsQuery,
    count: EntityPaths.brandsCount,
    bulkCreate: EntityPaths.brandsBulkCreate,
    bulkUpdate: EntityPaths.brandsBulkUpdate,
    bulkDelete: EntityPaths.brandsBulkDelete
  },
  schemas: W.BrandCalls,
  getOrCreate: {
    path: EntityPaths.brandGetOrCreate,
    bulkPath: EntityPaths.brandsBulkGetOrCreate,
    schema: W.GetOrCreateBrandRequest,
    bulkSchema: W.BulkGetOrCreateBrandsRequest,
    name: "brandName",
    names: "brandNames"
  }
}

const RIBBONS: NamedService = {
  key: "ribbon",
  list: "ribbons",
  idParam: "ribbonId",
  kind: Kinds.ribbon,
  maxLimit: MAX_ENTITY_PAGE.ribbons,
  counted: { request: "ASSIGNED_PRODUCT_COUNT", field: "assignedProductCount" },
  paths: {
    collection: EntityPaths.ribbons,
    query: EntityPaths.ribbonsQuery,
    count: EntityPaths.ribbonsCount,
    bulkCreate: EntityPaths.ribbonsBulkCreate,
    bulkUpdate: EntityPaths.ribbonsBulkUpdate,
    bulkDelete: EntityPaths.ribbonsBulkDelete
  },
  schemas: W.RibbonCalls,
  getOrCreate: {
    path: EntityPaths.ribbonGetOrCreate,
    bulkPath: EntityPaths.ribbonsBulkGetOrCreate,
    schema: W.GetOrCreateRibbonRequest,
    bulkSchema: W.BulkGetOrCreateRibbonsRequest,
    name: "ribbonName",
    names: "ribbonNames"
  }
}

/** The storage side of a named entity: what each call does to its table, inside the caller's transaction. */
export const namedOps = (service: Pick<NamedService, "key" | "kind">, table: EntityTableShape, engine: Engine) => {
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

const namedRoutes = (service: NamedService, table: EntityTableShape, engine: Engine, access: StoreAccess): ReadonlyArray<HttpRouter.Route<never, never>> => {
  const ops = namedOps(service, table, engine)
  const { getOrCreate } = service
  const crud = entityCrud(service, ops, table, engine, access)

  return [
    ...crud.routes,
    crud.write("POST", getOrCreate.path, getOrCreate.schema, (request: Json, actor, emit) =>
      ops.getOrCreate(request[getOrCreate.name], getOrCreate.name, actor, emit)),
    crud.bulkWrite(getOrCreate.bulkPath, getOrCreate.bulkSchema, (request: Json, actor, emit) =>
      bulk(request[getOrCreate.names] as ReadonlyArray<string>, (name, i) => {
        const doc = ops.getOrCreate(name, `${getOrCreate.names}[${i}]`, actor, emit)
        return outcome(doc, crud.shown(doc, request["fields"] as ReadonlyArray<string> | undefined))
      }))
  ]
}

export const brandRoutes = (table: EntityTableShape, engine: Engine, access: StoreAccess) => namedRoutes(BRANDS, table, engine, access)
export const ribbonRoutes = (table: EntityTableShape, engine: Engine, access: StoreAccess) => namedRoutes(RIBBONS, table, engine, access)
