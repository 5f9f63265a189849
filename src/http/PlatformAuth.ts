/**
 * How a platform call is authenticated: the session's tokens (SessionTokens) or an API key
 * (`ApiKeyAuth`). Its own module, so the token service provides it without bringing the platform client.
 */
import * as Context from "effect/Context"
import type * as Effect from "effect/Effect"
import type { PlatformError } from "./PlatformError.ts"
import type { Host } from "./PlatformRequest.ts"

/** What an authentication provides: the headers of the next call, a refresh on 401, and which host calls go to. */
export interface PlatformAuthShape {
  /** Headers that authenticate the next call (`Authorization`, `wix-site-id`, ...). */
  readonly headers: Effect.Effect<Readonly<Record<string, string>>, PlatformError>
  /** The platform answered 401 to these headers: refresh the credentials (at most once per rejection). */
  readonly unauthorized: (rejected: Readonly<Record<string, string>>) => Effect.Effect<void, PlatformError>
  /** Module calls of a visitor/member session go to the module host (the CDN); API-key calls to the API host. */
  readonly host: Host
}

/** How platform calls authenticate: provided by the session's token service (SessionTokens) or by `ApiKeyAuth`. */
export class PlatformAuth extends Context.Service<PlatformAuth, PlatformAuthShape>()("sitefx/PlatformAuth") {}
