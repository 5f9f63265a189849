/**
 * The data-collections client, one function per call. `sitefx` and `sitefx/data` export this module as
 * the `DataItems` namespace; `sitefx/data/items` is the module itself (`import * as DataItems`), the form
 * esbuild shakes, as it keeps every member of a namespace re-exported by name. Each call takes the
 * `PlatformClient` a session or an API key provides (`Site.layer`, `Site.apiKey`) from the environment
 * when it runs, and fails with a DataError (WDE code) or, when the platform could not be reached at all,
 * a PlatformError. Builders (query, search, patch, aggregate) are immutable values; paging is a Stream;
 * bulk writes take any number of items.
 *
 * Every part lives in its own module (items one by one, queries, aggregation, bulk writes, references,
 * jobs, collections, permissions, typed collections), so a bundler keeps only the calls a program makes: a page that
 * runs one query carries nothing of bulk writes, aggregation, references or Schema. The types these calls
 * take and give are exported by `sitefx/data` (`Item`, `BulkReport`, `TypedCollection`, ...).
 *
 * @example
 * import { DataItems } from "sitefx"
 *
 * const post = yield* DataItems.insert("Posts", { title: "Hello", likes: 0 })
 * const top = yield* DataItems.query("Posts").gt("likes", 10).descending("likes").limit(5).find
 */
export { query, search } from "./queryItems.ts"
export { count, get, insert, patch, remove, save, truncate, update } from "./itemCalls.ts"
export { aggregate, pipeline } from "./aggregation.ts"
export { bulkInsert, bulkPatch, bulkRemove, bulkSave, bulkUpdate } from "./bulkWrites.ts"
export {
  bulkInsertReferences,
  bulkRemoveReferences,
  insertReference,
  isReferenced,
  queryReferenced,
  removeReference,
  replaceReferences
} from "./references.ts"
export { awaitJob, jobStatus, patchByFilter, removeByFilter } from "./jobs.ts"
export { collections } from "./collections.ts"
export { myPermissions } from "./myPermissions.ts"
export { collection } from "./TypedCollection.ts"
