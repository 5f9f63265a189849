/** `GET /stores/v3/provision/version`: which catalog the site runs (the `catalogVersion` setting). */
import * as Effect from "effect/Effect"
import * as HttpRouter from "effect/http/HttpRouter"
import { CatalogPaths } from "../../catalog/protocol.ts"
import { GetCatalogVersionResponse } from "../../catalog/wire/common.ts"
import { Callers } from "../accounts/Callers.ts"
import { reply, unauthorized } from "../platform/responses.ts"
import { route } from "../platform/routing.ts"
import { Settings } from "../platform/Settings.ts"

export const versionRoutes = HttpRouter.addAll(Effect.gen(function*() {
  const callers = yield* Callers
  const settings = yield* Settings
  return [
    route(
      "GET",
      CatalogPaths.version,
      Effect.gen(function*() {
        const caller = yield* callers.current
        if (caller.kind === "none") return yield* unauthorized().because({ kind: "authentication", id: "auth.credentials.required", caller: "none" })
        return reply(GetCatalogVersionResponse, { catalogVersion: settings.get().catalogVersion })
      })
    )
  ]
}))
