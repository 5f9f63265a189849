/**
 * Queries the compiler checks: on a typed collection (a Schema, or a handle `sitefx data types`
 * writes), a filter or a sort names only the item's declared fields, each with its values' type, and
 * an operator only where the field's type allows it. The untyped API still takes any field. This file
 * is compiled by `tsc` (`npm test`): each `@ts-expect-error` line must be an error, every other line not.
 */
import * as Schema from "effect/Schema"
import * as DataItems from "../../src/data/DataItems.ts"
import * as Products from "../../src/catalog/Products.ts"
import { Filter } from "../../src/data/Filter.ts"
import type { Query } from "../../src/data/Query.ts"
import { Collections } from "../../examples/generated/collections.ts"

class Product extends Schema.Class<Product>("Product")({
  _id: Schema.String,
  name: Schema.String,
  price: Schema.Number,
  released: Schema.Date,
  tags: Schema.Array(Schema.String),
  active: Schema.Boolean
}) {}

const products = DataItems.collection("Products", Product).query

// right: each field with a value of its type, each operator on a field it fits
products.eq("name", "Hat").ne("price", 3).gt("price", 10).le("released", new Date()).eq("active", true)
products.between("price", 1, 9).between("released", new Date(0), new Date()).between("name", "a", "m")
products.startsWith("name", "H").contains("name", "at").endsWith("name", "t")
products.hasSome("tags", ["news"]).hasAll("tags", ["a", "b"]).in("price", [1, 2, 3])
products.exists("tags").isEmpty("name").ascending("price", "name").descending("released")

// wrong: a value of another type, a field that is not there, an operator the field's type does not fit
// @ts-expect-error price is a number
products.eq("price", "10")
// @ts-expect-error there is no field "nope"
products.ascending("nope")
// @ts-expect-error there is no field "nope"
products.eq("nope", 1)
// @ts-expect-error startsWith takes a text field
products.startsWith("price", "1")
// @ts-expect-error hasSome takes an array field
products.hasSome("name", ["a"])
// @ts-expect-error hasSome's values are the array's elements
products.hasSome("tags", [1])
// @ts-expect-error between takes numbers, dates or text
products.between("active", false, true)
// @ts-expect-error between's ends are the field's type
products.between("price", "1", "9")
// @ts-expect-error gt compares the field's type
products.gt("released", 5)

// the handles `sitefx data types` writes: declared fields typed, references as ids or items
const posts = Collections.Posts.query
posts.eq("title", "Welcome").gt("likes", 3).hasSome("tags", ["news"]).eq("author", "ada").descending("published")
// @ts-expect-error likes is a number
posts.eq("likes", "x")
// @ts-expect-error the demo Posts have no "rating"
posts.descending("rating")
// @ts-expect-error author is a reference (an id or an Authors item), not text to search in
posts.startsWith("author", "a")

// the untyped API stays as it was: any field, any value
DataItems.query("Posts").eq("likes", "x").ascending("nope").startsWith("anything", "a")
Filter.eq("a.b.c", 1).hasSome("x", [1, "a"])

// include narrows a reference field to the referenced items, and keeps it optional: a post may have no author
type ItemsOf<Q> = Q extends Query<infer A, infer _R, infer _F> ? A : never
const withAuthors = Collections.Posts.query.include("author")
export const authorName = (post: ItemsOf<typeof withAuthors>): string | undefined => post.author?.name
// @ts-expect-error a post may have no author, included or not (readTypes.ts checks every read so)
export const surelyAuthor = (post: ItemsOf<typeof withAuthors>): string | undefined => post.author.name
// @ts-expect-error before include, a post's author may be an id
export const notYet = (post: ItemsOf<typeof posts>): string | undefined => post.author.name
// @ts-expect-error only reference fields can be included
Collections.Posts.query.include("title")
// @ts-expect-error a product has no reference fields
products.include("name")
DataItems.query("Posts").include("author")

// the store: product queries take the fields the platform filters and sorts on, with their types
Products.query().eq("visible", true).gt("price", 10).startsWith("name", "Tee").hasSome("collections.id", ["c1"]).descending("lastUpdated")
Products.query().ge("lastUpdated", new Date()).eq("productType", "physical").eq("stock.inventoryStatus", "IN_STOCK")
// @ts-expect-error price is a number
Products.query().eq("price", "10")
// @ts-expect-error products are not filtered on their colour
Products.query().eq("colour", "red")
// @ts-expect-error productType is physical, digital or unspecified
Products.query().eq("productType", "service")
// @ts-expect-error a product's name is text: no hasSome
Products.query().hasSome("name", ["a"])
// a filter built at run time still goes in through where
Products.query().where(Filter.eq("anything.at.all", 1))

// a projection narrows the item type to its fields and _id
export const projected = (post: ItemsOf<ReturnType<typeof posts.fields<"title" | "likes">>>): [string | undefined, number | undefined, string] => [post.title, post.likes, post._id]
// @ts-expect-error body was not projected
export const notProjected = (post: ItemsOf<ReturnType<typeof posts.fields<"title">>>) => post.body
// @ts-expect-error a projection names declared fields
products.fields("colour")
