/**
 * Reading items: get, query and search (offset or cursor paging), count and distinct values, with
 * referenced items included on request. Everything is one SQL statement per page over the item table
 * (see store/sql.ts); a member reading a SITE_MEMBER_AUTHOR collection only ever sees its own items.
 *
 * Order: the sort fields, then the insertion sequence, which runs in the direction of the last sort
 * field (ascending without a sort). Cursors resume after the last item's full sort key: in one query
 * that reads the collection up to the cursor's place, or, when an index holds exactly the sort's
 * order, in one seek per sort term (measured, 100 000 items sorted on an indexed field: 0.9 s to page
 * through them all, against 8.5 s with the one query and 18.6 s without the index).
 */
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Schema from "effect/Schema"
import type { SQLInputValue } from "node:sqlite"
import {
  FilterJson,
  IncludedReference,
  PagingMetadata as PagingMetadataSchema,
  QueryDataItemsResponse,
  SearchMode,
  Sorting
} from "../../data/wire/index.ts"
import type { CursorPaging, DataCollection, DataItem, Paging, PagingMetadata } from "../../data/wire/index.ts"
import type { Caller } from "../platform/Caller.ts"
import { Database, type Row } from "../platform/Database.ts"
import { MAX_INCLUDED_REFERENCES, MAX_PROJECTED_FIELDS, MAX_SORT_FIELDS } from "../platform/limits.ts"
import { type Access, accessFor, canRead, requireCovers } from "./access.ts"
import { DataCollections } from "./DataCollections.ts"
import { CursorKeys, type CursorState, decodeCursor, encodeCursor } from "./cursor.ts"
import { DataHooks } from "./DataHooks.ts"
import { atMost, badRequest } from "../store/engineFailures.ts"
import { itemNotFound } from "./dataFailures.ts"
import { publicId } from "./environments.ts"
import { Indexes } from "./Indexes.ts"
import { ItemStore, ITEMS, toStored } from "./ItemStore.ts"
import { compileFilter } from "../store/filters.ts"
import { cursorMetadata, offsetMetadata, pageRequest } from "./paging.ts"
import { referenceField, References } from "./References.ts"
import { filterFields, Scans } from "./Scans.ts"
import { registerSearch, type SearchDetails, searchCondition } from "./search.ts"
import {
  beyond,
  beyondAt,
  concat,
  element,
  type Fragment,
  joinWith,
  orderBy,
  projection,
  ref,
  type SortTerm,
  sortTerms,
  type Source,
  sql,
  where
} from "../store/sql.ts"
import { isObject, type Json } from "../store/values.ts"

export interface QueryInput {
  readonly filter?: unknown
  readonly sort?: ReadonlyArray<Sorting> | undefined
  readonly fields?: ReadonlyArray<string> | undefined
  readonly paging?: Paging | undefined
  readonly cursorPaging?: CursorPaging | undefined
  readonly returnTotalCount?: boolean | undefined
  readonly includeReferences?: ReadonlyArray<IncludedReference> | undefined
  readonly search?: SearchDetails | undefined
}

export interface DistinctInput {
  readonly fieldName?: string | undefined
  readonly filter?: unknown
  readonly order?: "ASC" | "DESC" | undefined
  readonly paging?: Paging | undefined
  readonly cursorPaging?: CursorPaging | undefined
  readonly returnTotalCount?: boolean | undefined
}

export interface ReadsShape {
  /** One item (404 WDE0073 when missing, 403 when it belongs to another member of an author collection). */
  readonly get: (
    collection: DataCollection,
    caller: Caller,
    id: string,
    options: { readonly fields?: ReadonlyArray<string> | undefined; readonly includeReferences?: ReadonlyArray<IncludedReference> | undefined }
  ) => DataItem
  /**
   * A page of items, as the JSON text of the answer (`QueryDataItemsResponse`): stored items are put in
   * as the JSON they are stored as, not parsed and written out again (unless references are included).
   */
  readonly query: (collection: DataCollection, caller: Caller, input: QueryInput) => string
  readonly count: (collection: DataCollection, caller: Caller, filter: unknown) => number
  readonly distinct: (
    collection: DataCollection,
    caller: Caller,
    input: DistinctInput
  ) => { readonly distinctValues: ReadonlyArray<unknown>; readonly pagingMetadata: PagingMetadata }
  /** The items an access covers that match a filter (for jobs): a condition on `data_items`. */
  readonly visible: (access: Access, filter: unknown, source?: Source) => Fragment
  /** Replaces reference fields of items with the referenced items the caller may read. */
  readonly includeReferences: (
    collection: DataCollection,
    caller: Caller,
    items: ReadonlyArray<{ readonly id: string; readonly data: Json }>,
    includes: ReadonlyArray<IncludedReference>
  ) => void
}

