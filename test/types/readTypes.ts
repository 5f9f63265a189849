/**
 * Reads no stronger than the data: no typed read claims a field the collection's Schema does not
 * guarantee. For every handle `sitefx data types` writes (the demo site's, examples/generated, and a site
 * with every kind of reference and field, test/types/generated), every field the Schema leaves optional,
 * in its decoded or its encoded form, may be absent from the items of the handle's query, of the query
 * with each reference field included (and with all of them), of each one-field projection, and of each
 * reference field projected and included. A read that claims such a field present, as `include` once did
 * by dropping a reference's `?` (`post.author.name` compiled, and threw for a post without an author),
 * fails to compile here, naming the read and the field.
 *
 * Compiled by `tsc` (`npm test`), and by TypeScript 5.9 in typedQueries.test.ts.
 */
import type * as Schema from "effect/Schema"
import type { DeclaredFields, ReferenceFieldsOf } from "../../src/data/filterBuilder.ts"
import type { Included, Projected, Query } from "../../src/data/Query.ts"
import type { TypedCollection } from "../../src/data/TypedCollection.ts"
import { Collections as Demo, type PostsItem as DemoPost } from "../../examples/generated/collections.ts"
import { Collections as Site, type PostsItem } from "./generated/collections.ts"

/** The items of a query. */
type ItemsOf<Q> = Q extends Query<infer A, infer _R, infer _F> ? A : never
/** The query a method of a query gives, as the method is declared: its type parameters at their widest (every field it may take). */
type Next<Q, M extends "include" | "fields"> = Q extends { readonly [_ in M]: (...args: any) => infer N } ? N : never

/** The keys of a type that may be left out. */
type OptionalKeys<T> = { [K in keyof T]-?: {} extends Pick<T, K> ? K : never }[keyof T]
/** Whether a read of the field may find nothing: its key may be left out, or its value be `undefined`. */
type MayBeAbsent<T, K extends keyof T> = {} extends Pick<T, K> ? true : undefined extends T[K] ? true : false

/** The fields the Schema leaves optional, decoded or encoded. */
type Unsure<S extends Schema.Top> = OptionalKeys<DeclaredFields<S["Type"]>> | OptionalKeys<DeclaredFields<S["Encoded"]>>

/** "read: field" for each field of `Read` that the Schema leaves optional and the read says is there. */
type Overclaims<Label extends string, Read, S extends Schema.Top> = [Read] extends [never] ? `${Label}: no items (the read did not type)`
  : {
    [K in Unsure<S>]: K extends keyof DeclaredFields<Read> ? MayBeAbsent<DeclaredFields<Read>, K> extends true ? never : `${Label}: ${K & string}` : never
  }[Unsure<S>]

/** An item type's reference fields. */
type RefsOf<A> = Extract<ReferenceFieldsOf<DeclaredFields<A>>, string>
/** An item type's declared fields. */
type KeysOf<A> = Extract<keyof DeclaredFields<A>, string>

/**
 * The reads of one handle, each named: its query; the query with every reference field included, and
 * projected to every field, then included, as `include` and `fields` are declared; each reference field
 * included, each field projected, each reference field projected and included.
 */
type Reads<Name extends string, Q, A, S extends Schema.Top> =
  | Overclaims<`${Name}.query`, A, S>
  | Overclaims<`${Name}.fields(all)`, ItemsOf<Next<Q, "fields">>, S>
  | ([RefsOf<A>] extends [never] ? never
    :
      | Overclaims<`${Name}.include(any)`, ItemsOf<Next<Q, "include">>, S>
      | Overclaims<`${Name}.fields(all).include(any)`, ItemsOf<Next<Next<Q, "fields">, "include">>, S>)
  | { [K in RefsOf<A>]: Overclaims<`${Name}.include(${K})`, Included<A, K>, S> }[RefsOf<A>]
  | { [K in KeysOf<A>]: Overclaims<`${Name}.fields(${K})`, Projected<A, K>, S> }[KeysOf<A>]
  | { [K in RefsOf<A>]: Overclaims<`${Name}.fields(${K}).include(${K})`, Included<Projected<A, K>, K>, S> }[RefsOf<A>]

/** The overclaims of every handle of a generated module: `never` when every read is honest. */
type OverclaimsOf<Handles> = {
  [C in keyof Handles & string]: Handles[C] extends TypedCollection<infer A, infer S extends Schema.Top> ? Reads<C, Handles[C]["query"], A, S>
    : `${C}: not a typed collection`
}[keyof Handles & string]

/** `"honest"` when there is nothing to report, else the reports: assigning `"honest"` to it fails with them. */
type Verdict<Reports> = [Reports] extends [never] ? "honest" : `${Reports & string}`

export const demoSite: Verdict<OverclaimsOf<typeof Demo>> = "honest"
export const everyReference: Verdict<OverclaimsOf<typeof Site>> = "honest"

/** `true` when the two types are the same, else `false`. */
type Same<X, Y> = (<T>() => T extends X ? 1 : 2) extends (<T>() => T extends Y ? 1 : 2) ? true : false

// What it compares against: the fields the Schema leaves optional, here every field of a demo post but its _id.
export const demoUnsure: Same<Unsure<typeof Demo.Posts.schema>, "_createdDate" | "_updatedDate" | "_owner" | "author" | "body" | "likes" | "published" | "tags" | "title"> = true
export const siteUnsure: Same<Unsure<typeof Site.Posts.schema>, "_createdDate" | "_updatedDate" | "_owner" | "author" | "likes" | "previous" | "related" | "reviewers"> = true

// The check has teeth: `include` as it was, dropping the `?` of the included field, is reported, by read and field.
/** The former `Included`: a reference made present by including it. */
type StrippingIncluded<A, K extends PropertyKey> = A & {
  readonly [P in K & keyof A]-?: Exclude<A[P], undefined> extends ReadonlyArray<infer E> ? ReadonlyArray<Exclude<E, string>> : Exclude<A[P], string | undefined>
}
export const stripped: Same<Overclaims<"Posts.include(author)", StrippingIncluded<DemoPost, "author">, typeof Demo.Posts.schema>, "Posts.include(author): author"> = true
export const strippedMulti: Same<Overclaims<"Posts.include(related)", StrippingIncluded<PostsItem, "related">, typeof Site.Posts.schema>, "Posts.include(related): related"> = true

// The reads it covers are the ones that matter: include resolves the references, and keeps what is required.
declare const post: ItemsOf<ReturnType<typeof Site.Posts.query.include<"author">>>
declare const edited: ItemsOf<ReturnType<typeof Site.Posts.query.include<"editor">>>
declare const related: ItemsOf<ReturnType<typeof Site.Posts.query.include<"related">>>
export const authorName: string | undefined = post.author?.name
// @ts-expect-error an included optional reference may be absent
export const authorNameUnsure: string = post.author.name
// a required reference, included, is the referenced item: never its id
export const editorName: string = edited.editor.name
// @ts-expect-error an included multi-reference may be absent: the platform answers none where the caller may not read its collection
export const relatedTitlesUnsure: ReadonlyArray<string> = related.related.map((p) => p.title)
// and its items are items, never ids
export const relatedTitles: ReadonlyArray<string> | undefined = related.related?.map((p) => p.title)
