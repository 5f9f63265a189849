/**
 * `sitefx/data`: data collections. The DataItems service and the item calls one by one (`Items`), the
 * query, filter, aggregate and patch builders, bulk writes and their reports, and DataError.
 */
export { DataItems, type DataFailure, type DataItemsShape, type Item, type ItemInput, type ReadOptions, type SearchOptions, type WriteOptions } from "./DataItems.ts"
export * as Items from "./Items.ts"
export { DataError, WDE, type WdeCode, type HookError } from "./DataError.ts"
export { Filter, type Comparable } from "./Filter.ts"
export { Query, type Page, type QueryRunner, type QueryOptions } from "./Query.ts"
export { Aggregate, type AggregateResult } from "./Aggregate.ts"
export { Patch } from "./Patch.ts"
export { type BulkReport, type BulkItemError, type BulkOptions, type BulkProgress } from "./Bulk.ts"
export { newBulkKey } from "./ids.ts"
export * as DataWire from "./wire.ts"
