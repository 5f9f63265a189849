/**
 * The calls every catalog v3 entity service shares (get, create, update, remove, query, count and the
 * bulk create and update), over the service's {@link Entity}: the name its calls carry in errors, its
 * paths, its field list, how its queries travel, the guards of its answers and the checks of what it
 * writes. Services found by name (brands, ribbons, info sections) add get-or-create and bulk delete:
 * their {@link Named}. The service modules export one small function a call over these, so a page
 * carries only the calls it makes. The bulk helpers here (`checkBatch`, `returning`) serve the other
 * v3 calls too.
 */
import * as Effect from "effect/Effect"
import { first } from "../../http/checks.ts"
import type { Guard } from "../../http/guard.ts"
import type { PlatformClient } from "../../http/PlatformClient.ts"
import type { Filter } from "../../data/Filter.ts"
import type { CatalogError } from "../CatalogError.ts"
import type { CursorQuery } from "./CursorQuery.ts"
import * as G from "./guards/index.ts"
import { checkedQuery, checkEach, checkFields, checkId, checkList, checkObject, checkRevision, checkText, countBody, type EntityFailure, fieldsOf, maskOf, optionalText, queryRunner, refusalOf, send, sendVoid } from "./calls.ts"

type Eff<A> = Effect.Effect<A, EntityFailure, PlatformClient>

/** A check of one argument: `what` names the call, `field` the argument, in a refusal. */
export type Check = (what: string, value: unknown, field: string) => CatalogError | undefined

/** How one v3 entity service is called. */
export interface Entity<K extends string, P extends string, A> {
  /** Names its calls in errors: `Brands` gives `Brands.get: id must be ...`. */
  readonly module: string
  /** The entity's field in requests and answers (`brand`); an id travels as `brandId`, ids as `brandIds`. */
  readonly key: K
  /** The field of a list of entities (`brands`). */
  readonly plural: P
  readonly paths: {
    readonly create: string
    readonly one: (id: string) => string
    readonly query: string
    readonly count: string
    readonly bulkCreate: string
    readonly bulkUpdate: string
  }
  /** What `fields` may ask for. */
  readonly fields: ReadonlyArray<string>
  /** GET `.r` (POST past 4000 characters), or always POST. */
  readonly queryMethod: "GET" | "POST"
  /** The largest page the service hands out. */
  readonly maxPage: number
  /** The most entities one bulk call takes. */
  readonly maxBulk: number
  readonly guards: {
    readonly one: Guard<{ readonly [k in K]: A }>
    readonly page: Guard<{ readonly [p in P]: ReadonlyArray<A> } & { readonly pagingMetadata: G.CursorPagingMetadata }>
    readonly bulk: Guard<G.BulkResults<A>>
  }
  readonly checks: {
    /** An entity to create. */
    readonly input: Check
    /** An entity to update: its id, its revision and the fields it changes. */
    readonly update: Check
  }
}

/** An {@link Entity} deleted in bulk by id. */
export interface Removable<K extends string, P extends string, A> extends Entity<K, P, A> {
  readonly paths: Entity<K, P, A>["paths"] & { readonly bulkDelete: string }
}

/** How one service found by name is called: an {@link Entity} with get-or-create and bulk delete. */
export interface Named<K extends string, P extends string, A> extends Removable<K, P, A> {
  readonly paths: Removable<K, P, A>["paths"] & {
    readonly getOrCreate: string
    readonly bulkGetOrCreate: string
  }
  readonly checks: Entity<K, P, A>["checks"] & {
    /** What get-or-create finds by. */
    readonly getOrCreate: Check
  }
  /** The field get-or-create finds by (`brandName`), and the field of a list of them (`brandNames`). */
  readonly findBy: { readonly key: string; readonly plural: string }
}

interface FieldsOptions {
  readonly fields?: ReadonlyArray<string>
}
interface BulkOptions {
  readonly returnEntity?: boolean
}

/** An argument's fields when it is an object, none otherwise (the checks then refuse what is missing). */
export const asObject = (u: unknown) => (typeof u === "object" && u !== null ? u as Record<string, unknown> : {})
const fieldsCheck = (what: string, fields: ReadonlyArray<string>, options: FieldsOptions | undefined) => checkFields(what, options?.fields, fields)

