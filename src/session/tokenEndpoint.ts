/**
 * The token endpoint as the session's parts call it: one POST to `/oauth2/token` on the API host, its
 * answer checked, and turned into the token set the client keeps. The token service reaches it through
 * a {@link TokenEndpoint}: over the platform's wire (`wireTokenEndpoint`, what `siteSession` and
 * `Site.layer` use), or with a JSON call of its own (`fetchTokenEndpoint`, what `siteTokens` uses), so a
 * page that only reads the session carries no data wire. No Schema, no OAuth error.
 */
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import { checkBody } from "../http/answer.ts"
import { DEFAULT_API_URL, trimSlash } from "../http/hosts.ts"
import { PlatformConfig } from "../http/PlatformConfig.ts"
import type { PlatformError } from "../http/PlatformError.ts"
import { PlatformHttp } from "../http/PlatformHttp.ts"
import type { PlatformRequest } from "../http/PlatformRequest.ts"
import { postJson } from "../http/postJson.ts"
import { DEFAULT_RETRY_MILLIS } from "../http/retry.ts"
import { currentTimeMillis } from "../http/time.ts"
import { TokenResponse } from "./guards/tokens.ts"
import { Paths, TOKEN_PATH } from "./protocol.ts"
import type * as SessionWire from "./wire/index.ts"

export { isExpired, tokensFrom } from "./storedSession.ts"

/** The time in epoch seconds, the unit of `expiresAt`, from Effect's Clock (a TestClock moves expiry on). */
export const nowSeconds: Effect.Effect<number> = Effect.map(currentTimeMillis, (millis) => Math.floor(millis / 1000))

/** One grant at the token endpoint over the platform's wire; only grants that may be sent twice (anonymous, refresh) are retried. */
export const tokenCall = (
  http: PlatformHttp["Service"],
  payload: Record<string, unknown>,
  extra: { readonly idempotent: boolean; readonly headers?: Record<string, string> }
): Effect.Effect<SessionWire.TokenResponse, PlatformError> => {
  const req: PlatformRequest = {
    method: "POST",
    path: Paths.token,
    host: "api",
    payload,
    idempotent: extra.idempotent,
    ...(extra.headers === undefined ? {} : { headers: extra.headers })
  }
  return Effect.flatMap(http.send(req), (res) => checkBody(req, res, TokenResponse))
}

/** The token endpoint as the token service uses it: the client id it asks for, and a grant. */
export interface TokenEndpointShape {
  /** The headless app's client id the tokens are issued to. */
  readonly clientId: string
  /** One grant that may be sent twice (anonymous, refresh_token): retried when it got no verdict. */
  readonly grant: (payload: Record<string, unknown>) => Effect.Effect<SessionWire.TokenResponse, PlatformError>
}

/** Where the token service gets its visitor tokens and refreshes: `wireTokenEndpoint` or `fetchTokenEndpoint`. */
export class TokenEndpoint extends Context.Service<TokenEndpoint, TokenEndpointShape>()("sitefx/TokenEndpoint") {}

const noClientId = () => Effect.die(new Error("sitefx: a session needs a clientId (Site.layer({ clientId }) or SITEFX_CLIENT_ID)"))

/**
 * The token endpoint over the platform's wire: its transport, retry policy and consistency header, as
 * every other call of the session. The client id defaults to PlatformConfig's.
 */
export const wireTokenEndpoint = (
  options: { readonly clientId?: string | undefined } = {}
): Layer.Layer<TokenEndpoint, never, PlatformHttp | PlatformConfig> =>
  Layer.effect(
    TokenEndpoint,
    Effect.gen(function*() {
      const config = yield* PlatformConfig
      const http = yield* PlatformHttp
      const clientId = options.clientId ?? Option.getOrUndefined(config.clientId)
      if (clientId === undefined || clientId === "") return yield* noClientId()
      return { clientId, grant: (payload) => tokenCall(http, payload, { idempotent: true }) }
    })
  )

/** The settings of a token endpoint reached with its own JSON call: from code only. */
export interface FetchTokenEndpointOptions {
  /** The headless app's client id. */
  readonly clientId: string
  /** One base URL for every host, e.g. the local platform `http://127.0.0.1:8787`. */
  readonly baseUrl?: string | undefined
  /** The API host, when it differs from `baseUrl` (`https://www.wixapis.com` by default). */
  readonly apiUrl?: string | undefined
  /** Retries of a grant that got no verdict (no answer, 429, 502-504); 3 by default, 0 turns them off. */
  readonly retryTimes?: number | undefined
}

/**
 * The token endpoint with a JSON call of its own (POST JSON through `fetch`, or the PlatformFetch
 * provided; the platform's error body read into a PlatformError; transient failures retried): no `.r`
 * or `$date` encoding, no configuration read from the environment. The headers are the ones the wire
 * sends to the token endpoint (`content-type` alone).
 */
export const fetchTokenEndpoint = (options: FetchTokenEndpointOptions): Layer.Layer<TokenEndpoint> =>
  Layer.effect(
    TokenEndpoint,
    Effect.suspend(() => {
      const { clientId } = options
      if (typeof clientId !== "string" || clientId === "") return noClientId()
      const apiUrl = trimSlash(options.apiUrl ?? options.baseUrl ?? DEFAULT_API_URL)
      const retry = options.retryTimes === undefined ? DEFAULT_RETRY_MILLIS : { ...DEFAULT_RETRY_MILLIS, times: options.retryTimes }
      return Effect.succeed<TokenEndpointShape>({
        clientId,
        grant: (payload) => postJson({ apiUrl, path: TOKEN_PATH, payload, guard: TokenResponse, retry })
      })
    })
  )
