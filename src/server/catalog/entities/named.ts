/**
 * Brands and ribbons: entities that are a unique name (compared without case and surrounding spaces).
 * Create, get, update (revision checked), delete, query, count, get-or-create by name, and the bulk
 * forms of create, update, get-or-create and delete, each reporting every item's fate.
 */
import * as Effect from "effect/Effect"
import type * as Schema from "effect/Schema"
import type * as HttpRouter from "effect/http/HttpRouter"
import { EntityPaths, MAX_ENTITY_PAGE } from "../../../catalog/v3/protocol.ts"
import * as W from "../../../catalog/wire/entities.ts"
import type { Json } from "../../data/values.ts"
import type { AdminCaller } from "../../oauth/Callers.ts"
import { reply, replyEmpty } from "../../platform/responses.ts"
import { body, pathParam, route } from "../../platform/routing.ts"
import type { StoreAccess } from "../access.ts"
import {
  alreadyExists,
  bulk,
  checkName,
  checkRevision,
  createdEvent,
  deletedEvent,
  type Emit,
  type Engine,
  found,
  type Kind,
  Kinds,
  masked,
  maskPaths,
  modifiedFields,
  nameKey,
  nextRevision,
  required,
  updatedEvent
} from "./engine.ts"
import { pageOf, pagingOf, queryRoutes, withCount, withPathId } from "./http.ts"
import type { EntityTableShape } from "./store.ts"

// the Schemas of one service's calls; their decoded values are read as JSON documents
type AnySchema = Schema.Codec<any, any>

interface NamedService {
  /** Event slug and the wire key of one entity (`brand`). */
  readonly entity: "brand" | "ribbon"
  readonly kind: Kind
  readonly listKey: string
  readonly countRequest: string
  readonly countField: string
  readonly maxLimit: number
  readonly paths: {
    readonly collection: HttpRouter.PathInput
    readonly item: HttpRouter.PathInput
    readonly query: HttpRouter.PathInput
    readonly count: HttpRouter.PathInput
    readonly getOrCreate: HttpRouter.PathInput
    readonly bulkCreate: HttpRouter.PathInput
    readonly bulkUpdate: HttpRouter.PathInput
    readonly bulkGetOrCreate: HttpRouter.PathInput
    readonly bulkDelete: HttpRouter.PathInput
  }
  readonly params: { readonly id: string; readonly name: string; readonly names: string; readonly ids: string; readonly list: string }
  readonly schemas: {
    readonly create: AnySchema
    readonly update: AnySchema
    readonly response: AnySchema
    readonly get: AnySchema
    readonly remove: AnySchema
    readonly query: AnySchema
    readonly page: AnySchema
    readonly getOrCreate: AnySchema
    readonly bulkCreate: AnySchema
    readonly bulkUpdate: AnySchema
    readonly bulkGetOrCreate: AnySchema
    readonly bulkDelete: AnySchema
    readonly bulkResponse: AnySchema
  }
}

const BRANDS: NamedService = {
  entity: "brand",
  kind: Kinds.brand,
  listKey: "brands",
  countRequest: "ASSIGNED_PRODUCTS_COUNT",
  countField: "assignedProductsCount",
  maxLimit: MAX_ENTITY_PAGE.brands,
  paths: {
    collection: EntityPaths.brands,
    item: `${EntityPaths.brands}/:brandId`,
    query: EntityPaths.brandsQuery,
    count: EntityPaths.brandsCount,
    getOrCreate: EntityPaths.brandGetOrCreate,
    bulkCreate: EntityPaths.brandsBulkCreate,
    bulkUpdate: EntityPaths.brandsBulkUpdate,
    bulkGetOrCreate: EntityPaths.brandsBulkGetOrCreate,
    bulkDelete: EntityPaths.brandsBulkDelete
  },
  params: { id: "brandId", name: "brandName", names: "brandNames", ids: "brandIds", list: "brands" },
  schemas: {
    create: W.BrandRequest,
    update: W.BrandUpdateRequest,
    response: W.BrandResponse,
    get: W.GetBrandRequest,
    remove: W.DeleteBrandRequest,
    query: W.QueryBrandsRequest,
    page: W.QueryBrandsResponse,
    getOrCreate: W.GetOrCreateBrandRequest,
    bulkCreate: W.BulkCreateBrandsRequest,
    bulkUpdate: W.BulkUpdateBrandsRequest,
    bulkGetOrCreate: W.BulkGetOrCreateBrandsRequest,
    bulkDelete: W.BulkDeleteBrandsRequest,
    bulkResponse: W.BulkBrandsResponse
  }
}

