/**
 * Bulk writes of any size: items (an Iterable or a Stream) are chunked to at most 1000, chunks run
 * with bounded concurrency, transient failures of a chunk are retried, and the report accounts for
 * every item by its original index. A request refused as a whole fails the write: the refusal is
 * about the call (its key, its permissions, its collection, the platform), not about the items, and a
 * report of a thousand "failed" items would say otherwise. Inserted and saved items get their `_id` on
 * the client before the first attempt, so a retried chunk cannot insert anything twice; with a resume
 * key those ids follow from the key and the item's position, so a whole write run again after a crash
 * cannot either, and progress reports say where to resume.
 */
import * as Effect from "effect/Effect"
import * as Stream from "effect/Stream"
import type { RetryPolicy } from "../http/PlatformConfig.ts"
import type { PlatformError } from "../http/PlatformError.ts"
import { isTransient, retryDelay } from "../http/PlatformHttp.ts"
import { noteRetry } from "../http/retry.ts"
import { type DataError, WDE } from "./DataError.ts"
import { type DataEnvironment, MAX_BULK_ITEMS } from "./protocol.ts"
import type { BulkItemResult } from "./wire/index.ts"

export type BulkKind = "insert" | "update" | "save" | "remove" | "patch"

/** An item a bulk write did not write: its position in the input, the platform's code and message. */
export interface BulkItemError {
  /** The item's position in the input. */
  readonly index: number
  readonly code: string
  readonly message: string
  readonly id?: string | undefined
  readonly item?: unknown
}

/** Every item's fate in a bulk write: counts, ids written and the items refused. */
export interface BulkReport {
  readonly inserted: number
  readonly updated: number
  readonly removed: number
  /** Items the platform left alone by rule: existing ids on insert, missing ids on update/remove/patch. */
  readonly skipped: number
  readonly errors: ReadonlyArray<BulkItemError>
  readonly insertedItemIds: ReadonlyArray<string>
  readonly updatedItemIds: ReadonlyArray<string>
  readonly removedItemIds: ReadonlyArray<string>
}

/** How a bulk write runs: chunk size, concurrency, hooks, resuming, progress. */
export interface BulkOptions {
  /** Chunks in flight at once (default 4). */
  readonly concurrency?: number
  /** Items per request, at most 1000 (default 1000). */
  readonly chunkSize?: number
  /** Insert: report existing ids as errors instead of skipping them. */
  readonly overrideExisting?: boolean
  readonly suppressHooks?: boolean
  /** The environment the items are written in (default: the DataEnvironment in effect). */
  readonly environment?: DataEnvironment
  /**
   * Makes an insert or save resumable: items without an `_id` get ids made from this key (see
   * `newBulkKey`) and their position in the whole input, so writing the same input again with the
   * same key gives each item the id it had before. An insert that finds such an id already there
   * reports the item inserted (only an earlier run with this key can have written it); a save writes
   * it again and reports it updated.
   */
  readonly resumeKey?: string
  /**
   * The position of the first item of `items` in the whole input (default 0). Resuming, pass the
   * last progress's `settled` and leave that many items out; positions in the report and in the ids
   * of a keyed write stay those of the whole input. An insert or save that resumes needs the
   * `resumeKey` of the run it resumes (refused with MISSING_RESUME_KEY otherwise).
   */
  readonly startAt?: number
  /**
   * Keep the id of every written item in the report (default true). A write of millions that needs only
   * the counts (and the failures, which are always kept) passes false, and its memory stays flat.
   */
  readonly keepIds?: boolean
  /**
   * Told, in input order, each time more leading items are settled (a place to save a checkpoint). A
   * write that fails has told it every chunk settled before the refusal.
   */
  readonly onProgress?: (progress: BulkProgress) => Effect.Effect<void>
}

/** How far a bulk write has come: every item before `settled` has its fate in the counts. */
export interface BulkProgress {
  /** The position (in the whole input) to resume from: items before it are all settled. */
  readonly settled: number
  readonly inserted: number
  readonly updated: number
  readonly removed: number
  readonly skipped: number
  readonly errors: number
  /** The failures so far, in settling order (a growing list: read it, do not keep it). */
  readonly failures: ReadonlyArray<BulkItemError>
}

/** One input item: its position, the id it travels with, and its payload. */
export interface Indexed<T> {
  readonly index: number
  readonly id: string | undefined
  /** The id was made by sitefx for this write (nobody else can hold it). */
  readonly generatedId: boolean
  readonly value: T
}

/** Sends one chunk; answers the platform's per-item results. */
export type SendChunk<T> = (chunk: ReadonlyArray<Indexed<T>>) => Effect.Effect<ReadonlyArray<BulkItemResult>, DataError | PlatformError>

