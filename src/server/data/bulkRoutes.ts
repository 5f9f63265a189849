/**
 * Bulk routes: insert, update, save, patch and remove up to 1000 items in one transaction, with one
 * result per item in request order. A failing item (WDE0074 exists, WDE0073 missing, WDE0027 not the
 * owner, WDE0078 hook, 400 bad data) gets its error and changes nothing; the others go ahead. A caller
 * whose role may not do the action at all gets 403 for the whole request. Also the async jobs (patch
 * or remove by filter) and their status.
 */
import * as Effect from "effect/Effect"
import type * as Schema from "effect/Schema"
import * as HttpRouter from "effect/http/HttpRouter"
import { WDE } from "../../data/DataError.ts"
import { DataPaths, MAX_BULK_ITEMS } from "../../data/protocol.ts"
import {
  AsyncJobResponse,
  AsyncJobStatusResponse,
  AsyncPatchByFilterRequest,
  AsyncRemoveByFilterRequest,
  BulkActionType,
  type BulkItemResult,
  BulkItemsRequest,
  BulkPatchRequest,
  BulkRemoveRequest,
  BulkResponse,
  type DataCollection,
  isBulkItemsRequest
} from "../../data/wire/index.ts"
import type { Caller } from "../platform/Caller.ts"
import { Callers } from "../accounts/Callers.ts"
import { application, notFound, reply, replyAsIs } from "../platform/responses.ts"
import { pathParam, route } from "../platform/routing.ts"
import { type Action, accessFor } from "./access.ts"
import { AsyncJobs } from "./AsyncJobs.ts"
import { DataCollections } from "./DataCollections.ts"
import { DataSettings } from "./DataSettings.ts"
import { attempt, catchFailure, type Outcome as ItemOutcome, toItemError } from "../store/engineFailures.ts"
import type { DataEnvironment } from "./environments.ts"
import { wireItem } from "./itemRoutes.ts"
import { checkFilter } from "../store/filters.ts"
import { checkModifications } from "./modifications.ts"
import { dataBody } from "./requests.ts"
import type { Json } from "../store/values.ts"
import { ItemWrites, type WriteContext, type Written } from "./Writes.ts"

