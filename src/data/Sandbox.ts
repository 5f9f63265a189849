/**
 * sitefx/data/sandbox: a collection's sandbox on the local platform. A sandbox is a second copy of a
 * collection's items that data calls reach with the SANDBOX environment (see DataEnvironment), so a
 * test, a preview or a migration can write freely while LIVE stays as it is; syncing copies one
 * environment onto the other. On a real site a sandbox is enabled and synced in the dashboard: these
 * calls are the local platform's dev endpoints and answer only there (dev mode, from this machine).
 *
 * @example
 * import * as Sandbox from "sitefx/data/sandbox"
 * import { DataEnvironment, DataItems } from "sitefx/data"
 *
 * yield* Sandbox.enable("Posts")                      // a copy of live
 * yield* DataItems.insert("Posts", { title: "Draft" }).pipe(DataEnvironment.provide("SANDBOX"))
 * yield* Sandbox.syncToLive("Posts")                  // live is now the sandbox's items
 */
import * as Effect from "effect/Effect"
import { unlessInvalid } from "../http/checks.ts"
import * as G from "../http/guard.ts"
import type { PlatformClient } from "../http/PlatformClient.ts"
import { call, checkCollection, type DataFailure } from "./calls.ts"
import { withClient } from "./withClient.ts"
import { SandboxesListResponse, SandboxResponse, SyncResponse } from "./guards/sandboxes.ts"
import type * as W from "./wire/index.ts"

/** A collection's sandbox: the items each environment holds. */
export type SandboxState = W.SandboxState

/** The local platform's dev endpoints for sandboxes. */
export const SANDBOXES_PATH = "/_sitefx/data/sandboxes"

const path = (collection: string, rest = "") => `${SANDBOXES_PATH}/${encodeURIComponent(collection)}${rest}`

/** The collections whose sandbox is enabled. */
export const list: Effect.Effect<ReadonlyArray<SandboxState>, DataFailure, PlatformClient> = withClient((client) =>
  Effect.map(call(client, undefined, { method: "GET", path: SANDBOXES_PATH, idempotent: true }, SandboxesListResponse), (r) => r.sandboxes)
)

/**
 * Enables the collection's sandbox: a copy of its live items (ids, dates, owners and references), or
 * empty with `{ empty: true }`. Fails with a DataError `ALREADY_EXISTS` when it has one already.
 */
export const enable = (collection: string, options: { readonly empty?: boolean } = {}): Effect.Effect<SandboxState, DataFailure, PlatformClient> =>
  unlessInvalid(checkCollection(collection), () =>
    withClient((client) =>
      call(client, collection, {
        method: "POST",
        path: SANDBOXES_PATH,
        payload: { dataCollectionId: collection, ...(options.empty === undefined ? {} : { empty: options.empty }) }
      }, SandboxResponse)
    ).pipe(Effect.map((r) => r.sandbox)))

/** Disables the collection's sandbox; its items go. A DataError `SANDBOX_NOT_ENABLED` when it has none. */
export const disable = (collection: string): Effect.Effect<void, DataFailure, PlatformClient> =>
  unlessInvalid(checkCollection(collection), () =>
    // the platform answers a disable with an empty object
    withClient((client) => Effect.asVoid(call(client, collection, { method: "DELETE", path: path(collection) }, G.object))))

const sync = (collection: string, direction: "SANDBOX_TO_LIVE" | "LIVE_TO_SANDBOX") =>
  unlessInvalid(checkCollection(collection), () =>
    withClient((client) => call(client, collection, { method: "POST", path: path(collection, "/sync"), payload: { direction } }, SyncResponse)))

/** Live's items (and the references they hold) become the sandbox's, exactly; the count copied. */
export const syncToLive = (collection: string): Effect.Effect<{ readonly sandbox: SandboxState; readonly itemsCopied: number }, DataFailure, PlatformClient> =>
  sync(collection, "SANDBOX_TO_LIVE")

/** The sandbox's items become live's again (a sandbox started over); the count copied. */
export const syncFromLive = (collection: string): Effect.Effect<{ readonly sandbox: SandboxState; readonly itemsCopied: number }, DataFailure, PlatformClient> =>
  sync(collection, "LIVE_TO_SANDBOX")
