/**
 * A typed view of a collection: reads decode to a Schema's type, writes encode from it. Its own module:
 * it brings Schema, which a page that reads plain items never carries.
 *
 * Inserts and saves take a {@link NewItem}: the item type without `_id` and without the fields the
 * platform writes itself. An item without an `_id` gets the id the untyped calls give (made on the
 * client before the first attempt, so a retry cannot write it twice), and the answer is a
 * {@link StoredItem}: the item as the platform stored it, its `_id` and dates present in its type.
 */
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import * as Schema from "effect/Schema"
import * as SchemaAST from "effect/SchemaAST"
import * as Stream from "effect/Stream"
import type { PlatformClient } from "../http/PlatformClient.ts"
import type { BulkOptions, BulkReport } from "./Bulk.ts"
import { type BulkServices, bulkInsert, bulkSave } from "./bulkWrites.ts"
import { type DataFailure, type Item, type ItemInput, type ReadOptions, type WriteOptions } from "./calls.ts"
import { argumentError } from "../http/Refusal.ts"
import { badAnswer, DataError } from "./DataError.ts"
import { get, insert, remove, save, update } from "./itemCalls.ts"
import type { DeclaredFields } from "./Filter.ts"
import { Query } from "./Query.ts"
import { itemsRunner, lift } from "./queryItems.ts"
import type * as W from "./wire/index.ts"

/**
 * An item to insert or save into a collection of items `A`: `A` without `_id`, `_createdDate` and
 * `_updatedDate`, which the platform gives. `_id` may still be given (without one, sitefx makes it), and
 * `_owner` where `A` has it, optional (the platform records the caller, and keeps one an API key gives).
 *
 * @example
 * ```ts
 * import type { NewItem } from "sitefx/data"
 * interface PostsItem { readonly _id: string; readonly _createdDate?: Date; readonly title: string }
 * const draft: NewItem<PostsItem> = { title: "Hello" }
 * const mine: NewItem<PostsItem> = { _id: "hello", title: "Hello" }
 * ```
 */
export type NewItem<A> =
  & { readonly [K in keyof A as K extends "_id" | "_owner" | "_createdDate" | "_updatedDate" ? never : K]: A[K] }
  & { readonly _id?: string }
  & { readonly [K in "_owner" & keyof A]?: A[K] }

/**
 * An item of type `A` as a write's answer holds it: every item the platform stores has an `_id`, a
 * `_createdDate` and an `_updatedDate`, so those `A` declares are present; `_owner` stays as `A` says
 * (an item written without a signed-in caller, as by an API key, has none).
 */
export type StoredItem<A> = A & { readonly [K in ("_id" | "_createdDate" | "_updatedDate") & keyof A]-?: Exclude<A[K], undefined> }

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
  /**
   * Inserts an item, with or without an `_id` (without one, it gets the id `DataItems.insert` gives); the
   * item as stored.
   *
   * @example
   * ```ts
   * import * as Schema from "effect/Schema"
   * import { DataItems } from "sitefx/data"
   * const posts = DataItems.collection("Posts", Schema.Struct({ _id: Schema.String, _createdDate: Schema.optionalKey(Schema.Date), title: Schema.String }))
   * const post = yield* posts.insert({ title: "Hello" })
   * console.log(post._id, post._createdDate.toISOString())
   * ```
   */
  readonly insert: (value: NewItem<A>, options?: WriteOptions) => Effect.Effect<StoredItem<A>, DataFailure, PlatformClient>
  /** Replaces the stored item with the value's `_id`; the item as stored. */
  readonly update: (value: A, options?: WriteOptions) => Effect.Effect<StoredItem<A>, DataFailure, PlatformClient>
  /** Inserts an item, or replaces the one with its `_id` (without one, it is new and gets an id of sitefx's); the item as stored. */
  readonly save: (value: NewItem<A>, options?: WriteOptions) => Effect.Effect<StoredItem<A>, DataFailure, PlatformClient>
  readonly remove: (id: string, options?: WriteOptions) => Effect.Effect<Option.Option<Item>, DataFailure, PlatformClient>
  /** Inserts many items, with or without `_id`s (given as `DataItems.bulkInsert` gives them); a report of every item, ids included. */
  readonly bulkInsert: (values: ReadonlyArray<NewItem<A>> | Stream.Stream<NewItem<A>>, options?: BulkOptions) => Effect.Effect<BulkReport, DataFailure, BulkServices>
  /** Inserts or replaces many items, as {@link TypedCollection.save} does each; a report of every item. */
  readonly bulkSave: (values: ReadonlyArray<NewItem<A>> | Stream.Stream<NewItem<A>>, options?: BulkOptions) => Effect.Effect<BulkReport, DataFailure, BulkServices>
}

/** The fields of a Schema built from fields: a Struct's, a Struct with a rest's, a Class's; none otherwise. */
const fieldsOf = (schema: unknown): Schema.Struct.Fields | undefined => {
  const s = schema as { readonly fields?: Schema.Struct.Fields; readonly schema?: { readonly fields?: Schema.Struct.Fields } }
  return s.fields ?? s.schema?.fields
}

/** The fields the platform gives an item it stores: a new item may leave them out. */
const SYSTEM_FIELDS: ReadonlyArray<string> = ["_id", "_createdDate", "_updatedDate", "_owner"]
/** Those every stored item has, which a {@link StoredItem} holds present. */
const ALWAYS_STORED: ReadonlyArray<string> = ["_id", "_createdDate", "_updatedDate"]

/**
 * The Schema a new item (one without an `_id`) is encoded with: the Schema's own fields with the system
 * fields optional, and its rest where it has one; a Class's fields encode its instances and plain objects
 * alike. None for a Schema not built from fields, which encodes a new item itself.
 */
