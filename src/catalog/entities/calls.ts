/**
 * What the catalog v3 entity modules share: a call on any installed store (v1 or v3 catalog) refused
 * before it is sent when an argument is wrong, the query runner of a service, and the argument checks,
 * which name the call and the argument (`Brands.create: brand.name must be 1 to 50 characters`).
 */
import * as Effect from "effect/Effect"
import { unlessInvalid } from "../../http/checks.ts"
import type { Guard } from "../../http/guard.ts"
import type { PlatformClient } from "../../http/PlatformClient.ts"
import type { PlatformRequest } from "../../http/PlatformRequest.ts"
import { type Filter, FilterMethods } from "../../data/Filter.ts"
import { CatalogError, invalidArgument } from "../CatalogError.ts"
import { ANY_STORE, call, callVoid, type CatalogFailure, requireCatalog, shown } from "../calls.ts"
import { CursorQuery, type CursorRunner, filterOf, wireFilter } from "./CursorQuery.ts"
import type { CursorPagingMetadata } from "./guards/index.ts"
import { ENTITY_QUERY_MAX_QUERY } from "./protocol.ts"

export type EntityFailure = CatalogFailure

/** A call answered with a body `guard` checks, unless `check` refused an argument. */
export const send = <A>(
  what: string,
  check: CatalogError | undefined,
  request: () => PlatformRequest,
  guard: Guard<A>
): Effect.Effect<A, CatalogFailure, PlatformClient> =>
  unlessInvalid(check, () => requireCatalog(ANY_STORE, what, (client) => call(client, request(), guard)))

/** A call whose answer is not read. */
export const sendVoid = (
  what: string,
  check: CatalogError | undefined,
  request: () => PlatformRequest
): Effect.Effect<void, CatalogFailure, PlatformClient> =>
  unlessInvalid(check, () => requireCatalog(ANY_STORE, what, (client) => callVoid(client, request())))

/** How a service's queries travel: GET `.r` (POST past 4000 characters), or always POST (ribbons). */
export const queryRunner = <R, A>(options: {
  readonly what: string
  readonly path: string
  readonly method: "GET" | "POST"
  readonly maxLimit: number
  readonly fields?: ReadonlyArray<string> | undefined
  readonly guard: Guard<R>
  readonly read: (answer: R) => { readonly items: ReadonlyArray<A>; readonly paging: CursorPagingMetadata }
}): CursorRunner<A> => ({
  what: options.what,
  maxLimit: options.maxLimit,
  fields: options.fields,
  fetch: (body) =>
    Effect.map(
      send(options.what, undefined, () => ({
        method: options.method,
        path: options.path,
        payload: body as unknown as Record<string, unknown>,
        idempotent: true,
        ...(options.method === "GET"
          ? { complex: { fallback: { path: options.path, limit: { kind: "query" as const, max: ENTITY_QUERY_MAX_QUERY } } } }
          : {})
      }), options.guard),
      options.read
    )
})

/** A count's refusal, when its filter was refused. */
export const refusalOf = (body: Record<string, unknown> | CatalogError): CatalogError | undefined => (body instanceof CatalogError ? body : undefined)

/** A query whose `fields` are checked first: a bad one fails the query when it runs. */
export const checkedQuery = <A>(runner: CursorRunner<A>, check: CatalogError | undefined): CursorQuery<A> =>
  check === undefined ? new CursorQuery(runner) : new CursorQuery(runner, { sort: [], limit: undefined, cursor: undefined, refusal: check })

/** The body of a count: a Filter built like a query's conditions, or the platform's JSON (wire field names, ISO dates). */
export const countBody = (filter: Filter | Record<string, unknown> | undefined): Record<string, unknown> | CatalogError => {
  if (filter === undefined) return {}
  if (filter instanceof FilterMethods) {
    if (filter.error !== undefined) return invalidArgument(filter.error.message, filter.error.field ?? "filter")
    return { filter: filterOf(filter.conditions) }
  }
  if (typeof filter !== "object" || filter === null || Array.isArray(filter)) return invalidArgument("the filter must be a Filter or an object", "filter")
  return { filter: wireFilter(filter) as Record<string, unknown> }
}

