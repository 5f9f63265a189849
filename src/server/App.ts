/**
 * The local platform's HTTP application: every module's routes, dev endpoints when dev mode is on,
 * CORS, a request id on every answer, and a fallback that serves the built app (when there is one)
 * or answers 404 in the platform's error shape. New modules add their route Layer to {@link modules}.
 */
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as HttpRouter from "effect/http/HttpRouter"
import * as HttpServerRequest from "effect/http/HttpServerRequest"
import * as HttpServerResponse from "effect/http/HttpServerResponse"
import * as HttpStaticServer from "effect/http/HttpStaticServer"
import { randomUUID } from "node:crypto"
import { CONSISTENT_HEADER, REQUEST_ID_HEADER } from "../http/wire.ts"
import { authorizeRoutes } from "./authorize.ts"
import { dataDevRoutes, dataRoutes } from "./data/index.ts"
import { DEV_PREFIX, devRoutes } from "./dev.ts"
import { Faults } from "./Faults.ts"
import { identityRoutes } from "./identity/index.ts"
import { oauthRoutes } from "./oauth.ts"
import { redirectRoutes } from "./redirects.ts"
import { notFound } from "./responses.ts"
import { route } from "./routing.ts"
import { Stats } from "./Stats.ts"

export interface AppOptions {
  readonly dev: boolean
  /** A built web app to serve at `/`. */
  readonly appDir?: string | undefined
}

/** The platform services, one route Layer each. */
export const modules = Layer.mergeAll(oauthRoutes, redirectRoutes, authorizeRoutes, identityRoutes, dataRoutes)

const requestIds = HttpRouter.middleware(
  (app) =>
    Effect.gen(function*() {
      const stats = yield* Stats
      stats.request()
      const request = yield* HttpServerRequest.HttpServerRequest
      const path = request.url.split("?")[0] ?? request.url
      const fault = path.startsWith(DEV_PREFIX) ? undefined : (yield* Faults).take(path)
      // the body is read anyway, so the client's upload completes before the refusal arrives
      if (fault !== undefined) yield* Effect.ignore(request.text)
      const response = fault ?? (yield* app)
      return HttpServerResponse.setHeader(response, REQUEST_ID_HEADER, randomUUID())
    }),
  { global: true }
)

const cors = HttpRouter.cors({
  allowedMethods: ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE"],
  exposedHeaders: [REQUEST_ID_HEADER, CONSISTENT_HEADER],
  maxAge: 600
})

const fallback = (appDir: string | undefined) =>
  HttpRouter.addAll(Effect.gen(function*() {
    const serveApp = appDir === undefined ? undefined : yield* HttpStaticServer.make({ root: appDir, spa: true })
    const handler = Effect.gen(function*() {
      const request = yield* HttpServerRequest.HttpServerRequest
      const path = request.url.split("?")[0] ?? request.url
      if (serveApp !== undefined && (request.method === "GET" || request.method === "HEAD")) {
        return yield* serveApp.pipe(Effect.catch(() => Effect.fail(notFound(`Nothing at ${path}`))))
      }
      return yield* notFound(`No route for ${request.method} ${path}`)
    })
    return [route("*", "*", handler)]
  }))

export const appLayer = (options: AppOptions) =>
  Layer.mergeAll(
    modules,
    options.dev ? Layer.merge(devRoutes, dataDevRoutes) : Layer.empty,
    fallback(options.appDir),
    requestIds,
    cors
  )