const newItemSchema = (schema: unknown, fields: Schema.Struct.Fields | undefined): Schema.Codec<unknown, unknown> | undefined => {
  if (fields === undefined) return undefined
  const lenient = Schema.Struct(Object.fromEntries(Object.entries(fields).map(([key, field]) =>
    [key, SYSTEM_FIELDS.includes(key) && !SchemaAST.isOptional(field.ast) ? Schema.optionalKey(field) : field]
  )))
  const records = (schema as { readonly records?: Schema.StructWithRest.Records }).records
  return (records === undefined ? lenient : Schema.StructWithRest(lenient, records)) as unknown as Schema.Codec<unknown, unknown>
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
 * An item to insert or save may leave out `_id` and the fields the platform writes: where the Schema is
 * built from fields (a Struct, a Struct with a rest, a Class) it is encoded with those fields, the
 * system ones optional (checks on the whole item then apply to the answer); another Schema encodes it as
 * it is.
 */
export const collection = <S extends Schema.Codec<any, any>>(name: string, schema: S): TypedCollection<S["Type"], S> => {
  type A = S["Type"]
  const decode = (data: W.ItemData): Effect.Effect<A, DataError> =>
    (Schema.decodeUnknownEffect(schema)(data) as Effect.Effect<A, Schema.SchemaError>).pipe(Effect.mapError((e) => decodeError(name, data, e)))
  const encodeWith = (codec: Schema.Codec<unknown, unknown>, value: unknown): Effect.Effect<ItemInput, DataError> =>
    (Schema.encodeUnknownEffect(codec)(value) as Effect.Effect<ItemInput, Schema.SchemaError>).pipe(
      Effect.mapError((e) => new DataError({ reason: argumentError("ITEM_ENCODE_ERROR", `A value for [${name}] does not match its schema: ${e.message}`), collection: name }))
    )
  const encode = (value: A): Effect.Effect<ItemInput, DataError> => encodeWith(schema, value)
  const fields = fieldsOf(schema)
  // made at the first new item: a handle that only reads never builds it
  let forNew: { readonly codec: Schema.Codec<unknown, unknown> | undefined } | undefined
  // an item with an `_id` is encoded by the whole Schema, as before; one without, by its fields with the
  // system ones optional, and its id is given by the untyped call it goes on to
  const encodeNew = (value: NewItem<A>): Effect.Effect<ItemInput, DataError> => {
    if (typeof value === "object" && value !== null && typeof (value as ItemInput)._id === "string") return encodeWith(schema, value)
    forNew ??= { codec: newItemSchema(schema, fields) }
    return encodeWith(forNew.codec ?? schema, value)
  }
  const decodeItem = (item: Item) => decode(item as W.ItemData)
  // the fields a StoredItem<A> holds present: those of ALWAYS_STORED the Schema declares (all of them
  // when it declares none, as its type may still name them)
  const stamped = fields === undefined ? ALWAYS_STORED : ALWAYS_STORED.filter((key) => Object.hasOwn(fields, key))
  const decodeStored = (item: Item): Effect.Effect<StoredItem<A>, DataError> =>
    Effect.flatMap(decodeItem(item), (value) => {
      const missing = stamped.filter((key) => item[key] === undefined || item[key] === "" || (fields !== undefined && (value as Record<string, unknown>)[key] === undefined))
      return missing.length === 0
        ? Effect.succeed(value as StoredItem<A>)
        : Effect.fail(badAnswer(
          "ITEM_DECODE_ERROR",
          `The item of [${name}] the platform answered${typeof item._id === "string" && item._id !== "" ? ` (_id ${item._id})` : ""} lacks ${missing.join(", ")}, which every stored item has`,
          name
        ))
    })
  // a projection decodes through the Schema's fields picked to it, where the Schema has fields (a Struct,
  // a Struct with a rest, a Class); any other Schema decodes a projected item as a whole
  const decodeProjection = fields === undefined ? undefined : (names: ReadonlyArray<string>) => {
    const picked = Schema.Struct(Object.fromEntries(Object.entries(fields).filter(([key]) => key === "_id" || names.includes(key))))
    return (data: W.ItemData): Effect.Effect<unknown, DataError> =>
      (Schema.decodeUnknownEffect(picked)(data) as Effect.Effect<unknown, Schema.SchemaError>).pipe(Effect.mapError((e) => decodeError(name, data, e)))
  }
  const encodeAll = (values: ReadonlyArray<NewItem<A>> | Stream.Stream<NewItem<A>>): Effect.Effect<ReadonlyArray<ItemInput> | Stream.Stream<ItemInput, DataError>, DataError> =>
    Array.isArray(values)
      ? Effect.forEach(values as ReadonlyArray<NewItem<A>>, encodeNew)
      : Effect.succeed((values as Stream.Stream<NewItem<A>>).pipe(Stream.mapEffect(encodeNew)))
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
    insert: (value, options) => encodeNew(value).pipe(Effect.flatMap((item) => insert(name, item, options)), Effect.flatMap(decodeStored)),
    update: (value, options) => encode(value).pipe(Effect.flatMap((item) => update(name, item as Item, options)), Effect.flatMap(decodeStored)),
    save: (value, options) => encodeNew(value).pipe(Effect.flatMap((item) => save(name, item, options)), Effect.flatMap((r) => decodeStored(r.item))),
    remove: (id, options) => remove(name, id, options),
    bulkInsert: (values, options) => Effect.flatMap(encodeAll(values), (items) => bulkInsert(name, items, options)),
    bulkSave: (values, options) => Effect.flatMap(encodeAll(values), (items) => bulkSave(name, items, options))
  }
}
