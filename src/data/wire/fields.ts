/** The option fields most requests accept, shared by the wire files and kept out of `wire/index.ts`. */
import * as Schema from "effect/Schema"

/** Options most calls accept. */
export const ReadOptions = {
  consistentRead: Schema.optionalKey(Schema.Boolean),
  language: Schema.optionalKey(Schema.NullOr(Schema.String))
}
export const WriteOptions = {
  suppressHooks: Schema.optionalKey(Schema.Boolean)
}