// argument checks

/** A non-empty id (at most 36 characters, as the platform's ids are). */
export const checkId = (what: string, field: string, id: unknown): CatalogError | undefined =>
  typeof id === "string" && id !== "" && id.length <= 36 ? undefined : invalidArgument(`${what}: ${field} must be a non-empty id, not ${shown(id)}`, field)

/** Text of `min` to `max` characters that is not only spaces (when `min` > 0). */
export const checkText = (what: string, field: string, value: unknown, max: number, min = 1): CatalogError | undefined => {
  if (typeof value !== "string") return invalidArgument(`${what}: ${field} must be a string, not ${shown(value)}`, field)
  if (value.length < min || value.length > max) return invalidArgument(`${what}: ${field} must be ${min} to ${max} characters`, field)
  if (min > 0 && value.trim() === "") return invalidArgument(`${what}: ${field} must not be only spaces`, field)
  return undefined
}

export const optionalText = (what: string, field: string, value: unknown, max: number, min = 1): CatalogError | undefined =>
  value === undefined || value === null ? undefined : checkText(what, field, value, max, min)

/** A revision the entity handed out: the text of an integer. */
export const checkRevision = (what: string, field: string, revision: unknown): CatalogError | undefined =>
  typeof revision === "string" && /^\d{1,18}$/.test(revision)
    ? undefined
    : invalidArgument(`${what}: ${field} must be the entity's current revision (the text of an integer), not ${shown(revision)}`, field)

/** A list of 1 to `max` entries. */
export const checkList = (what: string, field: string, list: unknown, max: number): CatalogError | undefined =>
  Array.isArray(list) && list.length >= 1 && list.length <= max
    ? undefined
    : invalidArgument(`${what}: ${field} must list 1 to ${max} entries`, field)

/** An object argument (an entity to write). */
export const checkObject = (what: string, field: string, value: unknown): CatalogError | undefined =>
  typeof value === "object" && value !== null && !Array.isArray(value) ? undefined : invalidArgument(`${what}: ${field} must be an object`, field)

/** Every entry of `list` through `check` (with its index in the field name). */
export const checkEach = <A>(list: ReadonlyArray<A>, check: (item: A, field: string) => CatalogError | undefined, field: string): CatalogError | undefined => {
  for (let i = 0; i < list.length; i++) {
    const bad = check(list[i]!, `${field}[${i}]`)
    if (bad !== undefined) return bad
  }
  return undefined
}

/** An integer from `min` to `max`. */
export const checkInt = (what: string, field: string, value: unknown, min: number, max: number): CatalogError | undefined =>
  typeof value === "number" && Number.isInteger(value) && value >= min && value <= max
    ? undefined
    : invalidArgument(`${what}: ${field} must be an integer from ${min} to ${max}, not ${shown(value)}`, field)

/** Requested `fields`: values of the service's list. */
export const checkFields = (what: string, fields: unknown, allowed: ReadonlyArray<string>): CatalogError | undefined =>
  fields === undefined || (Array.isArray(fields) && fields.every((f) => allowed.includes(f)))
    ? undefined
    : invalidArgument(`${what}: fields may name only ${allowed.join(", ")}`, "fields")

/** `{fields}` when some are asked for, nothing otherwise (as the platform's own client sends it). */
export const fieldsOf = (fields: ReadonlyArray<string> | undefined): { readonly fields?: ReadonlyArray<string> } =>
  fields === undefined ? {} : { fields }

/** A field mask on the wire: the paths joined with commas. */
export const maskOf = (fieldMask: ReadonlyArray<string> | undefined): { readonly fieldMask?: string } =>
  fieldMask === undefined ? {} : { fieldMask: fieldMask.join(",") }
