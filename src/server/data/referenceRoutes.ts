/**
 * Reference routes: the items a reference field points to (paged, default 50), whether one item
 * references another, and adding, removing or replacing the references of a multi-reference field.
 * Reading needs read permission on both collections; changing references needs update permission on
 * the referring collection (and, for a member-author collection, owning the referring item).
 */
import * as Effect from "effect/Effect"
import * as Schema from "effect/Schema"
import * as HttpRouter from "effect/http/HttpRouter"
import { WDE } from "../../data/DataError.ts"
import { DataPaths, MAX_BULK_ITEMS } from "../../data/protocol.ts"
import {
  BulkReferencesRequest,
  BulkReferencesResponse,
  type DataCollection,
  type DataItemReference,
  IsReferencedRequest,
  IsReferencedResponse,
  QueryReferencedRequest,
  QueryReferencedResponse,
  ReplaceReferencesRequest,
  ReplaceReferencesResponse
} from "../../data/wire/index.ts"
import type { Caller } from "../platform/Caller.ts"
import { Callers } from "../accounts/Callers.ts"
import { application, reply } from "../platform/responses.ts"
import { route } from "../platform/routing.ts"
import { type Access, accessFor, covers, requireCovers } from "./access.ts"
import { DataCollections } from "./DataCollections.ts"
import { CursorOffset, decodeCursor, encodeCursor } from "./cursor.ts"
import { DataSettings } from "./DataSettings.ts"
import { MAX_PROJECTED_FIELDS } from "../platform/limits.ts"
import { atMost, attempt, badRequest, catchFailure, toItemError } from "../store/engineFailures.ts"
import { collectionNotFound, itemNotFound } from "./dataFailures.ts"
import { type DataEnvironment, publicId } from "./environments.ts"
import { ItemStore, ITEMS } from "./ItemStore.ts"
import { cursorMetadata, offsetMetadata, pageRequest } from "./paging.ts"
import { multiReferenceField, type ReferenceField, referenceField, References, type ReferenceRow } from "./References.ts"
import { dataBody } from "./requests.ts"
import { projection, sql } from "../store/sql.ts"
import { isObject, type Json } from "../store/values.ts"
import { ItemWrites } from "./Writes.ts"

