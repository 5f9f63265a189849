/**
 * The authenticated platform client every service module (data, catalog, members) calls through.
 * It asks {@link PlatformAuth} for headers, sends through {@link PlatformHttp}, and on a 401 lets the
 * auth refresh once and retries the call once.
 */
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Redacted from "effect/Redacted"
import { checkBody, type PlatformResponse } from "./answer.ts"
import { authorized } from "./authorized.ts"
import type { Guard } from "./guard.ts"
import { PlatformAuth, type PlatformAuthShape } from "./PlatformAuth.ts"
import type { PlatformError } from "./PlatformError.ts"
import { PlatformHttp } from "./PlatformHttp.ts"
import type { PlatformRequest } from "./PlatformRequest.ts"

export { checkBody } from "./answer.ts"
export { authorized } from "./authorized.ts"
export { PlatformAuth, type PlatformAuthShape } from "./PlatformAuth.ts"

/** What `ApiKeyAuth.layer` takes: the API key, and the site (or account) its calls act on. */
export interface ApiKeyOptions {
  /** The key, sent as the `Authorization` header. */
  readonly apiKey: Redacted.Redacted<string>
  /** The site the calls act on (`wix-site-id`). */
  readonly siteId?: string | undefined
  /** The account the calls act on (`wix-account-id`), for account-level calls. */
  readonly accountId?: string | undefined
}

/** Headers of an API-key call: the raw key plus the site and/or account id. */
export const apiKeyHeaders = (options: ApiKeyOptions): Record<string, string> => ({
  Authorization: Redacted.value(options.apiKey),
  ...(options.siteId === undefined ? {} : { "wix-site-id": options.siteId }),
  ...(options.accountId === undefined ? {} : { "wix-account-id": options.accountId })
})

/** API-key authentication for scripts and batch jobs (admin rights on the site). */
export const ApiKeyAuth = {
  layer: (options: ApiKeyOptions): Layer.Layer<PlatformAuth> =>
    Layer.succeed(PlatformAuth, PlatformAuth.of({
      headers: Effect.sync(() => apiKeyHeaders(options)),
      // an API key cannot be refreshed: the 401 stands
      unauthorized: () => Effect.void,
      host: "api"
    }))
}

/** What the platform client does: send an authenticated call, and optionally check its answer's shape. */
export interface PlatformClientShape {
  /** Sends with the auth's headers (refreshing once on a 401); succeeds with the 200 answer. */
  readonly request: (request: PlatformRequest) => Effect.Effect<PlatformResponse, PlatformError>
  /** Sends and checks the 200 body with a guard; a body of another shape is a SystemError. */
  readonly json: <A>(request: PlatformRequest, guard: Guard<A>) => Effect.Effect<A, PlatformError>
}

/**
 * The authenticated client every service module calls through; a raw call to an endpoint sitefx does not
 * wrap goes through it too, with the session's tokens or an API key.
 *
 * @example
 * const client = yield* PlatformClient
 * const answer = yield* client.request({ method: "GET", path: "/members/v1/members/my" })
 * console.log(answer.requestId, answer.body)
 */
export class PlatformClient extends Context.Service<PlatformClient, PlatformClientShape>()("sitefx/PlatformClient") {
  /** The client over the wire (PlatformHttp) and an authentication (PlatformAuth). */
  static readonly layer: Layer.Layer<PlatformClient, never, PlatformHttp | PlatformAuth> = Layer.effect(
    PlatformClient,
    Effect.gen(function*() {
      const http = yield* PlatformHttp
      const auth = yield* PlatformAuth
      const request = (req: PlatformRequest) => authorized(http, auth, req)
      return PlatformClient.of({
        request,
        json: (req, guard) => Effect.flatMap(request(req), (res) => checkBody(req, res, guard))
      })
    })
  )
}