const DEFAULT_REFERENCE_LIMIT = 50

/** What a cursor of a query or search holds besides its kind and collection (see `encodeCursor` below). */
const ItemsCursor = Schema.Struct({
  filter: Schema.optionalKey(Schema.NullOr(FilterJson)),
  sort: Schema.optionalKey(Schema.Array(Sorting)),
  fields: Schema.optionalKey(Schema.Array(Schema.String)),
  includeReferences: Schema.optionalKey(Schema.Array(IncludedReference)),
  search: Schema.optionalKey(Schema.NullOr(Schema.Struct({
    expression: Schema.optionalKey(Schema.NullOr(Schema.String)),
    fuzzy: Schema.optionalKey(Schema.Boolean),
    mode: Schema.optionalKey(SearchMode)
  }))),
  keys: CursorKeys,
  direction: Schema.Literals(["next", "prev"])
})

const DistinctCursor = Schema.Struct({
  fieldName: Schema.String,
  filter: Schema.optionalKey(Schema.NullOr(FilterJson)),
  order: Schema.Literals(["ASC", "DESC"]),
  keys: CursorKeys
})


const ownOnly = (access: Access, source: Source = ITEMS): ReadonlyArray<Fragment> =>
  access.kind === "own" ? [sql(`${source.ownerColumn ?? "owner"} = ?`, access.ownerId)] : []

const both = (parts: ReadonlyArray<Fragment>): Fragment => concat("(", joinWith(" AND ", parts), ")")