export const referenceRoutes = HttpRouter.addAll(Effect.gen(function*() {
  const callers = yield* Callers
  const collections = yield* DataCollections
  const items = yield* ItemStore
  const references = yield* References
  const writes = yield* ItemWrites
  const settings = yield* DataSettings

  const body = <A, I>(schema: Schema.Codec<A, I>) => Effect.provideService(dataBody(schema), DataSettings, settings)
  const collectionOf = (id: string, environment?: DataEnvironment) => attempt(() => collections.inEnvironment(id, environment))

  const anyReferenceField = (collection: DataCollection, key: string): ReferenceField => {
    const field = referenceField(collection, key)
    if (field === undefined) throw badRequest("WDE0020", `WDE0020: Provided property [${key}] is not a reference field.`, ["referringItemFieldName"])
    return field
  }

  /** The referring item, visible to the caller under `access`; 404 WDE0073 / 403 WDE0027 otherwise. */
  const referring = (collection: DataCollection, id: string, access: Access, action: "read" | "update") => {
    const item = items.get(collection.id, id)
    if (item === undefined) throw itemNotFound(id, collection.id)
    requireCovers(access, item.owner, action, collection.id)
    return item
  }

  /** References of `field` from the referring items, one page (single references read from the items). */
  const referencesOf = (
    collection: DataCollection,
    field: ReferenceField,
    ids: ReadonlyArray<string>,
    desc: boolean,
    limit: number,
    offset: number
  ): { readonly rows: ReadonlyArray<ReferenceRow>; readonly count: () => number } => {
    if (field.kind === "multi") {
      return {
        rows: references.list(collection.id, field.key, ids, { desc, limit, offset }),
        count: () => references.count(collection.id, field.key, ids)
      }
    }
    const all = ids.flatMap((id) => {
      const referencedId = idIn(items.get(collection.id, id)?.data[field.key])
      return referencedId === undefined ? [] : [{ referringId: id, referencedId }]
    })
    return { rows: (desc ? [...all].reverse() : all).slice(offset, offset + limit), count: () => all.length }
  }

  const queryReferenced = (request: typeof QueryReferencedRequest.Type, caller: Caller, collection: DataCollection) => {
    const access = accessFor(collection, "read", caller)
    const page = pageRequest(request.paging, request.cursorPaging)
    let state = {
      field: request.referringItemFieldName,
      ids: request.referringItemIds ?? (request.referringItemId === undefined ? [] : [request.referringItemId]),
      order: request.order ?? "ASC",
      fields: request.fields ?? []
    }
    let offset = page.mode === "offset" ? page.offset : 0
    if (page.mode === "cursor" && page.cursor !== undefined) {
      const c = decodeCursor(page.cursor, "referenced", collection.id, ReferencedCursor)
      state = c.state
      offset = c.offset
    }
    if (state.ids.length === 0) throw badRequest(WDE.itemIdNotString, "referringItemId or referringItemIds is required.", ["referringItemId"])
    atMost(state.fields.length, MAX_PROJECTED_FIELDS, "fields", "A referenced query projects fields:")
    if (state.field === undefined || state.field === "") throw badRequest(WDE.emptyString, "referringItemFieldName is required.", ["referringItemFieldName"])
    const field = anyReferenceField(collection, state.field)
    const target = collections.byKey(field.referencedCollectionId)
    if (target === undefined) throw collectionNotFound(publicId(field.referencedCollectionId))
    const targetAccess = accessFor(target, "read", caller)
    const visibleIds = state.ids.filter((id) => {
      const item = items.get(collection.id, id)
      return item !== undefined && covers(access, item.owner)
    })
    const limit = page.limit
    const { rows, count } = referencesOf(collection, field, visibleIds, state.order === "DESC", limit + 1, offset)
    const pageRows = rows.slice(0, limit)
    const wanted = [...new Set(pageRows.map((r) => r.referencedId))]
    const doc = state.fields.length > 0 ? projection(ITEMS, state.fields) : "data"
    const found = new Map(
      wanted.length === 0 ? [] : items.select(
        target.id,
        `id, owner, ${doc} AS doc`,
        sql(`id IN (${wanted.map(() => "?").join(", ")})`, ...wanted)
      ).filter((r) => covers(targetAccess, typeof r.owner === "string" ? r.owner : undefined))
        .map((r) => [String(r.id), JSON.parse(String(r.doc)) as Json])
    )
    const results = pageRows.map((r) => {
      const data = found.get(r.referencedId)
      return data === undefined
        ? { referringItemId: r.referringId, unresolvedReference: { referringItemId: r.referringId, referringItemFieldName: field.key, referencedItemId: r.referencedId } }
        : { referringItemId: r.referringId, dataItem: { id: r.referencedId, dataCollectionId: publicId(target.id), data } }
    })
    const hasNext = rows.length > limit
    if (page.mode === "offset") {
      return { results, pagingMetadata: offsetMetadata(results.length, offset, hasNext, request.returnTotalCount === true ? count() : undefined) }
    }
    const cursor = (at: number) => encodeCursor({ kind: "referenced", collection: collection.id, state, offset: at })
    return {
      results,
      pagingMetadata: cursorMetadata(results.length, hasNext ? cursor(offset + limit) : undefined, offset > 0 ? cursor(Math.max(0, offset - limit)) : undefined, hasNext)
    }
  }

  const bulkReferences = (kind: "INSERT" | "DELETE") =>
    Effect.gen(function*() {
      const request = yield* body(BulkReferencesRequest)
      if (request.dataItemReferences.length > MAX_BULK_ITEMS) {
        return yield* application(400, WDE.tooManyBulkItems, `${WDE.tooManyBulkItems}: Cannot change more than ${MAX_BULK_ITEMS} references in one request`)
          .because({ kind: "bound", id: "data.bulk.max-items", fields: ["dataItemReferences"], limit: MAX_BULK_ITEMS })
      }
      const caller = yield* callers.current
      const collection = yield* collectionOf(request.dataCollectionId, request.environment)
      const access = yield* attempt(() => accessFor(collection, "update", caller))
      const outcomes = yield* writes.commit(collection, caller, undefined, () =>
        request.dataItemReferences.map((ref: DataItemReference) =>
          catchFailure(() => {
            const field = multiReferenceField(collection, ref.referringItemFieldName)
            referring(collection, ref.referringItemId, access, "update")
            if (kind === "INSERT") references.add(collection.id, field, ref.referringItemId, ref.referencedItemId)
            else references.delete(collection.id, field.key, ref.referringItemId, ref.referencedItemId)
            return ref
          })
        ))
      const totalSuccesses = outcomes.filter((o) => o.ok).length
      return reply(BulkReferencesResponse, {
        results: outcomes.map((o, originalIndex) =>
          o.ok
            ? {
              action: kind,
              referenceMetadata: { originalIndex, success: true },
              ...(request.returnEntity === true ? { dataItemReference: o.value } : {})
            }
            : { action: kind, referenceMetadata: { originalIndex, success: false, error: toItemError(o.failure) } }
        ),
        bulkActionMetadata: { totalSuccesses, totalFailures: outcomes.length - totalSuccesses }
      })
    })

  return [
    route(
      "POST",
      DataPaths.queryReferenced,
      Effect.gen(function*() {
        const request = yield* body(QueryReferencedRequest)
        const caller = yield* callers.current
        const collection = yield* collectionOf(request.dataCollectionId, request.environment)
        return reply(QueryReferencedResponse, yield* attempt(() => queryReferenced(request, caller, collection)))
      })
    ),
    route(
      "POST",
      DataPaths.isReferenced,
      Effect.gen(function*() {
        const request = yield* body(IsReferencedRequest)
        const caller = yield* callers.current
        const collection = yield* collectionOf(request.dataCollectionId, request.environment)
        const isReferenced = yield* attempt(() => {
          const access = accessFor(collection, "read", caller)
          const field = anyReferenceField(collection, request.referringItemFieldName)
          const item = items.get(collection.id, request.referringItemId)
          if (item === undefined || !covers(access, item.owner)) return false
          return field.kind === "multi"
            ? references.has(collection.id, field.key, request.referringItemId, request.referencedItemId)
            : idIn(item.data[field.key]) === request.referencedItemId
        })
        return reply(IsReferencedResponse, { isReferenced })
      })
    ),
    route(
      "POST",
      DataPaths.replaceReferences,
      Effect.gen(function*() {
        const request = yield* body(ReplaceReferencesRequest)
        const caller = yield* callers.current
        const collection = yield* collectionOf(request.dataCollectionId, request.environment)
        const dataItemReferences = yield* writes.commit(collection, caller, undefined, () => {
          const access = accessFor(collection, "update", caller)
          const field = multiReferenceField(collection, request.referringItemFieldName)
          referring(collection, request.referringItemId, access, "update")
          const ids = [...new Set(request.newReferencedItemIds ?? [])]
          references.replace(collection.id, field, request.referringItemId, ids)
          return ids.map((referencedItemId) => ({
            referringItemFieldName: field.key,
            referringItemId: request.referringItemId,
            referencedItemId
          }))
        })
        return reply(ReplaceReferencesResponse, { dataItemReferences })
      })
    ),
    route("POST", DataPaths.bulkInsertReferences, bulkReferences("INSERT")),
    route("POST", DataPaths.bulkRemoveReferences, bulkReferences("DELETE"))
  ]
}))

const idIn = (value: unknown): string | undefined =>
  typeof value === "string" ? value : isObject(value) && typeof value["_id"] === "string" ? value["_id"] : undefined

const ReferencedCursor = Schema.Struct({
  state: Schema.Struct({
    field: Schema.String,
    ids: Schema.Array(Schema.String),
    order: Schema.Literals(["ASC", "DESC"]),
    fields: Schema.Array(Schema.String)
  }),
  offset: CursorOffset
})