export const bulkRoutes = HttpRouter.addAll(Effect.gen(function*() {
  const callers = yield* Callers
  const collections = yield* DataCollections
  const writes = yield* ItemWrites
  const jobs = yield* AsyncJobs
  const settings = yield* DataSettings

  const body = <A, I>(schema: Schema.Codec<A, I>, is?: (u: unknown) => u is A) => Effect.provideService(dataBody(schema, is), DataSettings, settings)
  const collectionOf = (id: string, environment?: DataEnvironment) => attempt(() => collections.inEnvironment(id, environment))

  /** 403 for the whole request unless the caller's role allows one of the actions. */
  const allowed = (collection: DataCollection, caller: Caller, actions: ReadonlyArray<Action>) =>
    attempt(() => {
      const refusals = actions.flatMap((a) => {
        const r = catchFailure(() => accessFor(collection, a, caller))
        return r.ok ? [] : [r.failure]
      })
      if (refusals.length === actions.length && refusals[0] !== undefined) throw refusals[0]
    })

  const tooMany = (code: string, what: string, field: string) =>
    application(400, code, `${code}: Cannot ${what} more than ${MAX_BULK_ITEMS} items in one request`)
      .because({ kind: "bound", id: "data.bulk.max-items", fields: [field], limit: MAX_BULK_ITEMS })

  const items = (
    path: string,
    action: BulkAction,
    actions: ReadonlyArray<Action>,
    writeAll: (ctx: WriteContext, items: ReadonlyArray<typeof BulkItemsRequest.Type["dataItems"][number]>) => ReadonlyArray<ItemOutcome<Written>>,
    idOf: (item: typeof BulkItemsRequest.Type["dataItems"][number]) => string | undefined
  ) =>
    route(
      "POST",
      path as `/${string}`,
      Effect.gen(function*() {
        const request = yield* body(BulkItemsRequest, isBulkItemsRequest)
        if (request.dataItems.length > MAX_BULK_ITEMS) return yield* tooMany(WDE.tooManyBulkItems, "save", "dataItems")
        const caller = yield* callers.current
        const collection = yield* collectionOf(request.dataCollectionId, request.environment)
        yield* allowed(collection, caller, actions)
        // the ids as given, read before the writes (which make the request's items into the stored ones)
        const given = request.dataItems.map(idOf)
        const outcomes = yield* writes.commit(collection, caller, request.suppressHooks, (ctx) =>
          writeAll(ctx, request.dataItems).map((result, i): Outcome => ({
            id: given[i],
            result: result.ok
              ? { ok: true, value: { item: result.value.item, action: result.value.action === "INSERTED" ? "INSERT" : action } }
              : result
          })))
        return replyAsIs(BulkResponse, summarize(collection.id, outcomes, action, request.returnEntity === true))
      })
    )

  const givenId = (item: typeof BulkItemsRequest.Type["dataItems"][number]) => {
    const fromData = item.data?.["_id"]
    return item.id ?? (typeof fromData === "string" ? fromData : undefined)
  }

  return [
    items(DataPaths.bulkInsert, "INSERT", ["insert"], (ctx, all) => writes.insertMany(ctx, all), givenId),
    items(DataPaths.bulkUpdate, "UPDATE", ["update"], (ctx, all) => all.map((item) => catchFailure(() => writes.update(ctx, item))), givenId),
    items(DataPaths.bulkSave, "UPDATE", ["insert", "update"], (ctx, all) => all.map((item) => catchFailure(() => writes.save(ctx, item))), givenId),
    route(
      "POST",
      DataPaths.bulkRemove,
      Effect.gen(function*() {
        const request = yield* body(BulkRemoveRequest)
        if (request.dataItemIds.length > MAX_BULK_ITEMS) return yield* tooMany(WDE.tooManyIdsToRemove, "remove", "dataItemIds")
        const caller = yield* callers.current
        const collection = yield* collectionOf(request.dataCollectionId, request.environment)
        yield* allowed(collection, caller, ["remove"])
        const outcomes = yield* writes.commit(collection, caller, request.suppressHooks, (ctx) =>
          request.dataItemIds.map((id): Outcome => ({
            id,
            result: catchFailure(() => ({ item: writes.remove(ctx, id), action: "DELETE" as const }))
          })))
        return replyAsIs(BulkResponse, summarize(collection.id, outcomes, "DELETE", false))
      })
    ),
    route(
      "POST",
      DataPaths.bulkPatch,
      Effect.gen(function*() {
        const request = yield* body(BulkPatchRequest)
        if (request.patches.length > MAX_BULK_ITEMS) return yield* tooMany(WDE.tooManyBulkItems, "patch", "patches")
        const caller = yield* callers.current
        const collection = yield* collectionOf(request.dataCollectionId, request.environment)
        yield* allowed(collection, caller, ["update"])
        const outcomes = yield* writes.commit(collection, caller, request.suppressHooks, (ctx) =>
          request.patches.map((patch): Outcome => ({
            id: patch.dataItemId,
            result: catchFailure(() => ({ item: writes.patch(ctx, patch.dataItemId, patch.fieldModifications).item, action: "PATCH" as const }))
          })))
        return replyAsIs(BulkResponse, summarize(collection.id, outcomes, "PATCH", request.returnEntity === true))
      })
    ),
    route(
      "POST",
      DataPaths.asyncPatchByFilter,
      Effect.gen(function*() {
        const request = yield* body(AsyncPatchByFilterRequest)
        const caller = yield* callers.current
        const collection = yield* collectionOf(request.dataCollectionId, request.environment)
        yield* attempt(() => {
          accessFor(collection, "update", caller)
          checkFilter(request.filter, "filter")
          checkModifications(request.fieldModifications)
        })
        const jobId = yield* jobs.start(collection, caller, request.filter, { kind: "patch", fieldModifications: request.fieldModifications }, request.suppressHooks)
        return reply(AsyncJobResponse, { jobId })
      })
    ),
    route(
      "POST",
      DataPaths.asyncRemoveByFilter,
      Effect.gen(function*() {
        const request = yield* body(AsyncRemoveByFilterRequest)
        const caller = yield* callers.current
        const collection = yield* collectionOf(request.dataCollectionId, request.environment)
        yield* attempt(() => {
          accessFor(collection, "remove", caller)
          checkFilter(request.filter, "filter")
        })
        const jobId = yield* jobs.start(collection, caller, request.filter, { kind: "remove" }, request.suppressHooks)
        return reply(AsyncJobResponse, { jobId })
      })
    ),
    route(
      "GET",
      "/wix-data/v2/async-jobs/:jobId/status",
      Effect.gen(function*() {
        const state = jobs.status(yield* pathParam("jobId"))
        if (state === undefined) return yield* notFound("No async job has this id", "JOB_NOT_FOUND")
        return reply(AsyncJobStatusResponse, state)
      })
    )
  ]
}))

type BulkAction = typeof BulkActionType.Type

interface Outcome {
  readonly id: string | undefined
  readonly result: ItemOutcome<{ readonly item: Json; readonly action: BulkAction }>
}

const summarize = (collectionId: string, outcomes: ReadonlyArray<Outcome>, action: BulkAction, returnEntity: boolean) => {
  const results = outcomes.map((o, originalIndex): BulkItemResult =>
    o.result.ok
      ? {
        action: o.result.value.action,
        itemMetadata: { id: String(o.result.value.item["_id"]), originalIndex, success: true },
        ...(returnEntity ? { dataItem: wireItem(collectionId, o.result.value.item) } : {})
      }
      : {
        action,
        itemMetadata: { ...(o.id === undefined ? {} : { id: o.id }), originalIndex, success: false, error: toItemError(o.result.failure) }
      }
  )
  const totalSuccesses = outcomes.filter((o) => o.result.ok).length
  return { results, bulkActionMetadata: { totalSuccesses, totalFailures: outcomes.length - totalSuccesses } }
}
