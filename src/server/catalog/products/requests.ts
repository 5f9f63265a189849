/**
 * What the catalog v1 routes share: who may call (readers and writers on a v1 catalog), v1 offset
 * queries read from `.r` or a POST body (filters and sorts may come as JSON text), their v1 events,
 * and answers whose media URLs point at the platform that serves them. Writes commit on the catalog's
 * engine (CatalogEngine).
 */
import * as Effect from "effect/Effect"
import type * as Schema from "effect/Schema"
import type * as HttpServerRequest from "effect/http/HttpServerRequest"
import { DEFAULT_PRODUCT_PAGE, MAX_PRODUCT_PAGE } from "../../../catalog/protocol.ts"
import type { OffsetQuery, Sorting } from "../../../catalog/wire/common.ts"
import { legacyEvent } from "../../store/engine.ts"
import { EngineFailure } from "../../store/engineFailures.ts"
import { offsetPaging } from "../../store/paging.ts"
import { getPayload } from "../../store/payload.ts"
import type { AdminCaller, Caller } from "../../platform/Caller.ts"
import { application, type Reject, replyJson } from "../../platform/responses.ts"
import { body, requestOrigin } from "../../platform/routing.ts"
import type { CatalogEvent } from "../CatalogEngine.ts"
import type { StoreAccess } from "../access.ts"
import { invalid } from "./changes.ts"
import type { PageRequest } from "./ProductStore.ts"

/** Reader and writer checks for catalog v1 calls: the site must run the v1 catalog. */
export const v1Access = (access: StoreAccess) => {
  const v1 = Effect.suspend(() => {
    const version = access.version()
    return version === "V3_CATALOG"
      ? Effect.fail(application(428, "CATALOG_VERSION_MISMATCH", "The site runs V3_CATALOG: catalog v1 calls are not available"))
      : Effect.void
  })
  return {
    reader: Effect.andThen(v1, access.reader) as Effect.Effect<Caller, Reject, HttpServerRequest.HttpServerRequest>,
    writer: Effect.andThen(v1, access.writer) as Effect.Effect<AdminCaller, Reject, HttpServerRequest.HttpServerRequest>
  }
}

/** A GET payload (`.r` or flat parameters), or the POST body of the same call. */
export const payload = <A, I>(schema: Schema.Codec<A, I>, method: "GET" | "POST") =>
  method === "GET" ? getPayload(schema, { numbers: ["query.paging.limit", "query.paging.offset", "paging.limit", "paging.offset"] }) : body(schema)

const parseText = (text: string, field: string): unknown => {
  try {
    return JSON.parse(text)
  } catch {
    throw invalid(field, `${field} is not valid JSON`, "FORMAT")
  }
}

/** Sorting as `[{fieldName, order}]`, or the older JSON text `[{"name": "asc"}]`. */
const sortOf = (sort: OffsetQuery["sort"]): ReadonlyArray<Sorting> => {
  if (sort === undefined) return []
  const list = typeof sort === "string" ? parseText(sort, "query.sort") : sort
  if (!Array.isArray(list)) throw invalid("query.sort", "query.sort must be a list", "FORMAT")
  return list.map((s: unknown, i) => {
    if (typeof s !== "object" || s === null) throw invalid(`query.sort[${i}]`, "A sort term is an object", "FORMAT")
    const o = s as Record<string, unknown>
    if (typeof o["fieldName"] === "string") {
      const order = o["order"] === undefined ? "ASC" : String(o["order"]).toUpperCase()
      if (order !== "ASC" && order !== "DESC") throw invalid(`query.sort[${i}].order`, "order is ASC or DESC", "FORMAT")
      return { fieldName: o["fieldName"], order }
    }
    const entries = Object.entries(o)
    if (entries.length !== 1) throw invalid(`query.sort[${i}]`, "A sort term names one field", "FORMAT")
    const [fieldName, dir] = entries[0]!
    const order = String(dir).toUpperCase()
    if (order !== "ASC" && order !== "DESC") throw invalid(`query.sort[${i}]`, "A sort direction is asc or desc", "FORMAT")
    return { fieldName, order }
  })
}

const pagingNumber = (value: number | null | undefined, fallback: number, field: string, max: number): number => {
  if (value == null) return fallback
  if (!Number.isSafeInteger(value) || value < 0) throw invalid(field, `${field} must be a whole number of at least 0`, "MIN", { min: 0 })
  if (value > max) throw invalid(field, `${field} must be at most ${max}`, "MAX", { max })
  return value
}

/** A v1 offset query as a page request: limit at most `maxLimit` (default 50 unless given). */
export const pageRequest = (query: OffsetQuery | undefined, maxLimit = MAX_PRODUCT_PAGE, defaultLimit = DEFAULT_PRODUCT_PAGE): PageRequest => {
  const q = query ?? {}
  const filter = typeof q.filter === "string" ? parseText(q.filter, "query.filter") : q.filter
  if (filter !== undefined && filter !== null && (typeof filter !== "object" || Array.isArray(filter))) {
    throw invalid("query.filter", "query.filter must be an object", "FORMAT")
  }
  return {
    filter,
    sort: sortOf(q.sort),
    paging: offsetPaging(
      pagingNumber(q.paging?.limit, defaultLimit, "query.paging.limit", maxLimit),
      pagingNumber(q.paging?.offset, 0, "query.paging.offset", Number.MAX_SAFE_INTEGER)
    )
  }
}

/** v1 paging metadata of a page. */
export const metadataJson = (request: PageRequest, items: number, total: number): string =>
  JSON.stringify({ items, offset: request.paging.offset, count: items, total })

/** Stored media URLs point at the real platform's media host; the local platform serves them itself. */
const MEDIA_HOST = "https://static.wixstatic.com/media/"

/** 200 with stored JSON assembled into an answer, media URLs pointing at this platform. */
export const replyStored = (json: string) =>
  Effect.map(requestOrigin, (origin) => replyJson(json.includes(MEDIA_HOST) ? json.replaceAll(MEDIA_HOST, `${origin}/media/`) : json))

/** A v1 ("non-domain") event. */
export const legacy = (type: string, entityId: string, body: Record<string, unknown>, actor: Caller): CatalogEvent =>
  legacyEvent(`com.wix.ecommerce.catalog.api.v1.${type}`, entityId, body, actor)

export const inventoryEvent = (type: string, entityId: string, body: Record<string, unknown>, actor: Caller): CatalogEvent =>
  legacyEvent(`com.wix.ecommerce.inventory.api.v1.${type}`, entityId, body, actor)

export const notFoundFailure = (code: string, what: string): EngineFailure => new EngineFailure({ status: 404, code, description: `${what} not found` })
