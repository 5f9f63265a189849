/**
 * The calls every catalog v3 entity service answers the same way, built from a descriptor of the
 * service: create (POST to the collection), get, update (PATCH) and delete of one entity by the id in
 * the path, query (GET `.r` or POST), count, and bulk create, update and delete. Writes need an API key
 * and run in one transaction; reads serve visitors, members and API keys. A service adds its own calls
 * (get-or-create, choices, stock adjustments) with the same pieces: {@link EntityCrud.write} and
 * {@link EntityCrud.bulkWrite}.
 */
import * as Effect from "effect/Effect"
import type * as Schema from "effect/Schema"
import type * as HttpRouter from "effect/http/HttpRouter"
import * as W from "../../../catalog/entities/wire/index.ts"
import type { Json } from "../../store/values.ts"
import type { AdminCaller } from "../../platform/Caller.ts"
import { reply, replyEmpty } from "../../platform/responses.ts"
import { body, type Method, pathParam, route } from "../../platform/routing.ts"
import type { StoreAccess } from "../access.ts"
import { bulk, type Emit, type Engine, type EntityOps, found, type Kind, maskPaths } from "./engine.ts"
import { pageOf, pagingOf, queryRoutes, withCount, withPathId } from "./routeParts.ts"
import type { EntityTableShape } from "./entityTables.ts"

// the Schemas of a service's calls; the shared calls read their decoded values as JSON documents
type AnySchema = Schema.Codec<any, any>
type Path = HttpRouter.PathInput
type Fields = ReadonlyArray<string> | undefined

export interface EntityService {
  /** The wire key of one entity in requests and answers (`brand`, `inventoryItem`). */
  readonly key: string
  /** The wire key of a list of them in bulk requests and query answers (`brands`). */
  readonly list: string
  /** The path parameter naming one (`brandId`); a bulk delete lists them under its plural (`brandIds`). */
  readonly idParam: string
  readonly kind: Kind
  readonly maxLimit: number
  /** What `fields` asks the product count with, and the field that answers it (0: the local platform assigns none). */
  readonly counted?: { readonly request: string; readonly field: string }
  /** The key of the entity in a bulk result: `item` unless the service names another. */
  readonly bulkKey?: string
  /** A call whose path is absent is not served, or the service serves it itself. */
  readonly paths: {
    readonly collection: `/${string}`
    readonly query: Path
    readonly count?: Path
    readonly bulkCreate: Path
    readonly bulkUpdate: Path
    readonly bulkDelete?: Path
  }
  /** Named as the wire's `entityCalls` names them, so a service built by it hands its record over whole. */
  readonly schemas: {
    readonly request: AnySchema
    readonly getRequest: AnySchema
    readonly updateRequest: AnySchema
    readonly response: AnySchema
    readonly queryRequest: AnySchema
    readonly queryResponse: AnySchema
    readonly bulkCreateRequest: AnySchema
    readonly bulkUpdateRequest: AnySchema
    readonly bulkDeleteRequest?: AnySchema
    readonly bulkResponse: AnySchema
  }
}

const fieldsOf = (request: unknown): Fields => (request as { readonly fields?: Fields }).fields

/** A bulk item's outcome: the entity's id, and the entity itself when the caller wants it back. */
export const outcome = (doc: Json, entity: Json | undefined) => ({ id: doc["id"] as string, entity })

