/**
 * The data protocol's plain facts: paths, limits and enumerations. No Schema and no guard, so a page
 * carries it for free; the Schemas of the wire shapes are in `wire/`, the client's guards of the answers
 * in `guards/`.
 */

export const SORT_ORDERS = ["ASC", "DESC"] as const
export const BULK_ACTION_TYPES = ["UNKNOWN_ACTION_TYPE", "INSERT", "UPDATE", "DELETE", "PATCH"] as const
export const ASYNC_JOB_STATUSES = ["UNKNOWN_STATUS", "INITIALIZED", "PROCESSING", "SUCCEEDED", "FAILED"] as const
export const ROLES = ["ADMIN", "SITE_MEMBER_AUTHOR", "SITE_MEMBER", "ANYONE", "CMS_EDITOR", "PRIVILEGED"] as const
export const PAGING_MODES = ["OFFSET", "CURSOR"] as const
/**
 * Where a data call works: a collection's LIVE items, its SANDBOX copy, or the sandbox where the
 * collection has one and LIVE otherwise (SANDBOX_PREFERRED).
 */
export const DATA_ENVIRONMENTS = ["LIVE", "SANDBOX", "SANDBOX_PREFERRED"] as const
export type DataEnvironment = typeof DATA_ENVIRONMENTS[number]
/** Where an index stands: building, active, being dropped, dropped, failed or invalid. */
export const INDEX_STATUSES = ["UNKNOWN", "BUILDING", "ACTIVE", "DROPPING", "DROPPED", "FAILED", "INVALID"] as const
/** Who made an index: the platform itself, a user, or the platform on its own initiative. */
export const INDEX_SOURCES = ["SYSTEM", "USER", "AUTO"] as const
/** Where a backup stands: being taken, ready to restore, failed, deleted (its data freed) or canceled. */
export const BACKUP_STATUSES = ["PENDING", "READY", "FAILED", "DELETED", "CANCELED"] as const
/** Who asked for a backup: somebody, on demand, or the platform on its schedule. */
export const BACKUP_TYPES = ["ON_DEMAND", "AUTO"] as const
/** Where a restoration from a backup stands. */
export const RESTORATION_STATUSES = ["PENDING", "COMPLETED", "FAILED"] as const
/** Where a data movement job stands: submitted, starting, moving items, or finished one of three ways. */
export const MOVEMENT_JOB_STATUSES = ["UNINITIALIZED", "INITIALIZING", "IN_PROGRESS", "COMPLETED", "FAILED", "PARTIALLY_SUCCESSFUL"] as const
/** The statuses a movement job ends in: nothing changes after them. */
export const MOVEMENT_JOB_FINAL_STATUSES = ["COMPLETED", "FAILED", "PARTIALLY_SUCCESSFUL"] as const
/** The formats of a movement job's file: CSV or JSONL (UNKNOWN: told by the file's name or content). */
export const MOVEMENT_FILE_FORMATS = ["UNKNOWN", "CSV", "JSONL"] as const
/** What a move into a collection does with an item whose id is there already: overwrite it, skip it, or empty the collection first. */
export const MOVEMENT_WRITE_POLICIES = ["OVERWRITE", "SKIP_EXISTING", "TRUNCATE_BEFORE"] as const
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
  indexes: `${V2}/indexes`,
  backups: `${V2}/backups`,
  backup: (id: string) => `${V2}/backups/${encodeURIComponent(id)}`,
  restoreBackup: (id: string) => `${V2}/backups/${encodeURIComponent(id)}/restore`,
  restorePartialBackup: (id: string) => `${V2}/backups/${encodeURIComponent(id)}/partial-restore`,
  restorations: `${V2}/backups/restorations`
} as const

const MOVER = "/data-mover/v1"
/** The paths of the data movement jobs API (`@wix/data` movementJobs). */
export const MovementJobPaths = {
  jobs: `${MOVER}/jobs`,
  job: (jobId: string) => `${MOVER}/jobs/${encodeURIComponent(jobId)}`,
  terminate: (jobId: string) => `${MOVER}/jobs/${encodeURIComponent(jobId)}/terminate`,
  logs: (jobId: string) => `${MOVER}/jobs/${encodeURIComponent(jobId)}/logs`,
  query: `${MOVER}/jobs/query`,
  uploadUrl: `${MOVER}/temporary-files/upload-url`
} as const

/** The paths of the data permissions API (`@wix/data` permissions), apart so that pages without it carry none. */
export const PermissionPaths = {
  /** What the caller may do with a collection's items. */
  mine: "/wix-data/v1/permissions/current"
} as const
