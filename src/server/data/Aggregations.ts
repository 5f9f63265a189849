/**
 * Runs aggregations and pipelines (compiled by pipeline.ts) one page at a time. Results have no stable
 * identity to resume from, so their cursors carry the stages and the offset of the next page.
 */
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Schema from "effect/Schema"
import { PipelineStage as PipelineStageSchema } from "../../data/wire/index.ts"
import type { AggregateDataItemsResponse, CursorPaging, DataCollection, Paging, PipelineStage } from "../../data/wire/index.ts"
import type { Caller } from "../platform/Caller.ts"
import { Database } from "../platform/Database.ts"
import { accessFor } from "./access.ts"
import { CursorOffset, decodeCursor, encodeCursor } from "./cursor.ts"
import { DataHooks } from "./DataHooks.ts"
import { compileFilter } from "../store/filters.ts"
import { ITEMS } from "./ItemStore.ts"
import { cursorMetadata, offsetMetadata, pageRequest } from "./paging.ts"
import { compilePipeline, pipelineRead } from "./pipeline.ts"
import { filterFields, Scans } from "./Scans.ts"
import { joinWith, orderBy, sortTerms, sql } from "../store/sql.ts"
import type { Json } from "../store/values.ts"

export interface PipelineRun {
  readonly stages: ReadonlyArray<PipelineStage>
  readonly paging?: Paging | undefined
  readonly cursorPaging?: CursorPaging | undefined
  readonly returnTotalCount?: boolean | undefined
  /** Aggregate results repeat the grouping values next to `_id`. */
  readonly groupFieldsOnTop?: boolean
}

const PipelineCursor = Schema.Struct({
  stages: Schema.Array(PipelineStageSchema),
  offset: CursorOffset,
  groupFieldsOnTop: Schema.optionalKey(Schema.Boolean)
})

export interface AggregationsShape {
  readonly run: (collection: DataCollection, caller: Caller, kind: "aggregate" | "pipeline", request: PipelineRun) => AggregateDataItemsResponse
}

export class Aggregations extends Context.Service<Aggregations, AggregationsShape>()("sitefx/server/data/Aggregations") {
  static readonly layer: Layer.Layer<Aggregations, never, Database | DataHooks | Scans> = Layer.effect(
    Aggregations,
    Effect.gen(function*() {
      const db = yield* Database
      const hooks = yield* DataHooks
      const scans = yield* Scans
      return Aggregations.of({
        run: (collection, caller, kind, request) => {
          const access = accessFor(collection, "read", caller)
          hooks.run(collection.id, "beforeQuery")
          const page = pageRequest(request.paging, request.cursorPaging)
          let stages = request.stages
          let offset = page.mode === "offset" ? page.offset : 0
          let groupFieldsOnTop = request.groupFieldsOnTop === true
          if (page.mode === "cursor" && page.cursor !== undefined) {
            const c = decodeCursor(page.cursor, kind, collection.id, PipelineCursor)
            stages = c.stages
            offset = c.offset
            groupFieldsOnTop = c.groupFieldsOnTop === true
          }
          const own = access.kind === "own" ? [sql("owner = ?", access.ownerId)] : []
          const base = joinWith(" AND ", [sql("collection_id = ?", collection.id), ...own])
          const compiled = compilePipeline(base, (f, field, budget) => compileFilter(f, ITEMS, field, budget), stages, { groupFieldsOnTop })
          // judged as the read of the collection it starts with: its leading filters, and a sort right after them
          const read = pipelineRead(stages)
          const fields = [...new Set([...read.filters.flatMap(filterFields), ...read.sort.map((s) => s.fieldName)])]
          const conditions = [...own, ...read.filters.map((f, i) => compileFilter(f, ITEMS, `pipeline.stages.${i}.filter`))]
          scans.judge({
            collectionId: collection.id,
            where: conditions.length === 0 ? sql("1") : joinWith(" AND ", conditions),
            tail: read.sort.length === 0 ? undefined : sql(`ORDER BY ${orderBy(sortTerms(ITEMS, read.sort))}`),
            fields,
            everyItem: fields.length === 0 && read.readsAll
          })
          const limit = page.limit
          const rows = db.all(
            `${compiled.with.sql}SELECT doc FROM ${compiled.last} ORDER BY ord LIMIT ? OFFSET ?`,
            ...compiled.with.params,
            limit + 1,
            offset
          )
          const results = rows.slice(0, limit).map((r) => JSON.parse(String(r.doc)) as Json)
          const hasNext = rows.length > limit
          if (page.mode === "offset") {
            const total = request.returnTotalCount === true
              ? Number(db.get(`${compiled.with.sql}SELECT COUNT(*) AS n FROM ${compiled.last}`, ...compiled.with.params)?.n ?? 0)
              : undefined
            return { results, pagingMetadata: offsetMetadata(results.length, offset, hasNext, total) }
          }
          const next = hasNext
            ? encodeCursor({ kind, collection: collection.id, stages, offset: offset + limit, groupFieldsOnTop })
            : undefined
          const prev = offset > 0
            ? encodeCursor({ kind, collection: collection.id, stages, offset: Math.max(0, offset - limit), groupFieldsOnTop })
            : undefined
          return { results, pagingMetadata: cursorMetadata(results.length, next, prev, hasNext) }
        }
      })
    })
  )
}