export const entityCrud = (service: EntityService, ops: EntityOps, table: EntityTableShape, engine: Engine, access: StoreAccess) => {
  const { key, list, idParam, kind, paths, schemas } = service
  const item: Path = `${paths.collection}/:${idParam}`

  /** The entity as readers get it: with its product count when `fields` asks for it. */
  const shown = (doc: Json, fields: Fields): Json =>
    service.counted === undefined ? doc : withCount(doc, fields, service.counted.request, service.counted.field)
  const one = (doc: Json, fields?: Fields) => reply(schemas.response, { [key]: shown(doc, fields) })

  /** A write answering one entity (as the request's `fields` asks); `id` is the path's (empty on paths without one). */
  const write = <A, I>(method: Method, path: Path, schema: Schema.Codec<A, I>, run: (request: A, actor: AdminCaller, emit: Emit, id: string) => Json) =>
    route(method, path, Effect.gen(function*() {
      const actor = yield* access.writer
      const id = yield* pathParam(idParam)
      const request = yield* body(schema)
      return one(yield* engine.commit((emit) => run(request, actor, emit, id)), fieldsOf(request))
    }))

  /** A bulk write: every item's fate, in the service's bulk answer unless another is named. */
  const bulkWrite = <A, I>(
    path: Path,
    schema: Schema.Codec<A, I>,
    run: (request: A, actor: AdminCaller, emit: Emit) => unknown,
    answer: AnySchema = schemas.bulkResponse
  ) =>
    route("POST", path, Effect.gen(function*() {
      const actor = yield* access.writer
      const request = yield* body(schema)
      return reply(answer, yield* engine.commit((emit) => run(request, actor, emit)))
    }))

  /** A bulk item's outcome, with the entity (as `fields` asks) when the request's `returnEntity` wants it back. */
  const bulkResult = (request: { readonly returnEntity?: unknown }, doc: Json, fields?: Fields) =>
    outcome(doc, request.returnEntity === true ? shown(doc, fields) : undefined)
  const bulkKey = service.bulkKey ?? "item"

  const count = (path: Path) =>
    route("POST", path, Effect.gen(function*() {
      yield* access.reader
      const request = yield* body(W.CountRequest)
      return reply(W.CountResponse, { count: yield* engine.read(() => table.count(request.filter ?? undefined)) })
    }))

  const bulkDelete = (path: Path, schema: AnySchema) =>
    bulkWrite(path, schema, (request: Json, actor, emit) =>
      bulk(request[`${idParam}s`] as ReadonlyArray<string>, (id) => {
        ops.remove(id, actor, emit)
        return { id }
      }), W.BulkDeleteResponse)

  const routes: ReadonlyArray<HttpRouter.Route<never, never>> = [
    write("POST", paths.collection, schemas.request, (request: Json, actor, emit) => ops.create(request[key] as Json, actor, emit, key)),
    route("GET", item, Effect.gen(function*() {
      yield* access.reader
      const request = (yield* withPathId(schemas.getRequest, idParam)) as Json
      const id = request[idParam] as string
      return one(yield* engine.read(() => found(table.get(id), kind, id)), fieldsOf(request))
    })),
    write("PATCH", item, schemas.updateRequest, (request: Json, actor, emit, id) => ops.update({ ...(request[key] as Json), id }, undefined, actor, emit, key)),
    route("DELETE", item, Effect.gen(function*() {
      const actor = yield* access.writer
      const id = yield* pathParam(idParam)
      yield* engine.commit((emit) => ops.remove(id, actor, emit))
      return replyEmpty()
    })),
    ...queryRoutes(paths.query, schemas.queryRequest, (request: Json) =>
      Effect.gen(function*() {
        yield* access.reader
        const page = yield* pageOf(engine, table, request["query"] as W.EntityQuery | undefined, service.maxLimit)
        return reply(schemas.queryResponse, { [list]: page.items.map((d) => shown(d, fieldsOf(request))), pagingMetadata: pagingOf(page) })
      })),
    ...(paths.count === undefined ? [] : [count(paths.count)]),
    bulkWrite(paths.bulkCreate, schemas.bulkCreateRequest, (request: Json, actor, emit) =>
      bulk(request[list] as ReadonlyArray<Json>, (input, i) => {
        const doc = ops.create(input, actor, emit, `${list}[${i}]`)
        return bulkResult(request, doc)
      }, bulkKey)),
    bulkWrite(paths.bulkUpdate, schemas.bulkUpdateRequest, (request: Json, actor, emit) =>
      bulk(request[list] as ReadonlyArray<Json>, (m, i) => {
        const mask = maskPaths(m["fieldMask"] as string | undefined)
        const doc = ops.update((m[key] ?? {}) as Json, mask, actor, emit, `${list}[${i}].${key}`)
        return bulkResult(request, doc, fieldsOf(request))
      }, bulkKey)),
    ...(paths.bulkDelete === undefined || schemas.bulkDeleteRequest === undefined ? [] : [bulkDelete(paths.bulkDelete, schemas.bulkDeleteRequest)])
  ]

  return { routes, item, shown, write, bulkWrite, bulkResult }
}

export type EntityCrud = ReturnType<typeof entityCrud>
