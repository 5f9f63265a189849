/**
 * What the data client needs of the wire at run time, without Schema: paths, limits, the enumerations,
 * the paging read-ahead, and guards for every answer it reads. The Schemas of the same shapes live in
 * wire.ts (the local platform decodes requests with them); the types come from there and
 * test/http/guards.test.ts keeps each guard's type equal to its Schema's.
 */
import * as G from "../http/guard.ts"
import type * as W from "./wire.ts"

export const SORT_ORDERS = ["ASC", "DESC"] as const
export const BULK_ACTION_TYPES = ["UNKNOWN_ACTION_TYPE", "INSERT", "UPDATE", "DELETE", "PATCH"] as const
export const ASYNC_JOB_STATUSES = ["UNKNOWN_STATUS", "INITIALIZED", "PROCESSING", "SUCCEEDED", "FAILED"] as const
export const ROLES = ["ADMIN", "SITE_MEMBER_AUTHOR", "SITE_MEMBER", "ANYONE", "CMS_EDITOR", "PRIVILEGED"] as const
export const PAGING_MODES = ["OFFSET", "CURSOR"] as const
export const COLLECTION_TYPES = ["NATIVE", "WIX_APP", "BLOCKS_APP", "EXTERNAL"] as const
export const FIELD_TYPES = [
  "UNKNOWN_FIELD_TYPE", "TEXT", "NUMBER", "DATE", "DATETIME", "IMAGE", "BOOLEAN", "DOCUMENT", "URL", "RICH_TEXT", "VIDEO", "ANY",
  "ARRAY_STRING", "ARRAY_DOCUMENT", "AUDIO", "TIME", "LANGUAGE", "RICH_CONTENT", "MEDIA_GALLERY", "ADDRESS", "PAGE_LINK", "REFERENCE",
  "MULTI_REFERENCE", "OBJECT", "ARRAY", "LEGACY_TIME", "LEGACY_BOOK", "LEGACY_EXTERNAL_URL", "LEGACY_BROKEN_REFERENCE", "LEGACY_IMAGE",
  "LEGACY_COLOR", "LEGACY_EXTERNAL_VIDEO"
] as const

/** Query GETs switch to POST when the whole URL passes 2048 characters. */
export const DATA_QUERY_MAX_URL = 2048
export const MAX_BULK_ITEMS = 1000
export const DEFAULT_PAGE_SIZE = 50

const V2 = "/wix-data/v2"
export const DataPaths = {
  item: (id: string) => `${V2}/items/${encodeURIComponent(id)}`,
  insert: `${V2}/items`,
  update: `${V2}/items/update`,
  patch: `${V2}/items/patch`,
  save: `${V2}/items/save`,
  remove: `${V2}/items/remove`,
  truncate: `${V2}/items/truncate`,
  count: `${V2}/items/count`,
  distinct: `${V2}/items/query-distinct-values`,
  query: `${V2}/items/query`,
  aggregate: `${V2}/items/aggregate`,
  aggregatePipeline: `${V2}/items/aggregate-pipeline`,
  search: `${V2}/items/search`,
  queryReferenced: `${V2}/items/query-referenced`,
  isReferenced: `${V2}/items/is-referenced`,
  replaceReferences: `${V2}/items/replace-references`,
  bulkInsertReferences: `${V2}/bulk/items/insert-references`,
  bulkRemoveReferences: `${V2}/bulk/items/remove-references`,
  bulkInsert: `${V2}/bulk/items/insert`,
  bulkUpdate: `${V2}/bulk/items/update`,
  bulkPatch: `${V2}/bulk/items/patch`,
  bulkSave: `${V2}/bulk/items/save`,
  bulkRemove: `${V2}/bulk/items/remove`,
  asyncPatchByFilter: `${V2}/bulk/items/async-patch-by-filter`,
  asyncRemoveByFilter: `${V2}/bulk/items/async-remove-by-filter`,
  asyncJobStatus: (jobId: string) => `${V2}/async-jobs/${encodeURIComponent(jobId)}/status`,
  collections: `${V2}/collections`,
  collection: (id: string) => `${V2}/collections/${encodeURIComponent(id)}`,
  collectionBySlug: (slug: string) => `${V2}/collections/slug/${encodeURIComponent(slug)}`,
  collectionsQuery: `${V2}/collections/query`,
  createField: `${V2}/collections/create-field`,
  updateField: `${V2}/collections/update-field`,
  deleteField: `${V2}/collections/delete-field`,
  indexes: `${V2}/indexes`
} as const

// ---- guards of the answers ---------------------------------------------------------------------------

const str = G.string
const opt = G.optional
const optStr = opt(str)
const nullable = <A>(g: G.Guard<A>) => opt(G.nullOr(g))

/** Item fields: any JSON object, taken as it is (not copied key by key). */
export const ItemData = G.object
export const DataItem = G.struct({ id: optStr, dataCollectionId: optStr, data: nullable(ItemData) })

export const PagingMetadata = G.struct({
  count: nullable(G.number),
  offset: nullable(G.number),
  total: nullable(G.number),
  tooManyToCount: nullable(G.boolean),
  cursors: opt(G.struct({ next: nullable(str), prev: nullable(str) })),
  hasNext: nullable(G.boolean)
})
export const paging = opt(PagingMetadata)

export const QueryDataItemsResponse = G.struct({ dataItems: G.array(DataItem), pagingMetadata: paging })
export const CountDataItemsResponse = G.struct({ totalCount: G.number })
export const QueryDistinctValuesResponse = G.struct({ distinctValues: G.array(G.unknown), pagingMetadata: paging })
export const DataItemResponse = G.struct({ dataItem: DataItem })
export const SaveDataItemResponse = G.struct({ action: opt(G.literals(["UNKNOWN_ACTION", "INSERTED", "UPDATED"])), dataItem: DataItem })
// ---- the paging read-ahead ---------------------------------------------------------------------------

/**
 * The `pagingMetadata` of a query answer, read from the end of its JSON text without parsing the items
 * before it: the platform writes it last (`{"dataItems":[…],"pagingMetadata":{…}}`). Undefined when
 * the text does not end that way; a key of that name inside an item never reads as it, since what
 * follows it would not be one JSON value up to the answer's last brace.
 */
export const peekPagingMetadata = (text: string): W.PagingMetadata | undefined => {
  const key = "\"pagingMetadata\""
  const at = text.lastIndexOf(key)
  if (at < 0) return undefined
  let start = at + key.length
  while (start < text.length && /\s/.test(text[start]!)) start++
  if (text[start] !== ":") return undefined
  let end = text.length - 1
  while (end > start && /\s/.test(text[end]!)) end--
  if (text[end] !== "}") return undefined
  try {
    const value: unknown = JSON.parse(text.slice(start + 1, end))
    return PagingMetadata(value) === undefined ? value as W.PagingMetadata : undefined
  } catch {
    return undefined
  }
}

/** Whether two pagings lead to the same places (the read-ahead one and the parsed answer's). */
export const samePaging = (a: W.PagingMetadata, b: W.PagingMetadata): boolean =>
  (a.hasNext ?? null) === (b.hasNext ?? null) &&
  (a.cursors?.next ?? null) === (b.cursors?.next ?? null) &&
  (a.cursors?.prev ?? null) === (b.cursors?.prev ?? null) &&
  (a.total ?? null) === (b.total ?? null) &&
  (a.count ?? null) === (b.count ?? null)
