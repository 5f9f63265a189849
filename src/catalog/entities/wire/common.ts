/**
 * What the catalog v3 entity services share on the wire: the argument checks the local platform applies
 * (so a refused field is named in a 400), the system fields of every entity, the query, count and bulk
 * shapes, and {@link entityCalls}, the requests and answers every named entity service (brands, ribbons,
 * info sections, customizations) has in the same form under its own keys.
 */
import * as Schema from "effect/Schema"
import { BulkActionMetadata, CursorPagingMetadata, Filter, ItemMetadata, keyed, nullable, opt, SortOrder } from "../../wire/common.ts"

export { keyed }
import { MAX_ENTITY_BULK, MAX_ENTITY_SORT } from "../protocol.ts"

/** Text of `min` to `max` characters. */
export const text = (max: number, min = 0) => Schema.String.check(Schema.isBetweenLength(min, max))
/** A list of `min` to `max` items. */
export const list = <S extends Schema.Top>(item: S, max: number, min = 0) => Schema.Array(item).check(Schema.isBetweenLength(min, max))
/** An integer from `min` to `max`. */
export const int = (min: number, max: number) => Schema.Int.check(Schema.isBetween({ minimum: min, maximum: max }))
/** A decimal amount as text, as the platform writes prices: `12.5`, at most 3 decimals. */
export const Decimal = Schema.String.check(Schema.isPattern(/^\d{1,9}(\.\d{1,3})?$/))

/** Ids are at most 36 characters (GUIDs, or the ids a client chose). */
export const Id = text(36, 1)
/** 1 to `max` ids. */
export const Ids = (max: number) => list(Id, max, 1)

/** The system fields every v3 entity carries (read-only: ignored when a client sends them). */
export const system = {
  id: nullable(Schema.String),
  revision: nullable(Schema.String),
  createdDate: nullable(Schema.String),
  updatedDate: nullable(Schema.String)
}

/** A v3 query: filter, sort (at most 10 fields) and cursor paging. */
export const EntityQuery = Schema.Struct({
  filter: nullable(Filter),
  sort: opt(list(Schema.Struct({ fieldName: text(512, 1), order: opt(SortOrder) }), MAX_ENTITY_SORT)),
  cursorPaging: opt(Schema.Struct({
    limit: nullable(Schema.Int.check(Schema.isBetween({ minimum: 0, maximum: 1000 }))),
    cursor: nullable(text(16000))
  }))
})
export type EntityQuery = typeof EntityQuery.Type

export const CountRequest = Schema.Struct({ filter: nullable(Filter) })
export const CountResponse = Schema.Struct({ count: Schema.Number })
export type CountResponse = typeof CountResponse.Type

/** Results of a bulk call that hands back no entity (deletes). */
export const BulkDeleteResponse = Schema.Struct({
  results: Schema.Array(Schema.Struct({ itemMetadata: ItemMetadata })),
  bulkActionMetadata: BulkActionMetadata
})
export type BulkDeleteResponse = typeof BulkDeleteResponse.Type

/** `{results[]{itemMetadata, [key]?}, bulkActionMetadata}`, every item's fate in request order. */
export const bulkResults = <S extends Schema.Top, K extends string = "item">(entity: S, key: K = "item" as K) =>
  Schema.Struct({
    results: Schema.Array(Schema.Struct({ itemMetadata: ItemMetadata, ...keyed(key, opt(entity)) })),
    bulkActionMetadata: BulkActionMetadata
  })

/** A query answer: the entities of one page under their service's key, and the cursors. */
export const page = <K extends string, S extends Schema.Top>(key: K, entity: S) =>
  Schema.Struct({ ...keyed(key, Schema.Array(entity)), pagingMetadata: CursorPagingMetadata })

/** An entity with the mask of the fields a bulk update sets. */
export const masked = <K extends string, S extends Schema.Top>(key: K, entity: S) =>
  Schema.Struct({ ...keyed(key, opt(entity)), fieldMask: opt(Schema.String) })

/**
 * The calls a named entity service has in one form: create, update, get, delete, query, bulk create,
 * update and delete, with the entity under `one` (`brand`), its list under `many` (`brands`), its id
 * as `${one}Id` and the optional fields it may count as `fields`.
 */
export const entityCalls = <One extends string, Many extends string, E extends Schema.Top, F extends Schema.Top>(
  one: One,
  many: Many,
  entity: E,
  field: F
) => {
  const fields = opt(list(field, 100))
  const masked_ = masked(one, entity)
  return {
    fields,
    request: Schema.Struct(keyed(one, entity)),
    updateRequest: Schema.Struct({ ...keyed(one, entity), fields }),
    response: Schema.Struct(keyed(one, entity)),
    getRequest: Schema.Struct({ ...keyed(`${one}Id`, Schema.String), fields }),
    deleteRequest: Schema.Struct(keyed(`${one}Id`, Schema.String)),
    queryRequest: Schema.Struct({ query: opt(EntityQuery), fields }),
    queryResponse: page(many, entity),
    bulkCreateRequest: Schema.Struct({ ...keyed(many, list(entity, MAX_ENTITY_BULK, 1)), returnEntity: opt(Schema.Boolean) }),
    masked: masked_,
    bulkUpdateRequest: Schema.Struct({ ...keyed(many, list(masked_, MAX_ENTITY_BULK, 1)), returnEntity: opt(Schema.Boolean), fields }),
    bulkDeleteRequest: Schema.Struct(keyed(`${one}Ids`, Ids(MAX_ENTITY_BULK)))
  }
}

/**
 * A service of entities that are a unique name and a count of the products carrying them (brands,
 * ribbons): the entity, its calls, and get-or-create by name, one name or up to 100.
 */
export const namedEntity = <One extends string, Many extends string, Count extends string, const Fields extends ReadonlyArray<string>>(
  one: One,
  many: Many,
  count: Count,
  maxName: number,
  fieldNames: Fields
) => {
  const name = text(maxName, 1)
  const entity = Schema.Struct({ ...system, name: opt(name), ...keyed(count, nullable(Schema.Number)) })
  const calls = entityCalls(one, many, entity, Schema.Literals(fieldNames))
  return {
    entity,
    ...calls,
    getOrCreateRequest: Schema.Struct({ ...keyed(`${one}Name`, name), fields: calls.fields }),
    bulkGetOrCreateRequest: Schema.Struct({ ...keyed(`${one}Names`, list(name, MAX_ENTITY_BULK, 1)), fields: calls.fields }),
    bulkResponse: bulkResults(entity)
  }
}
