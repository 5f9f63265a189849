/**
 * Wire shapes of the dev endpoints sitefx/dev reads besides those of src/server/platform/devWire.ts:
 * the request log (`/_sitefx/requests`) and snapshots (`/_sitefx/snapshots`). The other shapes are the
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

/** What a snapshot holds, counted. */
export const SnapshotCounts = Schema.Struct({
  members: Schema.Number,
  collections: Schema.Number,
  items: Schema.Number,
  products: Schema.Number,
  events: Schema.Number
})

/** A saved copy of the platform's state, restorable by name. */
export const Snapshot = Schema.Struct({
  name: Schema.String,
  createdDate: Schema.String,
  sizeBytes: Schema.Number,
  formatVersion: Schema.Number,
  /** The sitefx version that saved it. */
  sitefxVersion: Schema.String,
  counts: SnapshotCounts
})
export type Snapshot = typeof Snapshot.Type

/** `GET /_sitefx/snapshots`: the saved snapshots. */
export const SnapshotsResponse = Schema.Struct({ snapshots: Schema.Array(Snapshot) })
/** `POST /_sitefx/snapshots`: saves the platform's state under a name (409 when it is taken, unless `overwrite`). */
export const SaveSnapshotRequest = Schema.Struct({ name: Schema.String, overwrite: Schema.optionalKey(Schema.Boolean) })
/** The answer of saving a snapshot. */
export const SnapshotResponse = Schema.Struct({ snapshot: Snapshot })
/** `POST /_sitefx/snapshots/{name}/restore`: the snapshot restored, and how long it took. */
export const RestoreResponse = Schema.Struct({ snapshot: Snapshot, tookMs: Schema.Number })
