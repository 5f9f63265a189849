/**
 * Route pieces the entity services share: queries arrive as GET `.r` or as POST with the same body,
 * gets and deletes carry their id in the path (and again as a query parameter), and a page answers
 * `{<entities>, pagingMetadata{count, cursors, hasNext}}`.
 */
import * as Effect from "effect/Effect"
import type * as Schema from "effect/Schema"
import type * as HttpRouter from "effect/http/HttpRouter"
import type { EntityQuery } from "../../../catalog/entities/wire/index.ts"
import { getPayload } from "../../store/payload.ts"
import type { Json } from "../../store/values.ts"
import type { Reject } from "../../platform/responses.ts"
import { body, type Handler, pathParam, route } from "../../platform/routing.ts"
import type { Engine } from "./engine.ts"
import type { EntityTableShape, PageResult } from "./entityTables.ts"
import { DEFAULT_ENTITY_PAGE } from "../../../catalog/entities/protocol.ts"

/** A query route's two forms: GET with `.r` (or flat parameters) and the POST fallback. */
export const queryRoutes = <A, I>(
  path: HttpRouter.PathInput,
  schema: Schema.Codec<A, I>,
  run: (request: A) => Handler
): ReadonlyArray<HttpRouter.Route<never, never>> => [
  route("GET", path, Effect.flatMap(getPayload(schema, { arrays: ["fields"] }), run)),
  route("POST", path, Effect.flatMap(body(schema), run))
]

/** A GET whose id is in the path: the payload from the query string, the id from the path. */
export const withPathId = <A, I>(schema: Schema.Codec<A, I>, param: string) =>
  Effect.flatMap(pathParam(param), (id) => getPayload(schema, { arrays: ["fields"] }, { [param]: id }))

/** One page of a table for a query request. */
export const pageOf = (
  engine: Engine,
  table: EntityTableShape,
  query: EntityQuery | undefined,
  maxLimit: number
): Effect.Effect<PageResult, Reject> =>
  engine.read(() =>
    table.query({
      filter: query?.filter ?? undefined,
      sort: query?.sort ?? [],
      paging: { mode: "cursor", limit: query?.cursorPaging?.limit ?? undefined, cursor: query?.cursorPaging?.cursor ?? undefined }
    }, { defaultLimit: DEFAULT_ENTITY_PAGE, maxLimit })
  )

/** The paging of a page answer. */
export const pagingOf = (page: PageResult) => ({
  count: page.items.length,
  cursors: {
    ...(page.next === undefined ? {} : { next: page.next }),
    ...(page.prev === undefined ? {} : { prev: page.prev })
  },
  hasNext: page.next !== undefined
})

/** The entity with its product count when `fields` asks for it (no catalog v3 products assign them here). */
export const withCount = (doc: Json, fields: ReadonlyArray<string> | undefined, field: string, countField: string): Json =>
  fields !== undefined && fields.includes(field) ? { ...doc, [countField]: 0 } : doc
