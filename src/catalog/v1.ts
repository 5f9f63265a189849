/**
 * What the catalog v1 modules (Products, Collections, Inventory) share: calls that need a site running
 * the v1 catalog, refused before anything is sent when an argument is wrong, and the argument checks,
 * which name the call and the argument (`Products.get: id must be a non-empty string`).
 */
import * as Effect from "effect/Effect"
import { unlessInvalid } from "../http/checks.ts"
import type { Guard } from "../http/guard.ts"
import type { PlatformClient } from "../http/PlatformClient.ts"
import type { PlatformRequest } from "../http/PlatformRequest.ts"
import { type CatalogError, invalidArgument } from "./CatalogError.ts"
import { call, callVoid, type CatalogFailure, requireCatalog, requireCatalogRead, shown, V1 } from "./calls.ts"
import { offsetRequest } from "./offsetPage.ts"
import type { OffsetPaging, OffsetQueryBody, OffsetRunner } from "./OffsetQuery.ts"

export { pagingOf } from "./offsetPage.ts"

/** A v1 call answered with a body `guard` checks, unless `check` refused an argument. */
export const send = <A>(what: string, check: CatalogError | undefined, request: () => PlatformRequest, guard: Guard<A>): Effect.Effect<A, CatalogFailure, PlatformClient> =>
  unlessInvalid(check, () => sendChecked(what, request(), guard))

// reads (GET) go out beside the first catalog version question; anything else waits for its answer
const sendChecked = <A>(what: string, req: PlatformRequest, guard: Guard<A>): Effect.Effect<A, CatalogFailure, PlatformClient> =>
  (req.method === "GET" ? requireCatalogRead : requireCatalog)(V1, what, (client) => call(client, req, guard))

/** A v1 call whose answer is not read. */
export const sendVoid = (what: string, check: CatalogError | undefined, request: () => PlatformRequest): Effect.Effect<void, CatalogFailure, PlatformClient> =>
  unlessInvalid(check, () => requireCatalog(V1, what, (client) => callVoid(client, request())))

/** A non-empty id. */
export const checkId = (what: string, field: string, id: unknown): CatalogError | undefined =>
  typeof id === "string" && id !== "" && id.length <= 200 ? undefined : invalidArgument(`${what}: ${field} must be a non-empty string, not ${shown(id)}`, field)

/** A list of 1 to `max` non-empty ids. */
export const checkIds = (what: string, field: string, ids: unknown, max: number): CatalogError | undefined => {
  if (!Array.isArray(ids) || ids.length === 0 || ids.length > max) return invalidArgument(`${what}: ${field} must list 1 to ${max} ids`, field)
  const i = ids.findIndex((id) => typeof id !== "string" || id === "")
  return i < 0 ? undefined : invalidArgument(`${what}: ${field}[${i}] must be a non-empty string, not ${shown(ids[i])}`, `${field}[${i}]`)
}

/** An object argument (not null, not an array). */
export const checkObject = (what: string, field: string, value: unknown): CatalogError | undefined =>
  typeof value === "object" && value !== null && !Array.isArray(value) ? undefined : invalidArgument(`${what}: ${field} must be an object, not ${shown(value)}`, field)

/** A list argument of at most `max` entries. */
export const checkList = (what: string, field: string, value: unknown, max: number, min = 1): CatalogError | undefined =>
  Array.isArray(value) && value.length >= min && value.length <= max ? undefined : invalidArgument(`${what}: ${field} must list ${min} to ${max} entries`, field)

/** A v1 offset query's runner: its reader answers a page of `A` and the paging. */
export const offsetRunner = <R, A>(options: {
  readonly what: string
  readonly method: "GET" | "POST"
  readonly path: string
  readonly guard: Guard<R>
  /** The request body around the query (`{query}` plus flags). */
  readonly body?: (query: OffsetQueryBody) => Record<string, unknown>
  readonly read: (answer: R) => { readonly items: ReadonlyArray<A>; readonly paging: OffsetPaging }
}): OffsetRunner<A> => ({
  what: options.what,
  fetch: (query) =>
    Effect.map(
      send(options.what, undefined, () => offsetRequest(options.method, options.path, options.body === undefined ? { query } : options.body(query)), options.guard),
      options.read
    )
})
