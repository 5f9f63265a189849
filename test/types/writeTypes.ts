/**
 * Typed writes the compiler checks: a typed collection's insert, save, bulkInsert and bulkSave take an
 * item with or without `_id` (and without the dates the platform writes), refuse a field of the wrong
 * type or a missing required one, and answer the item as stored: its `_id`, `_createdDate` and
 * `_updatedDate` present where the item type declares them, nothing else claimed beyond what the Schema
 * guarantees (`_owner` stays optional: an item written by an API key has none). Update still needs an
 * `_id`. This file is compiled by `tsc` (`npm test`), and by TypeScript 5.9 in typedQueries.test.ts:
 * each `@ts-expect-error` line must be an error, every other line not.
 */
import type * as Effect from "effect/Effect"
import * as Schema from "effect/Schema"
import * as Stream from "effect/Stream"
import * as DataItems from "../../src/data/DataItems.ts"
import type { DeclaredFields } from "../../src/data/filterBuilder.ts"
import type { NewItem, StoredItem, TypedCollection } from "../../src/data/TypedCollection.ts"
import { Collections as Demo } from "../../examples/generated/collections.ts"
import { Collections as Site, type PostsItem } from "./generated/collections.ts"

/** `true` when the two types are the same, else `false`. */
type Same<X, Y> = (<T>() => T extends X ? 1 : 2) extends (<T>() => T extends Y ? 1 : 2) ? true : false
/** What an Effect succeeds with. */
type Answer<E> = E extends Effect.Effect<infer A, infer _E, infer _R> ? A : never

// the handles `sitefx data types` writes: an item without _id, as the generated item type lists its fields
const posts = Site.Posts
export const inserted = posts.insert({ title: "Hello", editor: "ada" })
export const withId = posts.insert({ _id: "hello", title: "Hello", editor: "ada", likes: 3, related: ["other"] })
export const fromRead = (read: PostsItem) => posts.insert(read)
export const saved = posts.save({ title: "Hello", editor: "ada" })
export const many = posts.bulkInsert([{ title: "A", editor: "ada" }, { _id: "b", title: "B", editor: "grace" }])
export const streamed = posts.bulkSave(Stream.fromIterable([{ title: "A", editor: "ada" }]))
export const demo = Demo.Posts.insert({ title: "Hello", tags: ["news"], published: new Date() })
// an API key may give the owner
export const owned = posts.insert({ title: "Hello", editor: "ada", _owner: "member-1" })

// @ts-expect-error title is text
posts.insert({ title: 7, editor: "ada" })
// @ts-expect-error editor is required
posts.insert({ title: "Hello" })
// @ts-expect-error an _id is text
posts.insert({ _id: 7, title: "Hello", editor: "ada" })
// @ts-expect-error likes is a number, in a bulk write as in one
posts.bulkInsert([{ title: "A", editor: "ada" }, { title: "B", editor: "ada", likes: "many" }])
// @ts-expect-error title is text, in a save as in an insert
posts.save({ title: 7, editor: "ada" })
// @ts-expect-error an update names the item it replaces
posts.update({ title: "Hello", editor: "ada" })

// the answer: the item as stored, its _id and dates present, its owner optional, every other field as read
type StoredPost = Answer<typeof inserted>
export const storedId: Same<StoredPost["_id"], string> = true
export const storedCreated: Same<StoredPost["_createdDate"], Date> = true
export const storedUpdated: Same<Answer<typeof saved>["_updatedDate"], Date> = true
export const storedOwner: Same<StoredPost["_owner"], string | undefined> = true
export const storedAuthor: Same<StoredPost["author"], PostsItem["author"]> = true
export const created = (post: StoredPost): number => post._createdDate.getTime()
// @ts-expect-error a stored item may have no owner
export const owner = (post: StoredPost): string => post._owner

/** The keys of a type that may be left out. */
type OptionalKeys<T> = { [K in keyof T]-?: {} extends Pick<T, K> ? K : never }[keyof T]
/** The fields a handle's insert answers present that its Schema leaves optional: exactly the dates the platform writes. */
type Claimed<C> = C extends TypedCollection<infer A, infer _S> ? Exclude<OptionalKeys<DeclaredFields<A>>, OptionalKeys<DeclaredFields<StoredItem<A>>>> : never
export const siteClaims: Same<Claimed<typeof Site.Posts> | Claimed<typeof Site.Authors> | Claimed<typeof Site["every-type"]>, "_createdDate" | "_updatedDate"> = true
export const demoClaims: Same<Claimed<typeof Demo.Posts> | Claimed<typeof Demo.Authors> | Claimed<typeof Demo.Notes>, "_createdDate" | "_updatedDate"> = true

// a Class: no rest, so a field it does not declare is refused; the answer claims only the _id it declares
class Product extends Schema.Class<Product>("Product")({ _id: Schema.String, name: Schema.String, price: Schema.Number }) {}
const products = DataItems.collection("Products", Product)
export const product = products.insert({ name: "Hat", price: 3 })
export const productInstance = products.insert(new Product({ _id: "hat", name: "Hat", price: 3 }))
export const productIsProduct: Product = null as unknown as Answer<typeof product>
// @ts-expect-error a Product has no colour
products.insert({ name: "Hat", price: 3, colour: "red" })
// @ts-expect-error the platform writes the dates
products.insert({ name: "Hat", price: 3, _createdDate: new Date() })
// @ts-expect-error price is required
products.bulkInsert([{ name: "Hat" }])
// @ts-expect-error a Product does not declare _createdDate, and its Schema drops it: the answer has none
export const productCreated = (p: Answer<typeof product>) => p._createdDate

// a Struct that declares the dates as required: an item to write leaves them out, the answer has them
const Note = Schema.Struct({ _id: Schema.String, _createdDate: Schema.Date, _updatedDate: Schema.Date, text: Schema.String })
const notes = DataItems.collection("Notes", Note)
export const note = notes.insert({ text: "Hi" })
export const noteCreated: Same<Answer<typeof note>["_createdDate"], Date> = true
export const newNote: Same<keyof NewItem<typeof Note.Type>, "_id" | "text"> = true
// @ts-expect-error the platform writes the dates
notes.insert({ text: "Hi", _updatedDate: new Date() })
