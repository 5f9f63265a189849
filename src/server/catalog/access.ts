/**
 * Who may call the store: readers serve visitors, members and API keys; writers and admin calls need
 * an API key. Every store route first asks whether the site has a store at all (the catalog version
 * setting), so a site set to `STORES_NOT_INSTALLED` refuses every store call the same way.
 */
import * as Effect from "effect/Effect"
import type * as HttpServerRequest from "effect/http/HttpServerRequest"
import type { CatalogVersion } from "../../catalog/protocol.ts"
import { Callers } from "../accounts/Callers.ts"
import type { AdminCaller, Caller } from "../platform/Caller.ts"
import { Settings } from "../platform/Settings.ts"
import { preconditionFailed, type Reject, unauthorized } from "../platform/responses.ts"

export interface StoreAccess {
  /** The site's catalog version. */
  readonly version: () => CatalogVersion
  /** A visitor, member or API key on a site with a store; 401 for nobody, 428 without a store. */
  readonly reader: Effect.Effect<Caller, Reject, HttpServerRequest.HttpServerRequest>
  /** An API key on a site with a store; 401/403 otherwise, 428 without a store. */
  readonly writer: Effect.Effect<AdminCaller, Reject, HttpServerRequest.HttpServerRequest>
}

/** Built inside a route module's `Effect.gen`, from the services every store route has. */
export const storeAccess: Effect.Effect<StoreAccess, never, Callers | Settings> = Effect.gen(function*() {
  const callers = yield* Callers
  const settings = yield* Settings
  const version = () => settings.get().catalogVersion
  const installed = Effect.suspend(() =>
    version() === "STORES_NOT_INSTALLED"
      ? Effect.fail(preconditionFailed("The site has no store installed", "STORES_NOT_INSTALLED"))
      : Effect.void
  )
  return {
    version,
    reader: Effect.andThen(installed, callers.current).pipe(
      Effect.flatMap((caller) => (caller.kind === "none" ? Effect.fail(unauthorized().because({ kind: "authentication", id: "auth.credentials.required", caller: "none" })) : Effect.succeed(caller)))
    ),
    writer: Effect.andThen(installed, callers.admin)
  }
})