const transient = (error: DataError | PlatformError): error is PlatformError => error._tag === "PlatformError" && isTransient(error)

/** A chunk refused for its size: its items, sent in smaller chunks, may each be fine. */
const tooLarge = (error: DataError | PlatformError): boolean => error._tag === "DataError" && error.code === WDE.payloadTooLarge

/**
 * One chunk's outcome for the report. `retried`: an earlier attempt of this chunk may have landed; with
 * a resume key, an earlier run of the whole write may have.
 */
const account = <T>(
  kind: BulkKind,
  chunk: ReadonlyArray<Indexed<T>>,
  results: ReadonlyArray<BulkItemResult>,
  retried: boolean,
  options: BulkOptions
) => {
  const delta = { size: chunk.length, inserted: [] as Array<string>, updated: [] as Array<string>, removed: [] as Array<string>, skipped: 0, errors: [] as Array<BulkItemError> }
  const keyed = options.resumeKey !== undefined
  // the platform answers in request order; any other order is looked up by index
  const inOrder = results.length === chunk.length && results.every((r, i) => r.itemMetadata.originalIndex === i)
  const byIndex = inOrder ? undefined : new Map(results.map((r) => [r.itemMetadata.originalIndex, r]))
  chunk.forEach((entry, i) => {
    const result = byIndex === undefined ? results[i] : byIndex.get(i)
    if (result === undefined) {
      delta.errors.push({ index: entry.index, code: WDE.serverInvalidResponse, message: "The platform sent no result for this item", id: entry.id, item: entry.value })
      return
    }
    // the item's own id string when the answer repeats it: the report keeps one copy of each id, not two
    const answered = result.itemMetadata.id
    const id = answered === undefined || answered === null || answered === entry.id ? entry.id ?? "" : answered
    if (result.itemMetadata.success) {
      switch (kind) {
        case "insert":
          delta.inserted.push(id)
          break
        case "save":
          if (result.action === "INSERT") delta.inserted.push(id)
          else delta.updated.push(id)
          break
        case "remove":
          delta.removed.push(id)
          break
        default:
          delta.updated.push(id)
      }
      return
    }
    const code = result.itemMetadata.error?.code ?? "UNKNOWN_ERROR"
    const message = result.itemMetadata.error?.description ?? "Unknown error"
    // An id sitefx generated can only exist because an earlier attempt of this very chunk inserted it
    // (or, for a keyed write, an earlier run of it).
    if (kind === "insert" && code === WDE.itemAlreadyExists && entry.generatedId && (retried || keyed)) {
      delta.inserted.push(id)
    } else if (kind === "remove" && code === WDE.itemNotFound && retried) {
      delta.removed.push(id) // gone either way; an earlier attempt most likely removed it
    } else if (
      (kind === "insert" && code === WDE.itemAlreadyExists && options.overrideExisting !== true) ||
      ((kind === "update" || kind === "remove" || kind === "patch") && code === WDE.itemNotFound)
    ) {
      delta.skipped += 1
    } else {
      delta.errors.push({ index: entry.index, code, message, id, item: entry.value })
    }
  })
  return delta
}

/** The report being added up: the fold owns it, so each chunk's outcome is appended in place (not copied per chunk). */
interface Tally {
  settled: number
  /** Counts of written items; their ids are in the lists only when the write keeps ids. */
  counts: { inserted: number; updated: number; removed: number }
  keepIds: boolean
  inserted: Array<string>
  updated: Array<string>
  removed: Array<string>
  skipped: number
  errors: Array<BulkItemError>
}

const append = <T>(to: Array<T>, from: ReadonlyArray<T>) => {
  for (const x of from) to.push(x)
}

const tally = (acc: Tally, delta: ReturnType<typeof account>): Tally => {
  acc.counts.inserted += delta.inserted.length
  acc.counts.updated += delta.updated.length
  acc.counts.removed += delta.removed.length
  if (acc.keepIds) {
    append(acc.inserted, delta.inserted)
    append(acc.updated, delta.updated)
    append(acc.removed, delta.removed)
  }
  append(acc.errors, delta.errors)
  acc.skipped += delta.skipped
  acc.settled += delta.size
  return acc
}

const progressOf = (acc: Tally): BulkProgress => ({
  settled: acc.settled,
  ...acc.counts,
  skipped: acc.skipped,
  errors: acc.errors.length,
  failures: acc.errors
})

const toReport = (acc: Tally): BulkReport => ({
  ...acc.counts,
  skipped: acc.skipped,
  errors: acc.errors.sort((a, b) => a.index - b.index),
  insertedItemIds: acc.inserted,
  updatedItemIds: acc.updated,
  removedItemIds: acc.removed
})

