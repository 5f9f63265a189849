/**
 * sitefx/data/indexes: a collection's indexes, with an API key. An index makes the queries that filter
 * or sort on its fields fast on a big collection; a unique one refuses a second item with the same
 * values (case-insensitive when asked). The platform builds a new index in the background: `create`
 * answers it `BUILDING`, and `awaitActive` waits until it is `ACTIVE`, failing when it ends `FAILED` (with
 * the platform's failure code, `DUPLICATE_VALUES` for a unique index over items that already clash).
 *
 * @example
 * import * as Indexes from "sitefx/data/indexes"
 *
 * yield* Indexes.create("Posts", { name: "byLikes", fields: [{ path: "likes", order: "DESC" }] })
 * const index = yield* Indexes.awaitActive("Posts", "byLikes", { timeout: "30 seconds" })
 */
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import * as Schedule from "effect/Schedule"
import * as Stream from "effect/Stream"
import { first, unlessInvalid } from "../http/checks.ts"
import * as G from "../http/guard.ts"
import type { PlatformClient } from "../http/PlatformClient.ts"
import { call, checkCollection, checkOffset, checkPageLimit, type DataFailure } from "./calls.ts"
import { badAnswer, DataError, invalid, WDE } from "./DataError.ts"
import { withClient } from "./withClient.ts"
import { IndexesListResponse, IndexResponse } from "./guards/indexes.ts"
import { DataPaths } from "./protocol.ts"
import type * as W from "./wire/index.ts"

/** An index as the platform keeps it: its name, fields, flags, status and, when it failed, why. */
export type Index = W.DataIndex

/** What `create` takes: a name, the fields in order (each ascending unless `order: "DESC"`), and the flags. */
export interface IndexInput {
  readonly name: string
  readonly fields: ReadonlyArray<{ readonly path: string; readonly order?: "ASC" | "DESC" }>
  /** Refuse a second item with the same values of every field (items without them all are not constrained). */
  readonly unique?: boolean
  /** Compare text values ignoring case. */
  readonly caseInsensitive?: boolean
}

/** One page of a collection's indexes. */
export interface IndexesPage {
  readonly indexes: ReadonlyArray<Index>
  readonly total: number | undefined
  readonly hasNext: boolean
}

/** The most indexes a page lists (the platform's paging limit). */
export const MAX_INDEXES_PAGE = 100

const checkName = (name: unknown): DataError | undefined =>
  typeof name === "string" && name.trim() !== "" ? undefined : invalid(WDE.emptyString, "An index needs a name.", "name")

const checkInput = (index: IndexInput): DataError | undefined =>
  checkName(index.name) ??
    (Array.isArray(index.fields) && index.fields.length > 0
      ? index.fields.map((f, i) => (typeof f?.path === "string" && f.path.trim() !== "" ? undefined : invalid(WDE.fieldNotString, `fields[${i}].path must be a field path.`, `fields[${i}].path`))).find((e) => e !== undefined)
      : invalid(WDE.arityAtLeastOne, "An index needs at least one field.", "fields"))

/**
 * Creates an index; the platform answers it `BUILDING` and builds it in the background.
 *
 * @example
 * import * as Indexes from "sitefx/data/indexes"
 * const index = yield* Indexes.create("Members", { name: "uniqueEmail", fields: [{ path: "email" }], unique: true, caseInsensitive: true })
 */
export const create = (collection: string, index: IndexInput): Effect.Effect<Index, DataFailure, PlatformClient> =>
  unlessInvalid(first(checkCollection(collection), checkInput(index)), () =>
    withClient((client) =>
      call(client, collection, {
        method: "POST",
        path: DataPaths.indexes,
        payload: {
          dataCollectionId: collection,
          index: {
            name: index.name,
            fields: index.fields.map((f) => (f.order === undefined ? { path: f.path } : { path: f.path, order: f.order })),
            ...(index.unique === undefined ? {} : { unique: index.unique }),
            ...(index.caseInsensitive === undefined ? {} : { caseInsensitive: index.caseInsensitive })
          }
        }
      }, IndexResponse).pipe(Effect.map((r) => r.index))
    ))

/**
 * One page of a collection's indexes, in the order they were made.
 *
 * @example
 * import * as Indexes from "sitefx/data/indexes"
 * const { indexes } = yield* Indexes.list("Posts")
 */
