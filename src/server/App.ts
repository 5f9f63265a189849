/**
 * The local platform's HTTP application: every module's routes, dev endpoints when dev mode is on,
 * CORS, a request id on every answer, and a fallback that serves the built app (when there is one)
 * or answers 404 in the platform's error shape. The routes are those of the modules in modules.ts.
 */
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as HttpRouter from "effect/http/HttpRouter"
import type * as HttpServerError from "effect/http/HttpServerError"
import * as HttpServerRequest from "effect/http/HttpServerRequest"
import * as HttpServerResponse from "effect/http/HttpServerResponse"
import * as HttpStaticServer from "effect/http/HttpStaticServer"
import { randomUUID } from "node:crypto"
import { REQUEST_ID_HEADER } from "../http/wire.ts"
import { Callers } from "./accounts/Callers.ts"
import { Faults } from "./dev/Faults.ts"
import { faultedAnswer } from "./dev/faultAnswers.ts"
import { modules } from "./modules.ts"
import { type Grant, preflight, withCors } from "./platform/cors.ts"
import { type DevAccessOptions, devAccess, isDevPath } from "./platform/devAccess.ts"
import { Profile, RATE_LIMIT_HEADER } from "./platform/Profile.ts"
import { forbidden, notFound, tooManyRequests } from "./platform/responses.ts"
import { refusal } from "./platform/requestNote.ts"
import { logRequest } from "./platform/RequestLog.ts"
import { html, homePage } from "./oauth/pages.ts"
import { route } from "./platform/routing.ts"
import { Stats } from "./platform/Stats.ts"

export interface AppOptions {
  readonly dev: boolean
  /** A built web app to serve at `/`. */
  readonly appDir?: string | undefined
  /** Who may reach the dev endpoints besides the platform's own pages and non-browser clients. */
  readonly devAccess?: DevAccessOptions | undefined
}

/** Every module's routes, and in dev mode every module's dev endpoints, in the list's order. */
const moduleRoutes = (dev: boolean) =>
  Layer.mergeAll(
    Layer.empty,
    ...modules.map((module) => module.routes),
    ...(dev ? modules.flatMap((module) => ("devRoutes" in module ? [module.devRoutes] : [])) : [])
  )

/**
 * Around every request: counts it, answers CORS, guards the dev endpoints, holds API keys to the
 * production profile's rate limit, answers injected faults, gives every answer a request id, and
 * records it in the request log. A path the router cannot read (a
 * malformed escape) matches no route, not even the fallback, so its 404 is made here, in the platform's
 * shape like every other.
 */
const platformMiddleware = (options: DevAccessOptions) =>
  HttpRouter.middleware<{ handles: HttpServerError.HttpServerError }>()(
    (app) =>
      Effect.flatMap(Effect.service(Callers), (callers) =>
        logRequest(Effect.gen(function*() {
          const stats = yield* Stats
          stats.request()
          const request = yield* HttpServerRequest.HttpServerRequest
          const path = request.url.split("?")[0] ?? request.url
          const isDev = isDevPath(request.url)
          const access = isDev ? devAccess(request, options) : undefined
          // a dev endpoint's answer, or its refusal, is granted to the one page origin the guard names (devAccess.ts)
          const grant: Grant = access === undefined ? "*" : access.origin !== undefined ? { origin: access.origin } : undefined
          const answer = (response: HttpServerResponse.HttpServerResponse) =>
            HttpServerResponse.setHeader(withCors(response, grant), REQUEST_ID_HEADER, randomUUID())
          if (request.method === "OPTIONS") return HttpServerResponse.setHeader(preflight(request, grant), REQUEST_ID_HEADER, randomUUID())
          if (access !== undefined && !access.ok) {
            return answer(yield* refusal(forbidden(access.reason, "DEV_ACCESS_DENIED").because({ kind: "dev-access", id: access.rule })))
          }
          const route = app.pipe(
            Effect.catchTag("HttpServerError", () => refusal(notFound(`No route for ${request.method} ${path}`)))
          )
          const limit = isDev ? undefined : yield* rateLimit(callers)
          if (limit?.refusal !== undefined) return answer(limit.refusal)
          const fault = isDev ? undefined : (yield* Faults).take(path, request.method)
          const answered = answer(yield* (fault === undefined ? route : faultedAnswer(fault, route)))
          return limit === undefined ? answered : HttpServerResponse.setHeader(answered, RATE_LIMIT_HEADER, limit.header)
        }), callers.resolve)),
    { global: true }
  )

/**
 * Under the production profile, a call made with an API key counts in its key's window: the answer
 * carries the limit (`X-Sitefx-Rate-Limit: <n>/<window>s`, which sitefx's pacing reads), and past the limit
 * the call is refused with 429, its rule and `Retry-After`. Visitors, members, calls without
 * credentials and credentials that do not resolve (their route refuses them) are not counted.
 */
const rateLimit = (callers: Callers["Service"]) =>
  Effect.gen(function*() {
    const profile = yield* Profile
    const state = profile.get()
    if (state.profile !== "production") return undefined
    const caller = yield* Effect.option(callers.current)
    if (caller._tag === "None" || caller.value.kind !== "admin") return undefined
    const header = `${state.rateLimit}/${state.rateLimitWindowSeconds}s`
    const admission = profile.admit(`key:${caller.value.keyId}`)
    if (admission.ok) return { header, refusal: undefined }
    const refused = tooManyRequests(
      `This app made more than ${state.rateLimit} calls in ${state.rateLimitWindowSeconds} second${state.rateLimitWindowSeconds === 1 ? "" : "s"}; try again later`,
      admission.retryAfterSeconds,
      "rate-limit"
    )
    return { header, refusal: HttpServerResponse.setHeader(yield* refusal(refused), RATE_LIMIT_HEADER, header) }
  })

const fallback = (appDir: string | undefined, dev: boolean) =>
  HttpRouter.addAll(Effect.gen(function*() {
    const serveApp = appDir === undefined ? undefined : yield* HttpStaticServer.make({ root: appDir, spa: true })
    const handler = Effect.gen(function*() {
      const request = yield* HttpServerRequest.HttpServerRequest
      const path = request.url.split("?")[0] ?? request.url
      if (serveApp !== undefined && (request.method === "GET" || request.method === "HEAD")) {
        return yield* serveApp.pipe(Effect.catch(() => Effect.fail(notFound(`Nothing at ${path}`))))
      }
      if (path === "/" && request.method === "GET") return html(homePage({ dev }))
      return yield* notFound(`No route for ${request.method} ${path}`)
    })
    return [route("*", "*", handler)]
  }))

/** Every route of the platform with its middleware (CORS, dev guard, faults, request ids) and the fallback, to serve with `HttpRouter.serve`. */
export const appLayer = (options: AppOptions) =>
  Layer.mergeAll(
    moduleRoutes(options.dev),
    fallback(options.appDir, options.dev),
    platformMiddleware(options.devAccess ?? { origins: [], host: "127.0.0.1" })
  )