type Delta = ReturnType<typeof account>

/** A chunk's end: its items' fates, or the refusal of the call that sent it. */
type ChunkEnd =
  | { readonly _tag: "Settled"; readonly delta: Delta }
  | { readonly _tag: "Refused"; readonly error: DataError | PlatformError }

const merge = (a: Delta, b: Delta): Delta => ({
  size: a.size + b.size,
  inserted: [...a.inserted, ...b.inserted],
  updated: [...a.updated, ...b.updated],
  removed: [...a.removed, ...b.removed],
  skipped: a.skipped + b.skipped,
  errors: [...a.errors, ...b.errors]
})

/**
 * Runs a bulk write over any number of items and reports every item's fate. The report's `errors` are
 * single items the platform refused; a refusal of a whole request (a rejected key, no permission, no such
 * collection, the platform still unavailable after the retries) is not about its items and fails the
 * write with that error, once every chunk before it is settled and told to `onProgress`. A chunk refused
 * for its size (WDE0109) is sent again in halves, so only an item too large on its own fails, alone.
 * `prepare` makes each item into what is sent (its position in the whole stream, its id) as its chunk
 * is about to go, so a stream that arrives as one big chunk does not have all its items prepared, and
 * held, at once.
 */
export const runBulk = <A, T, E = never>(
  kind: BulkKind,
  items: Stream.Stream<A, E>,
  prepare: (item: A, index: number) => Indexed<T>,
  send: SendChunk<T>,
  retry: RetryPolicy,
  options: BulkOptions = {}
): Effect.Effect<BulkReport, E | DataError | PlatformError> => {
  const size = Math.max(1, Math.min(options.chunkSize ?? MAX_BULK_ITEMS, MAX_BULK_ITEMS))
  // `retried`: an earlier attempt of these items may have landed
  const attempt = (chunk: ReadonlyArray<Indexed<T>>, n: number, retried: boolean): Effect.Effect<ChunkEnd> =>
    send(chunk).pipe(
      Effect.map((results): ChunkEnd => ({ _tag: "Settled", delta: account(kind, chunk, results, retried, options) })),
      Effect.catch((error): Effect.Effect<ChunkEnd> => {
        if (transient(error) && n < retry.times) {
          const delay = retryDelay(retry, n, error)
          return noteRetry(error, n + 1, delay, error).pipe(Effect.andThen(Effect.sleep(delay)), Effect.andThen(attempt(chunk, n + 1, true)))
        }
        if (tooLarge(error)) {
          if (chunk.length === 1) {
            const [e] = chunk as [Indexed<T>]
            return Effect.succeed({
              _tag: "Settled",
              delta: { size: 1, inserted: [], updated: [], removed: [], skipped: 0, errors: [{ index: e.index, code: error.code, message: error.message, id: e.id, item: e.value }] }
            })
          }
          const half = Math.ceil(chunk.length / 2)
          return attempt(chunk.slice(0, half), 0, retried).pipe(
            Effect.flatMap((head) =>
              head._tag === "Refused" ? Effect.succeed(head) : attempt(chunk.slice(half), 0, retried).pipe(
                Effect.map((tail): ChunkEnd => tail._tag === "Refused" ? tail : { _tag: "Settled", delta: merge(head.delta, tail.delta) })
              )
            )
          )
        }
        return Effect.succeed({ _tag: "Refused", error })
      })
    )
  const start = options.startAt ?? 0
  const onProgress = options.onProgress
  return items.pipe(
    // groups of exactly `size` but the last, so group `g` starts at position `start + g * size`
    Stream.grouped(size),
    // outcomes come out in input order, however the chunks finish
    Stream.mapEffect((group, g) => attempt(group.map((item, i) => prepare(item, start + g * size + i)), 0, false), { concurrency: Math.max(1, options.concurrency ?? 4) }),
    Stream.runFoldEffect((): Tally => ({
      settled: start,
      counts: { inserted: 0, updated: 0, removed: 0 },
      keepIds: options.keepIds !== false,
      inserted: [],
      updated: [],
      removed: [],
      skipped: 0,
      errors: []
    }), (acc, end): Effect.Effect<Tally, DataError | PlatformError> => {
      // every chunk before this one is settled and told: the refusal ends the write here
      if (end._tag === "Refused") return Effect.fail(end.error)
      tally(acc, end.delta)
      return onProgress === undefined ? Effect.succeed(acc) : Effect.as(onProgress(progressOf(acc)), acc)
    }),
    Effect.map(toReport)
  )
}
