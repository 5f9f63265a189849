/**
 * `sitefx/data`: data collections. The `DataItems` calls (one function each, so a bundler keeps only
 * those a program makes), the query, filter, aggregate and patch builders, bulk writes and their
 * reports, DataError, and the wire Schemas (`DataWire`).
 */
/** The data calls: `DataItems.query("Posts").limit(10).find`, `DataItems.insert("Posts", item)`, bulk writes, references, jobs, typed collections. */
export * as DataItems from "./DataItems.ts"
export * as Indexes from "./Indexes.ts"
export * as Sandbox from "./Sandbox.ts"
export * as Backups from "./Backups.ts"
export * as DataEnvironment from "./DataEnvironment.ts"
export * as MovementJobs from "./MovementJobs.ts"
export { type DataFailure, type Item, type ItemInput, type ReadOptions, type WriteOptions } from "./calls.ts"
export { type SearchOptions } from "./queryItems.ts"
export { type BulkServices } from "./bulkWrites.ts"
export { type ReferencedPage } from "./references.ts"
export { type AsyncJobState } from "./jobs.ts"
export { type MyPermissions } from "./myPermissions.ts"
export { type NewItem, type StoredItem, type TypedCollection } from "./TypedCollection.ts"
export { DataError, WDE, type WdeCode, type HookError } from "./DataError.ts"
export {
  type AnyFields,
  type Comparable,
  type ComparableOf,
  type DeclaredFields,
  type ElementOf,
  type FieldName,
  type FieldsOf,
  type FieldValue,
  Filter,
  type ReferenceFieldsOf
} from "./Filter.ts"
export { type Included, type Projected, Query, type Page, type QueryRunner, type QueryOptions } from "./Query.ts"
export { Aggregate, type AggregateResult } from "./Aggregate.ts"
export { Patch } from "./Patch.ts"
export { type BulkReport, type BulkItemError, type BulkOptions, type BulkProgress } from "./Bulk.ts"
export { newBulkKey } from "./ids.ts"
/** What a collection's permissions let a visitor, a member or the site's owner do: `collectionAccess`, `itemAllowed`. */
export { collectionAccess, itemAllowed, type PermissionAccess, type PermissionAction, type PermissionCaller } from "./permissions.ts"
/** The Effect Schemas of the data API's wire shapes, as the local platform reads and writes them. */
export * as DataWire from "./wire/index.ts"