export const list = (
  collection: string,
  options: { readonly limit?: number; readonly offset?: number } = {}
): Effect.Effect<IndexesPage, DataFailure, PlatformClient> => {
  const limit = options.limit ?? MAX_INDEXES_PAGE
  const offset = options.offset ?? 0
  const bad = checkCollection(collection) ??
    checkPageLimit(limit, MAX_INDEXES_PAGE) ?? checkOffset(offset)
  return unlessInvalid(bad, () =>
    withClient((client) =>
      call(client, collection, { method: "GET", path: DataPaths.indexes, payload: { dataCollectionId: collection, paging: { limit, offset } } }, IndexesListResponse).pipe(
        Effect.map((r) => ({
          indexes: r.indexes,
          total: r.pagingMetadata?.total ?? undefined,
          hasNext: r.pagingMetadata?.hasNext ?? offset + r.indexes.length < (r.pagingMetadata?.total ?? 0)
        }))
      )
    ))
}

/** Every index of a collection, page after page. */
export const stream = (collection: string): Stream.Stream<Index, DataFailure, PlatformClient> =>
  Stream.paginate(0, (offset: number) =>
    Effect.map(list(collection, { offset }), (page) => [page.indexes, page.hasNext && page.indexes.length > 0 ? Option.some(offset + page.indexes.length) : Option.none()] as const))

/** The index of that name, none when the collection has no such index. */
export const get = (collection: string, name: string): Effect.Effect<Option.Option<Index>, DataFailure, PlatformClient> =>
  unlessInvalid(checkName(name), () => stream(collection).pipe(Stream.filter((i) => i.name === name), Stream.runHead))

/**
 * Drops an index (`NOT_FOUND` when there is none of that name).
 *
 * @example
 * import * as Indexes from "sitefx/data/indexes"
 * yield* Indexes.drop("Posts", "byLikes")
 */
export const drop = (collection: string, name: string): Effect.Effect<void, DataFailure, PlatformClient> =>
  unlessInvalid(first(checkCollection(collection), checkName(name)), () =>
    withClient((client) =>
      // the platform answers a drop with an empty object
      Effect.asVoid(call(client, collection, { method: "DELETE", path: DataPaths.indexes, payload: { dataCollectionId: collection, indexName: name } }, G.object))
    ))

/**
 * Waits until the index is `ACTIVE` and gives it. Fails with a DataError when it ends `FAILED` or
 * `INVALID` (the code is the platform's failure code, the message its description), when there is no
 * such index (`NOT_FOUND`), or when it is still building after `timeout` (`INDEX_NOT_ACTIVE`; default
 * 5 minutes). It asks again every `interval` at first (default 100 ms), then less often, up to 5 s.
 *
 * @example
 * import * as Indexes from "sitefx/data/indexes"
 * yield* Indexes.create("Posts", { name: "byTitle", fields: [{ path: "title" }], unique: true })
 * yield* Indexes.awaitActive("Posts", "byTitle", { timeout: "1 minute" })
 */
export const awaitActive = (
  collection: string,
  name: string,
  options: { readonly timeout?: Duration.Input; readonly interval?: Duration.Input } = {}
): Effect.Effect<Index, DataFailure, PlatformClient> => {
  const timeout = Duration.fromInputUnsafe(options.timeout ?? "5 minutes")
  const settled = get(collection, name).pipe(
    Effect.flatMap((found): Effect.Effect<Option.Option<Index>, DataFailure> => {
      if (Option.isNone(found)) return Effect.fail(badAnswer("NOT_FOUND", `${collection} has no index ${name}.`, collection))
      const index = found.value
      if (index.status === "ACTIVE") return Effect.succeed(Option.some(index))
      if (index.status === "FAILED" || index.status === "INVALID" || index.status === "DROPPED" || index.status === "DROPPING") {
        return Effect.fail(badAnswer(
          index.failure?.code ?? `INDEX_${index.status}`,
          index.failure?.description ?? `The index ${name} of ${collection} is ${index.status}.`,
          collection
        ))
      }
      return Effect.succeed(Option.none())
    })
  )
  // the shorter of the two waits: growing from `interval`, never past 5 s
  const again = Schedule.min([Schedule.exponential(options.interval ?? "100 millis", 1.5), Schedule.spaced("5 seconds")])
  return settled.pipe(
    Effect.repeat({ schedule: again, until: Option.isSome }),
    Effect.flatMap((done) => (Option.isSome(done) ? Effect.succeed(done.value) : Effect.never)),
    Effect.timeoutOrElse({
      duration: timeout,
      orElse: () => Effect.fail(badAnswer("INDEX_NOT_ACTIVE", `The index ${name} of ${collection} is not active after ${Duration.format(timeout)}.`, collection))
    })
  )
}