/** `{returnEntity}` when the options set it, nothing otherwise. */
export const returning = (options: BulkOptions | undefined): { readonly returnEntity?: boolean } =>
  options?.returnEntity === undefined ? {} : { returnEntity: options.returnEntity }

/** A list of 1 to `max` entries, each through `check` (with its index in the field name). */
export const checkBatch = (
  what: string,
  field: string,
  list: unknown,
  max: number,
  check: (item: unknown, field: string) => CatalogError | undefined
): CatalogError | undefined => first(checkList(what, field, list, max), Array.isArray(list) ? checkEach(list, check, field) : undefined)

/** A bulk create of 1 to `max` entities under `plural`, each through `check`, with the call's `options` beside them. */
export const sendBulkCreate = <A>(
  what: string,
  plural: string,
  list: ReadonlyArray<unknown>,
  max: number,
  check: Check,
  path: string,
  options: Record<string, unknown>,
  guard: Guard<A>
): Eff<A> =>
  send(what, checkBatch(what, plural, list, max, (entity, f) => check(what, entity, f)), () => ({ method: "POST", path, payload: { [plural]: list, ...options } }), guard)

/** A bulk update's 1 to `max` entries, each one's entity under `key` through `check`. */
export const checkMasked = (
  what: string,
  plural: string,
  key: string,
  list: unknown,
  max: number,
  check: (what: string, value: unknown, field: string) => CatalogError | undefined
): CatalogError | undefined => checkBatch(what, plural, list, max, (m, f) => check(what, asObject(m)[key], `${f}.${key}`))

/** A bulk update's entries as the wire takes them: the entity under `key` and its field mask. */
export const maskedEntries = (key: string, list: ReadonlyArray<{ readonly fieldMask?: ReadonlyArray<string> | undefined }>) =>
  list.map((m) => ({ [key]: asObject(m)[key], ...maskOf(m.fieldMask) }))

/** The checks of an entity whose one field is its `name` of at most `max` characters (brands, ribbons). */
export const nameChecks = (max: number): Named<string, string, unknown>["checks"] => ({
  input: (what, value, field) => first(checkObject(what, field, value), checkText(what, `${field}.name`, asObject(value)["name"], max)),
  update: (what, value, field) =>
    first(
      checkObject(what, field, value),
      checkId(what, `${field}.id`, asObject(value)["id"]),
      checkRevision(what, `${field}.revision`, asObject(value)["revision"]),
      optionalText(what, `${field}.name`, asObject(value)["name"], max)
    ),
  getOrCreate: (what, value, field) => checkText(what, field, value, max)
})

export const create = <K extends string, P extends string, A>(d: Entity<K, P, A>, entity: unknown): Eff<A> => {
  const what = `${d.module}.create`
  return send(what, d.checks.input(what, entity, d.key), () => ({ method: "POST", path: d.paths.create, payload: { [d.key]: entity } }), d.guards.one)
    .pipe(Effect.map((r) => r[d.key]))
}

export const get = <K extends string, P extends string, A>(d: Entity<K, P, A>, id: string, options: FieldsOptions | undefined): Eff<A> => {
  const what = `${d.module}.get`
  return send(
    what,
    first(checkId(what, "id", id), fieldsCheck(what, d.fields, options)),
    () => ({ method: "GET", path: d.paths.one(id), payload: { [`${d.key}Id`]: id, ...fieldsOf(options?.fields) } }),
    d.guards.one
  ).pipe(Effect.map((r) => r[d.key]))
}

export const update = <K extends string, P extends string, A>(
  d: Entity<K, P, A>,
  entity: { readonly id: string },
  options: FieldsOptions | undefined
): Eff<A> => {
  const what = `${d.module}.update`
  return send(
    what,
    first(d.checks.update(what, entity, d.key), fieldsCheck(what, d.fields, options)),
    () => ({ method: "PATCH", path: d.paths.one(entity.id), payload: { [d.key]: entity, ...fieldsOf(options?.fields) } }),
    d.guards.one
  ).pipe(Effect.map((r) => r[d.key]))
}