const RIBBONS: NamedService = {
  entity: "ribbon",
  kind: Kinds.ribbon,
  listKey: "ribbons",
  countRequest: "ASSIGNED_PRODUCT_COUNT",
  countField: "assignedProductCount",
  maxLimit: MAX_ENTITY_PAGE.ribbons,
  paths: {
    collection: EntityPaths.ribbons,
    item: `${EntityPaths.ribbons}/:ribbonId`,
    query: EntityPaths.ribbonsQuery,
    count: EntityPaths.ribbonsCount,
    getOrCreate: EntityPaths.ribbonGetOrCreate,
    bulkCreate: EntityPaths.ribbonsBulkCreate,
    bulkUpdate: EntityPaths.ribbonsBulkUpdate,
    bulkGetOrCreate: EntityPaths.ribbonsBulkGetOrCreate,
    bulkDelete: EntityPaths.ribbonsBulkDelete
  },
  params: { id: "ribbonId", name: "ribbonName", names: "ribbonNames", ids: "ribbonIds", list: "ribbons" },
  schemas: {
    create: W.RibbonRequest,
    update: W.RibbonUpdateRequest,
    response: W.RibbonResponse,
    get: W.GetRibbonRequest,
    remove: W.DeleteRibbonRequest,
    query: W.QueryRibbonsRequest,
    page: W.QueryRibbonsResponse,
    getOrCreate: W.GetOrCreateRibbonRequest,
    bulkCreate: W.BulkCreateRibbonsRequest,
    bulkUpdate: W.BulkUpdateRibbonsRequest,
    bulkGetOrCreate: W.BulkGetOrCreateRibbonsRequest,
    bulkDelete: W.BulkDeleteRibbonsRequest,
    bulkResponse: W.BulkRibbonsResponse
  }
}

/** The storage side of a named entity: what each call does to its table, inside the caller's transaction. */
export const namedOps = (service: Pick<NamedService, "entity" | "kind">, table: EntityTableShape, engine: Engine) => {
  const { entity, kind } = service
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
    const id = input["id"]
    if (typeof id !== "string" || id === "") throw required(`${entity}.id`)
    const current = found(table.get(id), kind, id)
    checkRevision(kind, current, input["revision"], `${entity}.revision`)
    const patch = masked({ ...(input["name"] === undefined ? {} : { name: input["name"] }) }, mask)
    const name = patch["name"] === undefined ? current["name"] as string : checkName(`${entity}.name`, patch["name"])
    const next: Json = { ...current, name, revision: nextRevision(current), updatedDate: engine.now() }
    if (!table.replace(next, nameKey(name))) throw taken(name)
    emit(updatedEvent(entity, next, modifiedFields(current, next), actor))
    return next
  }

  const remove = (id: string, actor: AdminCaller, emit: Emit): void => {
    const current = found(table.get(id), kind, id)
    table.remove(id)
    emit(deletedEvent(entity, current, actor))
  }

  const getOrCreate = (name: unknown, field: string, actor: AdminCaller, emit: Emit): Json => {
    const checked = checkName(field, name)
    return table.byKey(nameKey(checked)) ?? create({ name: checked }, actor, emit)
  }

  return { create, update, remove, getOrCreate }
}

