/**
 * A member's sign-in page: the token service and the member flows (register, login, the codes of email
 * verification and MFA, passwords, and the direct login's completion), with no OAuth redirect flow, no
 * state-change stream, no data wire and no environment configuration. The flows' calls are POSTs of JSON
 * to the API host, sent as the token service sends its own (`fetchTokenEndpoint`), so the page carries
 * neither the wire's encodings (`.r`, `$date`) nor `SITEFX_*` configuration.
 *
 * @example
 * const MembersLive = siteMembers({ clientId: "my-client-id", tokens: "localStorage" })
 */
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import { DEFAULT_API_URL, trimSlash } from "../http/hosts.ts"
import { PlatformHttpKey } from "../http/PlatformHttpKey.ts"
import { isTransient } from "../http/PlatformError.ts"
import { postAnswer } from "../http/postJson.ts"
import { DEFAULT_RETRY_MILLIS, isTransientUnapplied } from "../http/retry.ts"
import { AuthorizeAgent } from "./AuthorizeAgent.ts"
import { MemberFlows } from "./MemberFlows.ts"
import { ownSite, siteTokens, type TokenOptions, type TokenServices } from "./SiteClient.ts"

/** The options of `siteMembers`, from code only: the token service's (client id, hosts, store, retries) and how a direct login completes. */
export interface MemberOptions extends TokenOptions {
  /** How a direct login reaches the authorize page; by default an iframe in browsers, HTTP elsewhere. */
  readonly authorizeAgent?: Layer.Layer<AuthorizeAgent> | undefined
}

/** What `siteMembers` provides: the member flows and the token service under them. */
export type MemberServices = MemberFlows | TokenServices

/**
 * The token service and the member flows alone, for a sign-in page: a member signs in (or up) with the
 * site's own form, and the page reads who is signed in. It carries no OAuth redirect flow, no stream of
 * the session's changes and no platform client (about 2 KB gzipped less than `siteSession`, see
 * `npm run size`); its settings come from code alone. A page that also calls the platform uses
 * `siteSession` (or `siteClient` and `memberFlows`).
 *
 * @example
 * declare const password: string // what the member typed
 * const signIn = Effect.gen(function*() {
 *   const members = yield* MemberFlows
 *   const result = yield* members.login({ email: "ada@example.com", password: Redacted.make(password) })
 *   if (result.loginState === "SUCCESS") yield* members.completeDirectLogin(result.data.sessionToken)
 *   return result.loginState
 * })
 * Effect.runPromise(signIn.pipe(Effect.provide(siteMembers({ clientId: "my-client-id", tokens: "localStorage" }))))
 */
export const siteMembers = (options: MemberOptions): Layer.Layer<MemberServices> =>
  ownSite(MemberFlows.layer.pipe(
    Layer.provide(Layer.merge(memberWire(options), options.authorizeAgent ?? AuthorizeAgent.auto)),
    Layer.provideMerge(siteTokens(options))
  ))

/**
 * The wire the member flows send through on a sign-in page: each call a POST of JSON to the API host,
 * retried as PlatformHttp retries it (a call that must not run twice only after a failure the platform
 * cannot have acted on). The flows send nothing else: anything else is a defect of sitefx.
 */
const memberWire = (options: TokenOptions) =>
  Layer.sync(PlatformHttpKey, () => {
    const apiUrl = trimSlash(options.apiUrl ?? options.baseUrl ?? DEFAULT_API_URL)
    const retry = options.retryTimes === undefined ? DEFAULT_RETRY_MILLIS : { ...DEFAULT_RETRY_MILLIS, times: options.retryTimes }
    return {
      send: (request) =>
        request.method !== "POST" || request.payload === undefined || request.json !== undefined || request.raw === true
          ? Effect.die(new Error(`sitefx: siteMembers sends only POSTs of a JSON payload, not ${request.method} ${request.path}`))
          : postAnswer({
            apiUrl,
            path: request.path,
            payload: request.payload,
            headers: request.headers,
            retry,
            retryable: request.idempotent === true ? isTransient : isTransientUnapplied
          })
    }
  })
