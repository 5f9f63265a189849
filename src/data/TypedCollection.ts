/**
 * A typed view of a collection: reads decode to a Schema's type, writes encode from it. Its own module:
 * it brings Schema, which a page that reads plain items never carries.
 */
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import * as Schema from "effect/Schema"
import * as Stream from "effect/Stream"
import type { PlatformClient } from "../http/PlatformClient.ts"
import type { BulkOptions, BulkReport } from "./Bulk.ts"
import { type BulkServices, bulkInsert } from "./bulkWrites.ts"
import { type DataFailure, type Item, type ItemInput, type ReadOptions, type WriteOptions } from "./calls.ts"
import { argumentError } from "../http/Refusal.ts"
import { badAnswer, DataError } from "./DataError.ts"
import { get, insert, remove, save, update } from "./itemCalls.ts"
import type { DeclaredFields } from "./Filter.ts"
import { Query } from "./Query.ts"
import { itemsRunner, lift } from "./queryItems.ts"
import type * as W from "./wire/index.ts"

/** A collection whose items are values of a Schema's type. */
export interface TypedCollection<A, S> {
  readonly name: string
  readonly schema: S
  /**
   * A query whose items decode to the schema's type, and whose filters and sorts take only the type's
   * declared fields, each with its values' type (`eq("likes", "x")` does not compile where `likes` is a
   * number; `startsWith` takes text fields, `hasSome` arrays, `between` numbers, dates and text).
   */
  readonly query: Query<A, PlatformClient, DeclaredFields<A>>
  readonly get: (id: string, options?: ReadOptions) => Effect.Effect<Option.Option<A>, DataFailure, PlatformClient>
  readonly insert: (value: A, options?: WriteOptions) => Effect.Effect<A, DataFailure, PlatformClient>
  readonly update: (value: A, options?: WriteOptions) => Effect.Effect<A, DataFailure, PlatformClient>
  readonly save: (value: A, options?: WriteOptions) => Effect.Effect<A, DataFailure, PlatformClient>
  readonly remove: (id: string, options?: WriteOptions) => Effect.Effect<Option.Option<Item>, DataFailure, PlatformClient>
  readonly bulkInsert: (values: ReadonlyArray<A> | Stream.Stream<A>, options?: BulkOptions) => Effect.Effect<BulkReport, DataFailure, BulkServices>
}

/** The fields of a Schema built from fields: a Struct's, a Struct with a rest's, a Class's; none otherwise. */
const fieldsOf = (schema: unknown): Schema.Struct.Fields | undefined => {
  const s = schema as { readonly fields?: Schema.Struct.Fields; readonly schema?: { readonly fields?: Schema.Struct.Fields } }
  return s.fields ?? s.schema?.fields
}

const decodeError = (collection: string, data: W.ItemData, error: Schema.SchemaError) =>
  badAnswer(
    "ITEM_DECODE_ERROR",
    `An item of [${collection}]${typeof data["_id"] === "string" ? ` (_id ${data["_id"]})` : ""} does not match its schema: ${error.message}`,
    collection
  )

/**
 * A typed view of a collection: reads decode to the schema's type, writes encode from it. Invalid
 * stored items fail with DataError code `ITEM_DECODE_ERROR`, values that do not encode with `ITEM_ENCODE_ERROR`.
 */
export const collection = <S extends Schema.Codec<any, any>>(name: string, schema: S): TypedCollection<S["Type"], S> => {
  type A = S["Type"]
  const decode = (data: W.ItemData): Effect.Effect<A, DataError> =>
    (Schema.decodeUnknownEffect(schema)(data) as Effect.Effect<A, Schema.SchemaError>).pipe(Effect.mapError((e) => decodeError(name, data, e)))
  const encode = (value: A): Effect.Effect<ItemInput, DataError> =>
    (Schema.encodeEffect(schema)(value) as Effect.Effect<ItemInput, Schema.SchemaError>).pipe(
      Effect.mapError((e) => new DataError({ reason: argumentError("ITEM_ENCODE_ERROR", `A value for [${name}] does not match its schema: ${e.message}`), collection: name }))
    )
  const decodeItem = (item: Item) => decode(item as W.ItemData)
  // a projection decodes through the Schema's fields picked to it, where the Schema has fields (a Struct,
  // a Struct with a rest, a Class); any other Schema decodes a projected item as a whole
  const fields = fieldsOf(schema)
  const decodeProjection = fields === undefined ? undefined : (names: ReadonlyArray<string>) => {
    const picked = Schema.Struct(Object.fromEntries(Object.entries(fields).filter(([key]) => key === "_id" || names.includes(key))))
    return (data: W.ItemData): Effect.Effect<unknown, DataError> =>
      (Schema.decodeUnknownEffect(picked)(data) as Effect.Effect<unknown, Schema.SchemaError>).pipe(Effect.mapError((e) => decodeError(name, data, e)))
  }
  return {
    name,
    schema,
    get query() {
      return new Query<A, PlatformClient, DeclaredFields<A>>({ ...lift(name, (client) => itemsRunner(client, name), decode), ...(decodeProjection === undefined ? {} : { decodeProjection }) })
    },
    get: (id, options) =>
      get(name, id, options).pipe(
        Effect.flatMap(Option.match({ onNone: () => Effect.succeed(Option.none<A>()), onSome: (item) => Effect.map(decodeItem(item), Option.some) }))
      ),
    insert: (value, options) => encode(value).pipe(Effect.flatMap((item) => insert(name, item, options)), Effect.flatMap(decodeItem)),
    update: (value, options) => encode(value).pipe(Effect.flatMap((item) => update(name, item as Item, options)), Effect.flatMap(decodeItem)),
    save: (value, options) => encode(value).pipe(Effect.flatMap((item) => save(name, item, options)), Effect.flatMap((r) => decodeItem(r.item))),
    remove: (id, options) => remove(name, id, options),
    bulkInsert: (values, options) =>
      Effect.gen(function*() {
        const items = Array.isArray(values)
          ? yield* Effect.forEach(values, encode)
          : (values as Stream.Stream<A>).pipe(Stream.mapEffect(encode))
        return yield* bulkInsert(name, items as ReadonlyArray<ItemInput> | Stream.Stream<ItemInput, DataError>, options)
      })
  }
}