export const remove = <K extends string, P extends string, A>(d: Entity<K, P, A>, id: string): Eff<void> => {
  const what = `${d.module}.remove`
  return sendVoid(what, checkId(what, "id", id), () => ({ method: "DELETE", path: d.paths.one(id), payload: { [`${d.key}Id`]: id } }))
}

export const query = <K extends string, P extends string, A>(d: Entity<K, P, A>, options: FieldsOptions | undefined): CursorQuery<A> => {
  const what = `${d.module}.query`
  return checkedQuery(
    queryRunner({
      what,
      path: d.paths.query,
      method: d.queryMethod,
      maxLimit: d.maxPage,
      fields: options?.fields,
      guard: d.guards.page,
      read: (r) => ({ items: r[d.plural], paging: r.pagingMetadata })
    }),
    fieldsCheck(what, d.fields, options)
  )
}

export const count = <K extends string, P extends string, A>(d: Entity<K, P, A>, filter: Filter | Record<string, unknown> | undefined): Eff<number> => {
  const body = countBody(filter)
  return send(
    `${d.module}.count`,
    refusalOf(body),
    () => ({ method: "POST", path: d.paths.count, payload: body as Record<string, unknown>, idempotent: true }),
    G.CountResponse
  ).pipe(Effect.map((r) => r.count))
}

export const getOrCreate = <K extends string, P extends string, A>(d: Named<K, P, A>, by: unknown, options: FieldsOptions | undefined): Eff<A> => {
  const what = `${d.module}.getOrCreate`
  const key = d.findBy.key
  return send(
    what,
    first(d.checks.getOrCreate(what, by, key), fieldsCheck(what, d.fields, options)),
    () => ({ method: "POST", path: d.paths.getOrCreate, payload: { [key]: by, ...fieldsOf(options?.fields) } }),
    d.guards.one
  ).pipe(Effect.map((r) => r[d.key]))
}

export const bulkGetOrCreate = <K extends string, P extends string, A>(
  d: Named<K, P, A>,
  list: ReadonlyArray<unknown>,
  options: FieldsOptions | undefined
): Eff<G.BulkResults<A>> => {
  const what = `${d.module}.bulkGetOrCreate`
  const plural = d.findBy.plural
  return send(
    what,
    first(checkBatch(what, plural, list, d.maxBulk, (by, f) => d.checks.getOrCreate(what, by, f)), fieldsCheck(what, d.fields, options)),
    () => ({ method: "POST", path: d.paths.bulkGetOrCreate, payload: { [plural]: list, ...fieldsOf(options?.fields) } }),
    d.guards.bulk
  )
}

export const bulkCreate = <K extends string, P extends string, A>(
  d: Entity<K, P, A>,
  list: ReadonlyArray<unknown>,
  options: BulkOptions | undefined
): Eff<G.BulkResults<A>> => {
  return sendBulkCreate(`${d.module}.bulkCreate`, d.plural, list, d.maxBulk, d.checks.input, d.paths.bulkCreate, returning(options), d.guards.bulk)
}

export const bulkUpdate = <K extends string, P extends string, A>(
  d: Entity<K, P, A>,
  list: ReadonlyArray<{ readonly fieldMask?: ReadonlyArray<string> }>,
  options: (BulkOptions & FieldsOptions) | undefined
): Eff<G.BulkResults<A>> => {
  const what = `${d.module}.bulkUpdate`
  return send(
    what,
    first(
      checkMasked(what, d.plural, d.key, list, d.maxBulk, d.checks.update),
      fieldsCheck(what, d.fields, options)
    ),
    () => ({
      method: "POST",
      path: d.paths.bulkUpdate,
      payload: {
        [d.plural]: maskedEntries(d.key, list),
        ...returning(options),
        ...fieldsOf(options?.fields)
      }
    }),
    d.guards.bulk
  )
}

export const bulkRemove = <K extends string, P extends string, A>(d: Removable<K, P, A>, ids: ReadonlyArray<string>): Eff<G.BulkDeleteResults> => {
  const what = `${d.module}.bulkRemove`
  return send(
    what,
    checkBatch(what, "ids", ids, d.maxBulk, (id, f) => checkId(what, f, id)),
    () => ({ method: "POST", path: d.paths.bulkDelete, payload: { [`${d.key}Ids`]: ids } }),
    G.BulkDeleteResponse
  )
}
