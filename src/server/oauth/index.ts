/**
 * OAuth and sessions of the local platform: the token endpoint (anonymous visitors, refreshes, codes
 * with PKCE, external login), redirect sessions and the pages they lead to (authorize, logout, the
 * visitor pre-warm), and the member session a browser keeps with those pages.
 */
import * as Layer from "effect/Layer"
import type { PlatformModule } from "../platform/PlatformModule.ts"
import { authorizeRoutes } from "./authorizeRoutes.ts"
import { BrowserSessions } from "./BrowserSessions.ts"
import { redirectRoutes } from "./redirectRoutes.ts"
import { RedirectSessions } from "./RedirectSessions.ts"
import { tokenRoutes } from "./tokenRoutes.ts"

export const module = {
  name: "oauth",
  layer: () => Layer.mergeAll(BrowserSessions.layer, RedirectSessions.layer),
  routes: Layer.mergeAll(tokenRoutes, redirectRoutes, authorizeRoutes)
} satisfies PlatformModule
