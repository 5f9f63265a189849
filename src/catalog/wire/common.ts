/**
 * Wire shapes every part of the store catalog shares: its enumerations, sorting, v1 offset paging and
 * v3 cursor paging, and bulk results. Used by the local platform to read requests and write answers,
 * and by typed tests; the client checks answers with the guards of `../guards/`.
 */
import * as Schema from "effect/Schema"
import { CursorPaging, Paging, Sorting, SortOrder } from "../../http/wire.ts"
import {
  CATALOG_VERSIONS,
  DIMENSIONS_UNITS,
  DISCOUNT_TYPES,
  IDENTITY_TYPES,
  INVENTORY_STATUSES,
  MEASUREMENT_UNITS,
  MEDIA_ITEM_TYPES,
  OPTION_TYPES,
  PRODUCT_TYPES,
  SUBSCRIPTION_FREQUENCIES,
  WEIGHT_UNITS
} from "../protocol.ts"

/** The paging and sorting shapes every module's queries share (v1 offset paging, v3 cursor paging). */
export { CursorPaging, Paging, Sorting, SortOrder }

export const CatalogVersion = Schema.Literals(CATALOG_VERSIONS)
export type CatalogVersion = typeof CatalogVersion.Type
export const GetCatalogVersionResponse = Schema.Struct({ catalogVersion: CatalogVersion })

export const ProductType = Schema.Literals(PRODUCT_TYPES)
export const InventoryStatus = Schema.Literals(INVENTORY_STATUSES)
export const OptionType = Schema.Literals(OPTION_TYPES)
export const DiscountType = Schema.Literals(DISCOUNT_TYPES)
export const MediaItemType = Schema.Literals(MEDIA_ITEM_TYPES)
export const DimensionsUnit = Schema.Literals(DIMENSIONS_UNITS)
export const MeasurementUnit = Schema.Literals(MEASUREMENT_UNITS)
export const WeightUnit = Schema.Literals(WEIGHT_UNITS)
export const SubscriptionFrequency = Schema.Literals(SUBSCRIPTION_FREQUENCIES)
export const IdentityType = Schema.Literals(IDENTITY_TYPES)

/** Filters travel as JSON objects (or, in a few v1 calls, as JSON text). */
export const Filter = Schema.Record(Schema.String, Schema.Unknown)
export const FilterOrText = Schema.Union([Filter, Schema.String])

/** v1 paging answer: items on this page, where it starts, and the total. */
export const PagingMetadataV1 = Schema.Struct({
  items: Schema.optionalKey(Schema.Number),
  offset: Schema.optionalKey(Schema.Number),
  count: Schema.optionalKey(Schema.Number),
  total: Schema.optionalKey(Schema.Number),
  tooManyToCount: Schema.optionalKey(Schema.NullOr(Schema.Boolean))
})
export type PagingMetadataV1 = typeof PagingMetadataV1.Type

export const Cursors = Schema.Struct({
  next: Schema.optionalKey(Schema.NullOr(Schema.String)),
  prev: Schema.optionalKey(Schema.NullOr(Schema.String))
})

/** v3 paging answer. */
export const CursorPagingMetadata = Schema.Struct({
  count: Schema.optionalKey(Schema.NullOr(Schema.Number)),
  cursors: Schema.optionalKey(Cursors),
  hasNext: Schema.optionalKey(Schema.NullOr(Schema.Boolean))
})
export type CursorPagingMetadata = typeof CursorPagingMetadata.Type

/** A v3 query: `{query: {filter, sort, cursorPaging}, fields}`. */
export const CursorQuery = Schema.Struct({
  filter: Schema.optionalKey(Schema.NullOr(Filter)),
  sort: Schema.optionalKey(Schema.Array(Sorting)),
  cursorPaging: Schema.optionalKey(CursorPaging)
})
export type CursorQuery = typeof CursorQuery.Type

/** A v1 query: `{query: {filter, sort, paging}}`; the filter may come as JSON text. */
export const OffsetQuery = Schema.Struct({
  filter: Schema.optionalKey(Schema.NullOr(FilterOrText)),
  sort: Schema.optionalKey(Schema.Union([Schema.Array(Sorting), Schema.String])),
  paging: Schema.optionalKey(Paging)
})
export type OffsetQuery = typeof OffsetQuery.Type

/** Where one item of a bulk call stands. */
export const ItemMetadata = Schema.Struct({
  id: Schema.optionalKey(Schema.NullOr(Schema.String)),
  originalIndex: Schema.optionalKey(Schema.Number),
  success: Schema.optionalKey(Schema.Boolean),
  error: Schema.optionalKey(Schema.NullOr(Schema.Struct({
    code: Schema.optionalKey(Schema.String),
    description: Schema.optionalKey(Schema.String),
    data: Schema.optionalKey(Schema.NullOr(Schema.Unknown))
  })))
})
export type ItemMetadata = typeof ItemMetadata.Type

export const BulkActionMetadata = Schema.Struct({
  totalSuccesses: Schema.optionalKey(Schema.Number),
  totalFailures: Schema.optionalKey(Schema.Number),
  undetailedFailures: Schema.optionalKey(Schema.Number)
})
export type BulkActionMetadata = typeof BulkActionMetadata.Type

/** `{[key]: value}` with its key's literal type, so a Struct built from it has the key by name. */
export const keyed = <K extends string, S>(key: K, value: S): { [P in K]: S } => ({ [key]: value }) as { [P in K]: S }

/** A v1 query answer: the items of one page under their call's key, the paging, and the total. */
export const offsetPage = <K extends string, S extends Schema.Top>(key: K, item: S) =>
  Schema.Struct({ ...keyed(key, opt(Schema.Array(item))), metadata: opt(PagingMetadataV1), totalResults: opt(Schema.Number) })

/** A key that may be left out. */
export const opt = <S extends Schema.Top>(s: S) => Schema.optionalKey(s)
/** A key that may be left out or sent as null. */
export const nullable = <S extends Schema.Top>(s: S) => Schema.optionalKey(Schema.NullOr(s))
