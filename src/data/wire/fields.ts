/** What several wire files share and the local platform reads, kept out of `wire/index.ts`: the item-object test and the option fields most calls accept. */
import * as Schema from "effect/Schema"

export const isItemData = (u: unknown): u is { readonly [field: string]: unknown } => typeof u === "object" && u !== null && !Array.isArray(u)

/** Options most calls accept. */
export const ReadOptions = {
  consistentRead: Schema.optionalKey(Schema.Boolean),
  language: Schema.optionalKey(Schema.NullOr(Schema.String))
}
export const WriteOptions = {
  suppressHooks: Schema.optionalKey(Schema.Boolean)
}