const namedRoutes = (service: NamedService, table: EntityTableShape, engine: Engine, access: StoreAccess): ReadonlyArray<HttpRouter.Route<never, never>> => {
  const { entity, kind, schemas, paths, params } = service
  const ops = namedOps(service, table, engine)
  const count = (doc: Json, fields: ReadonlyArray<string> | undefined) => withCount(doc, fields, service.countRequest, service.countField)
  const one = (doc: Json, fields?: ReadonlyArray<string>) => reply(schemas.response, { [entity]: count(doc, fields) })
  const returned = (doc: Json, wanted: boolean | undefined, fields?: ReadonlyArray<string>) => (wanted === true ? count(doc, fields) : undefined)

  return [
    route("POST", paths.collection, Effect.gen(function*() {
      const actor = yield* access.writer
      const request = (yield* body(schemas.create)) as Json
      const doc = yield* engine.commit((emit) => ops.create(request[entity] as Json, actor, emit))
      return one(doc)
    })),
    route("GET", paths.item, Effect.gen(function*() {
      yield* access.reader
      const request = (yield* withPathId(schemas.get, params.id)) as Json
      const id = request[params.id] as string
      const doc = yield* engine.read(() => found(table.get(id), kind, id))
      return one(doc, request["fields"] as ReadonlyArray<string> | undefined)
    })),
    route("PATCH", paths.item, Effect.gen(function*() {
      const actor = yield* access.writer
      const id = yield* pathParam(params.id)
      const request = (yield* body(schemas.update)) as Json
      const input = { ...(request[entity] as Json), id }
      const doc = yield* engine.commit((emit) => ops.update(input, undefined, actor, emit))
      return one(doc, request["fields"] as ReadonlyArray<string> | undefined)
    })),
    route("DELETE", paths.item, Effect.gen(function*() {
      const actor = yield* access.writer
      const id = yield* pathParam(params.id)
      yield* engine.commit((emit) => ops.remove(id, actor, emit))
      return replyEmpty()
    })),
    ...queryRoutes(paths.query, schemas.query, (request: Json) =>
      Effect.gen(function*() {
        yield* access.reader
        const page = yield* pageOf(engine, table, request["query"] as W.EntityQuery | undefined, service.maxLimit)
        const fields = request["fields"] as ReadonlyArray<string> | undefined
        return reply(schemas.page, { [service.listKey]: page.items.map((d) => count(d, fields)), pagingMetadata: pagingOf(page) })
      })),
    route("POST", paths.count, Effect.gen(function*() {
      yield* access.reader
      const request = yield* body(W.CountRequest)
      const n = yield* engine.read(() => table.count(request.filter ?? undefined))
      return reply(W.CountResponse, { count: n })
    })),
    route("POST", paths.getOrCreate, Effect.gen(function*() {
      const actor = yield* access.writer
      const request = (yield* body(schemas.getOrCreate)) as Json
      const doc = yield* engine.commit((emit) => ops.getOrCreate(request[params.name], params.name, actor, emit))
      return one(doc, request["fields"] as ReadonlyArray<string> | undefined)
    })),
    route("POST", paths.bulkCreate, Effect.gen(function*() {
      const actor = yield* access.writer
      const request = (yield* body(schemas.bulkCreate)) as Json
      const answer = yield* engine.commit((emit) =>
        bulk(request[params.list] as ReadonlyArray<Json>, (input) => {
          const doc = ops.create(input, actor, emit)
          return { id: doc["id"] as string, entity: returned(doc, request["returnEntity"] as boolean | undefined) }
        }))
      return reply(schemas.bulkResponse, answer)
    })),
    route("POST", paths.bulkUpdate, Effect.gen(function*() {
      const actor = yield* access.writer
      const request = (yield* body(schemas.bulkUpdate)) as Json
      const fields = request["fields"] as ReadonlyArray<string> | undefined
      const answer = yield* engine.commit((emit) =>
        bulk(request[params.list] as ReadonlyArray<Json>, (m) => {
          const doc = ops.update((m[entity] ?? {}) as Json, maskPaths(m["fieldMask"] as string | undefined), actor, emit)
          return { id: doc["id"] as string, entity: returned(doc, request["returnEntity"] as boolean | undefined, fields) }
        }))
      return reply(schemas.bulkResponse, answer)
    })),
    route("POST", paths.bulkGetOrCreate, Effect.gen(function*() {
      const actor = yield* access.writer
      const request = (yield* body(schemas.bulkGetOrCreate)) as Json
      const fields = request["fields"] as ReadonlyArray<string> | undefined
      const answer = yield* engine.commit((emit) =>
        bulk(request[params.names] as ReadonlyArray<string>, (name, i) => {
          const doc = ops.getOrCreate(name, `${params.names}[${i}]`, actor, emit)
          return { id: doc["id"] as string, entity: count(doc, fields) }
        }))
      return reply(schemas.bulkResponse, answer)
    })),
    route("POST", paths.bulkDelete, Effect.gen(function*() {
      const actor = yield* access.writer
      const request = (yield* body(schemas.bulkDelete)) as Json
      const answer = yield* engine.commit((emit) =>
        bulk(request[params.ids] as ReadonlyArray<string>, (id) => {
          ops.remove(id, actor, emit)
          return { id }
        }))
      return reply(W.BulkDeleteResponse, answer)
    }))
  ]
}

export const brandRoutes = (table: EntityTableShape, engine: Engine, access: StoreAccess) => namedRoutes(BRANDS, table, engine, access)
export const ribbonRoutes = (table: EntityTableShape, engine: Engine, access: StoreAccess) => namedRoutes(RIBBONS, table, engine, access)
