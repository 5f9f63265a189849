/**
 * Wire shapes of the dev endpoints sitefx/dev reads besides those of src/server/platform/devWire.ts:
 * the request log (`/_sitefx/requests`). The other shapes are the
 * platform's own (devWire.ts, the webhooks' wire.ts), imported from there: one schema, both sides.
 */
import * as Schema from "effect/Schema"

/** Who made a logged request, as its credentials say: a visitor, a member (with their id), an admin (an API key), or no one. */
export const RequestCaller = Schema.Struct({
  kind: Schema.Literals(["visitor", "member", "admin", "none"]),
  id: Schema.optionalKey(Schema.String)
})
export type RequestCaller = typeof RequestCaller.Type

/** The rule that refused a request (a permission, a limit, a validation), with whatever else it says. */
export const RequestRule = Schema.StructWithRest(Schema.Struct({ kind: Schema.String, id: Schema.String, message: Schema.String }), [
  Schema.Record(Schema.String, Schema.Unknown)
])
export type RequestRule = typeof RequestRule.Type

/** One request the platform served: when, what, for whom, how it ended (the error code and the rule behind a refusal). */
export const LoggedRequest = Schema.Struct({
  /** Its place in the log: later requests have greater numbers. */
  seq: Schema.Number,
  /** When it arrived (ISO time). */
  time: Schema.String,
  method: Schema.String,
  path: Schema.String,
  status: Schema.Number,
  durationMs: Schema.Number,
  caller: RequestCaller,
  code: Schema.optionalKey(Schema.String),
  rule: Schema.optionalKey(RequestRule)
})
export type LoggedRequest = typeof LoggedRequest.Type

/** `GET /_sitefx/requests`: the requests that match, and the number of the log's last request. */
export const RequestsResponse = Schema.Struct({ requests: Schema.Array(LoggedRequest), last: Schema.Number })
export type RequestsResponse = typeof RequestsResponse.Type
