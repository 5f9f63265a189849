/**
 * The local platform's sandbox administration (`/_sitefx/data/sandboxes`, dev endpoints: the platform's
 * own API has none), shared by the platform's routes and sitefx/data/sandbox.
 */
import * as Schema from "effect/Schema"

/** A collection's sandbox: how many items each environment holds. */
export const SandboxState = Schema.Struct({
  dataCollectionId: Schema.String,
  liveItems: Schema.Number,
  sandboxItems: Schema.Number
})
export type SandboxState = typeof SandboxState.Type
/** Which way a sync copies: the sandbox's items onto live (the default), or live's onto the sandbox. */
export const SyncDirection = Schema.Literals(["SANDBOX_TO_LIVE", "LIVE_TO_SANDBOX"])
export type SyncDirection = typeof SyncDirection.Type
/** `GET /_sitefx/data/sandboxes`: the collections whose sandbox is enabled. */
export const ListSandboxesResponse = Schema.Struct({ sandboxes: Schema.Array(SandboxState) })
/** `POST /_sitefx/data/sandboxes`: enables a collection's sandbox, a copy of its live items unless `empty`. */
export const EnableSandboxRequest = Schema.Struct({ dataCollectionId: Schema.String, empty: Schema.optionalKey(Schema.Boolean) })
/** The answer of enabling a sandbox: the collection's items in each environment. */
export const SandboxResponse = Schema.Struct({ sandbox: SandboxState })
/** `POST /_sitefx/data/sandboxes/{id}/sync`: one environment's items replace the other's (default: sandbox to live). */
export const SyncSandboxRequest = Schema.Struct({ direction: Schema.optionalKey(SyncDirection) })
/** The answer of a sync: the collection's items in each environment afterwards, and how many were copied. */
export const SyncSandboxResponse = Schema.Struct({ sandbox: SandboxState, itemsCopied: Schema.Number })
