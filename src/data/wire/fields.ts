/** The option fields most requests accept, shared by the wire files and kept out of `wire/index.ts`. */
import * as Schema from "effect/Schema"
import { Environment } from "./common.ts"

/** The environment a call works in (absent: LIVE). */
export const InEnvironment = {
  environment: Schema.optionalKey(Environment)
}

/** Options most calls accept. */
export const ReadOptions = {
  consistentRead: Schema.optionalKey(Schema.Boolean),
  language: Schema.optionalKey(Schema.NullOr(Schema.String)),
  ...InEnvironment
}
export const WriteOptions = {
  suppressHooks: Schema.optionalKey(Schema.Boolean),
  ...InEnvironment
}