export class Reads extends Context.Service<Reads, ReadsShape>()("sitefx/server/data/Reads") {
  static readonly layer: Layer.Layer<Reads, never, Database | ItemStore | DataCollections | References | DataHooks | Indexes | Scans> = Layer.effect(
    Reads,
    Effect.gen(function*() {
      const db = yield* Database
      const items = yield* ItemStore
      const collections = yield* DataCollections
      const references = yield* References
      const hooks = yield* DataHooks
      const indexes = yield* Indexes
      const scans = yield* Scans
      registerSearch(db)

      const visible = (access: Access, filter: unknown, source: Source = ITEMS): Fragment =>
        both([compileFilter(filter, source, "filter"), ...ownOnly(access, source)])

      const toDataItem = (collection: DataCollection, row: Row): DataItem => ({
        id: String(row.id),
        dataCollectionId: publicId(collection.id),
        data: JSON.parse(String(row.doc)) as Json
      })

      const includeReferences: ReadsShape["includeReferences"] = (collection, caller, list, includes) => {
        if (list.length === 0) return
        for (const include of includes) {
          const field = referenceField(collection, include.field)
          const target = field === undefined ? undefined : collections.byKey(field.referencedCollectionId)
          if (field === undefined || target === undefined || !canRead(target, caller)) continue
          const access = accessFor(target, "read", caller)
          const fetch = (ids: ReadonlyArray<string>): Map<string, Json> => {
            if (ids.length === 0) return new Map()
            const rows = items.select(
              target.id,
              "seq, id, data, owner",
              both([sql(`id IN (${ids.map(() => "?").join(", ")})`, ...ids), ...ownOnly(access)])
            )
            return new Map(rows.map((r) => [String(r.id), toStored(r).data]))
          }
          if (field.kind === "single") {
            const idOf = (v: unknown) => (typeof v === "string" ? v : isObject(v) && typeof v["_id"] === "string" ? v["_id"] : undefined)
            const found = fetch([...new Set(list.map((i) => idOf(i.data[field.key])).filter((v) => v !== undefined))])
            for (const item of list) {
              const id = idOf(item.data[field.key])
              const referenced = id === undefined ? undefined : found.get(id)
              if (referenced !== undefined) item.data[field.key] = referenced
            }
          } else {
            const limit = include.limit ?? DEFAULT_REFERENCE_LIMIT
            const refs = references.list(collection.id, field.key, list.map((i) => i.id), { desc: false, limit: -1, offset: 0 })
            const found = fetch([...new Set(refs.map((r) => r.referencedId))])
            for (const item of list) {
              item.data[field.key] = refs
                .filter((r) => r.referringId === item.id && found.has(r.referencedId))
                .slice(0, limit)
                .map((r) => found.get(r.referencedId))
            }
          }
        }
      }

      const query = (collection: DataCollection, caller: Caller, input: QueryInput): string => {
        const access = accessFor(collection, "read", caller)
        hooks.run(collection.id, "beforeQuery")
        const page = pageRequest(input.paging, input.cursorPaging)
        const kind = input.search === undefined ? "items" : "search"
        let state = {
          filter: input.filter ?? null,
          sort: input.sort ?? [],
          fields: input.fields ?? [],
          includeReferences: input.includeReferences ?? [],
          search: input.search ?? null
        }
        let boundary: { readonly keys: ReadonlyArray<SQLInputValue>; readonly reverse: boolean } | undefined
        if (page.mode === "cursor" && page.cursor !== undefined) {
          if ((input.filter !== undefined && input.filter !== null) || (input.sort ?? []).length > 0) {
            throw badRequest("WDE0094", "A cursor request carries the cursor only: its filter and sort come from the cursor.")
          }
          const c = decodeCursor(page.cursor, kind, collection.id, ItemsCursor)
          state = {
            filter: c.filter ?? null,
            sort: c.sort ?? [],
            fields: input.fields !== undefined && input.fields.length > 0 ? input.fields : c.fields ?? [],
            includeReferences: input.includeReferences ?? c.includeReferences ?? [],
            search: c.search ?? null
          }
          boundary = { keys: c.keys, reverse: c.direction === "prev" }
        }
        atMost(state.sort.length, MAX_SORT_FIELDS, "query.sort", "A query sorts by fields:")
        atMost(state.fields.length, MAX_PROJECTED_FIELDS, "query.fields", "A query projects fields:")
        atMost(state.includeReferences.length, MAX_INCLUDED_REFERENCES, "includeReferences", "A query includes reference fields:")
        const condition = both([
          compileFilter(state.filter, ITEMS, "query.filter"),
          ...ownOnly(access),
          ...(state.search === null ? [] : [searchCondition(collection, "data", state.search)])
        ])
        const sorted = sortTerms(ITEMS, state.sort)
        const terms: ReadonlyArray<SortTerm> = [...sorted, { expr: "seq", desc: sorted[sorted.length - 1]?.desc ?? false }]
        const doc = state.fields.length > 0 ? projection(ITEMS, state.fields) : "data"
        const columns = `id, ${doc} AS doc, ${terms.map((t, i) => `${t.expr} AS k${i}`).join(", ")}`
        const keysOf = (row: Row) => terms.map((_, i) => row[`k${i}`] as SQLInputValue)
        const limit = page.limit
        const judged = [...new Set([...filterFields(state.filter), ...state.sort.map((s) => s.fieldName)])]

        const finish = (rows: ReadonlyArray<Row>, pagingMetadata: PagingMetadata): string => {
          if (state.includeReferences.length === 0) {
            // the same text as the schema-encoded answer (wireItem's keys, in its order), without a parse per item
            const collectionJson = JSON.stringify(publicId(collection.id))
            const dataItems = rows.map((row) => `{"id":${JSON.stringify(String(row.id))},"dataCollectionId":${collectionJson},"data":${String(row.doc)}}`)
            return `{"dataItems":[${dataItems.join(",")}],"pagingMetadata":${JSON.stringify(Schema.encodeSync(PagingMetadataSchema)(pagingMetadata))}}`
          }
          const dataItems = rows.map((row) => toDataItem(collection, row))
          includeReferences(
            collection,
            caller,
            dataItems.map((d) => ({ id: d.id ?? "", data: d.data as Json })),
            state.includeReferences
          )
          return JSON.stringify(Schema.encodeSync(QueryDataItemsResponse)({ dataItems, pagingMetadata }))
        }

        if (page.mode === "offset") {
          const tail = sql(`ORDER BY ${orderBy(terms)} LIMIT ? OFFSET ?`, limit + 1, page.offset)
          scans.judge({ collectionId: collection.id, where: condition, tail, fields: judged })
          const rows = items.select(collection.id, columns, condition, sql(`ORDER BY ${orderBy(terms)} LIMIT ? OFFSET ?`, limit + 1, page.offset))
          const total = input.returnTotalCount === true ? items.count(collection.id, condition) : undefined
          return finish(rows.slice(0, limit), offsetMetadata(Math.min(rows.length, limit), page.offset, rows.length > limit, total))
        }

        const cursorFor = (keys: ReadonlyArray<SQLInputValue>, direction: "next" | "prev") =>
          encodeCursor({ kind, collection: collection.id, ...state, limit, keys, direction } as CursorState)
        const reverse = boundary?.reverse ?? false
        const flip = (ts: ReadonlyArray<SortTerm>, backward: boolean) => (backward ? ts.map((t) => ({ ...t, desc: !t.desc })) : ts)
        /**
         * Up to `want` rows beyond `keys` (before them, `backward`) when an index holds the rows in
         * order: one index range per sort term, the last term first (equal on the terms before it,
         * beyond the keys on it), each read in index order. SQLite seeks with a range on one indexed
         * expression but not with a row-value comparison of several, and sorts when an expression fixed
         * by equality stays in ORDER BY, so each range orders by its own terms only. The index is named,
         * as the planner has no statistics on the expressions and would rather scan by sequence. Without
         * such an index one query is cheaper.
         */
        const seek = (index: string, keys: ReadonlyArray<SQLInputValue>, want: number, backward: boolean): Array<Row> => {
          const rows: Array<Row> = []
          for (let i = terms.length - 1; i >= 0 && rows.length < want; i--) {
            const order = orderBy(flip(terms.slice(i), backward))
            const range = both([condition, beyondAt(terms, keys, i, backward)])
            for (const row of items.select(collection.id, columns, range, sql(`ORDER BY ${order} LIMIT ?`, want - rows.length), index)) {
              rows.push(row)
            }
          }
          return rows
        }
        /** Keys a seek can start from: one per term, none NULL (equality would miss them). */
        const seekable = (keys: ReadonlyArray<SQLInputValue>) => keys.length === terms.length && keys.every((k) => k !== null)
        const index = boundary !== undefined && seekable(boundary.keys) ? indexes.orderedBy(collection.id, state.sort) : undefined
        if (index === undefined) scans.judge({ collectionId: collection.id, where: condition, tail: sql(`ORDER BY ${orderBy(terms)}`), fields: judged })
        const rows = index !== undefined
          ? seek(index, boundary!.keys, limit + 1, reverse)
          : items.select(
            collection.id,
            columns,
            boundary === undefined ? condition : both([condition, beyond(terms, boundary.keys, reverse)]),
            sql(`ORDER BY ${orderBy(flip(terms, reverse))} LIMIT ?`, limit + 1)
          )
        const more = rows.length > limit
        const pageRows = rows.slice(0, limit)
        if (reverse) pageRows.reverse()
        const first = pageRows[0]
        const last = pageRows[pageRows.length - 1]
        if (!reverse) {
          const firstKeys = first === undefined ? undefined : keysOf(first)
          const earlier = boundary !== undefined && firstKeys !== undefined && (index !== undefined && seekable(firstKeys)
            ? seek(index, firstKeys, 1, true).length > 0
            : items.select(collection.id, "1", both([condition, beyond(terms, firstKeys, true)]), sql("LIMIT 1")).length > 0)
          return finish(pageRows, cursorMetadata(
            pageRows.length,
            more && last !== undefined ? cursorFor(keysOf(last), "next") : undefined,
            earlier && first !== undefined ? cursorFor(keysOf(first), "prev") : undefined,
            more
          ))
        }
        return finish(pageRows, cursorMetadata(
          pageRows.length,
          last === undefined ? undefined : cursorFor(keysOf(last), "next"),
          more && first !== undefined ? cursorFor(keysOf(first), "prev") : undefined,
          last !== undefined
        ))
      }

      const distinct: ReadsShape["distinct"] = (collection, caller, input) => {
        const access = accessFor(collection, "read", caller)
        hooks.run(collection.id, "beforeQuery")
        const page = pageRequest(input.paging, input.cursorPaging)
        let state = { fieldName: input.fieldName, filter: input.filter ?? null, order: input.order ?? "ASC" }
        let after: ReadonlyArray<SQLInputValue> | undefined
        if (page.mode === "cursor" && page.cursor !== undefined) {
          const c = decodeCursor(page.cursor, "distinct", collection.id, DistinctCursor)
          state = { fieldName: c.fieldName, filter: c.filter ?? null, order: c.order }
          after = c.keys
        }
        if (state.fieldName === undefined || state.fieldName === "") throw badRequest("WDE0003", "fieldName must be a non-empty string.", ["fieldName"])
        // qualified: json_each has an `id` column of its own
        const condition = visible(access, state.filter, { column: "data_items.data", idColumn: "data_items.id", ownerColumn: "data_items.owner" })
        // judged as the platform reads distinct values through an index: the items the filter selects, in the field's order
        scans.judge({
          collectionId: collection.id,
          where: condition,
          tail: sql(`ORDER BY ${orderBy(sortTerms(ITEMS, [{ fieldName: state.fieldName }]))}`),
          fields: [...new Set([...filterFields(state.filter), state.fieldName])]
        })
        // `_id` lives in the item JSON too; read it there so one expression covers every field
        const r = ref({ column: "data_items.data" }, state.fieldName)
        const e = element("e")
        const inner = concat(
          sql(`SELECT ${r.rank} AS r, ${r.key} AS k, ${r.json} AS j FROM data_items WHERE data_items.collection_id = ? AND `, collection.id),
          condition,
          ` AND ${r.rank} NOT IN (0, 4) UNION ALL `,
          sql(
            `SELECT ${e.rank} AS r, ${e.key} AS k, (data_items.data -> (${r.path} || '[' || e.key || ']')) AS j ` +
              `FROM data_items, json_each(data_items.data, ${r.path}) AS e WHERE data_items.collection_id = ? AND `,
            collection.id
          ),
          condition,
          ` AND ${r.rank} = 4`
        )
        const params = inner.params
        const desc = state.order === "DESC"
        const dir = desc ? " DESC" : ""
        const having = after === undefined ? "" : ` HAVING (r, k) ${desc ? "<" : ">"} (?, ?)`
        const limit = page.limit
        const offset = page.mode === "offset" ? page.offset : 0
        const rows = db.all(
          `SELECT r, k, MIN(j) AS j FROM (${inner.sql}) WHERE r <> 0 GROUP BY r, k${having} ORDER BY r${dir}, k${dir} LIMIT ? OFFSET ?`,
          ...params,
          ...(after ?? []),
          limit + 1,
          offset
        )
        const values = rows.slice(0, limit).map((row) => JSON.parse(String(row.j)) as unknown)
        const hasNext = rows.length > limit
        if (page.mode === "offset") {
          const total = input.returnTotalCount === true
            ? Number(db.get(`SELECT COUNT(*) AS n FROM (SELECT 1 FROM (${inner.sql}) WHERE r <> 0 GROUP BY r, k)`, ...params)?.n ?? 0)
            : undefined
          return { distinctValues: values, pagingMetadata: offsetMetadata(values.length, offset, hasNext, total) }
        }
        const last = rows[Math.min(rows.length, limit) - 1]
        const next = hasNext && last !== undefined
          ? encodeCursor({ kind: "distinct", collection: collection.id, ...state, keys: [last.r as SQLInputValue, last.k as SQLInputValue] })
          : undefined
        return { distinctValues: values, pagingMetadata: cursorMetadata(values.length, next, undefined, hasNext) }
      }

      return Reads.of({
        get: (collection, caller, id, options) => {
          const access = accessFor(collection, "read", caller)
          hooks.run(collection.id, "beforeGet")
          atMost(options.fields?.length ?? 0, MAX_PROJECTED_FIELDS, "fields", "A get projects fields:")
          atMost(options.includeReferences?.length ?? 0, MAX_INCLUDED_REFERENCES, "includeReferences", "A get includes reference fields:")
          const doc = options.fields !== undefined && options.fields.length > 0 ? projection(ITEMS, options.fields) : "data"
          const row = items.select(collection.id, `id, owner, ${doc} AS doc`, sql("id = ?", id))[0]
          if (row === undefined) throw itemNotFound(id, collection.id)
          requireCovers(access, typeof row.owner === "string" ? row.owner : undefined, "read", collection.id)
          const item = toDataItem(collection, row)
          if (options.includeReferences !== undefined && options.includeReferences.length > 0) {
            includeReferences(collection, caller, [{ id, data: item.data as Json }], options.includeReferences)
          }
          return item
        },
        query,
        count: (collection, caller, filter) => {
          const access = accessFor(collection, "read", caller)
          hooks.run(collection.id, "beforeCount")
          const condition = visible(access, filter)
          scans.judge({ collectionId: collection.id, where: condition, fields: filterFields(filter) })
          return items.count(collection.id, condition)
        },
        distinct,
        visible,
        includeReferences
      })
    })
  )
}
