/**
 * Route building blocks every platform module uses: {@link route} turns a handler that may refuse with
 * a {@link Reject} into a router entry that always answers in the platform's shape, and the request
 * helpers decode bodies with the shared schemas. A module is a Layer of routes:
 *
 * ```ts
 * export const routes = HttpRouter.addAll(Effect.gen(function*() {
 *   const members = yield* Members
 *   return [route("GET", "/members/v1/members/my", handler(members))]
 * }))
 * ```
 */
import * as Effect from "effect/Effect"
import * as Schema from "effect/Schema"
import * as HttpRouter from "effect/http/HttpRouter"
import * as HttpServerRequest from "effect/http/HttpServerRequest"
import type * as HttpServerResponse from "effect/http/HttpServerResponse"
import { fromSchemaError, internalError, invalidField, type Reject, toResponse } from "./responses.ts"

export type Method = "GET" | "POST" | "PUT" | "PATCH" | "DELETE" | "*"

/** What a handler may need: the request and its route context, nothing else. */
export type Handler = Effect.Effect<HttpServerResponse.HttpServerResponse, Reject, HttpRouter.Provided>

/** A route whose refusals and defects become platform error answers. */
export const route = (method: Method, path: HttpRouter.PathInput, handler: Handler): HttpRouter.Route<never, never> =>
  HttpRouter.route(method, path, guard(handler))

const guard = (handler: Handler) =>
  handler.pipe(
    Effect.catchTag("Reject", (reject) => Effect.succeed(toResponse(reject))),
    Effect.catchDefect((defect) =>
      Effect.logError("sitefx local platform: unexpected failure", defect).pipe(Effect.as(toResponse(internalError())))
    )
  )

/** The request body as JSON; an empty body reads as `{}`. */
export const jsonBody: Effect.Effect<unknown, Reject, HttpServerRequest.HttpServerRequest> = Effect.gen(function*() {
  const request = yield* HttpServerRequest.HttpServerRequest
  const text = yield* request.text.pipe(Effect.catch(() => Effect.fail(invalidField("", "The request body could not be read"))))
  if (text.trim() === "") return {}
  try {
    return JSON.parse(text) as unknown
  } catch {
    return yield* invalidField("", "The request body is not valid JSON", "FORMAT")
  }
})

/** Decodes `input` with a shared wire schema; failures become a 400 with one violation per field. */
export const decode = <A, I>(schema: Schema.Codec<A, I>, input: unknown): Effect.Effect<A, Reject> =>
  Schema.decodeUnknownEffect(schema)(input, { errors: "all" }).pipe(Effect.mapError((error) => fromSchemaError(error)))

/** The JSON body decoded with `schema`. */
export const body = <A, I>(schema: Schema.Codec<A, I>): Effect.Effect<A, Reject, HttpServerRequest.HttpServerRequest> =>
  Effect.flatMap(jsonBody, (input) => decode(schema, input))

/** An HTML form body (`application/x-www-form-urlencoded`). */
export const formBody: Effect.Effect<URLSearchParams, Reject, HttpServerRequest.HttpServerRequest> = Effect.gen(
  function*() {
    const request = yield* HttpServerRequest.HttpServerRequest
    const text = yield* request.text.pipe(Effect.catch(() => Effect.fail(invalidField("", "The request body could not be read"))))
    return new URLSearchParams(text)
  }
)

/** The query string of the current request. */
export const query: Effect.Effect<URLSearchParams, never, HttpServerRequest.HttpServerRequest> = Effect.map(
  HttpServerRequest.HttpServerRequest,
  (request) => new URL(request.url, "http://local").searchParams
)

/** A request header (names are case-insensitive). */
export const header = (name: string): Effect.Effect<string | undefined, never, HttpServerRequest.HttpServerRequest> =>
  Effect.map(HttpServerRequest.HttpServerRequest, (request) => request.headers[name.toLowerCase()])

/** The origin this request reached the platform at (`http://<host header>`), for links back to it. */
export const requestOrigin: Effect.Effect<string, never, HttpServerRequest.HttpServerRequest> = Effect.map(
  HttpServerRequest.HttpServerRequest,
  (request) => {
    const host = request.headers["host"]
    return host !== undefined && /^[A-Za-z0-9.\-:[\]]+$/.test(host) ? `http://${host}` : "http://127.0.0.1"
  }
)

/** A path parameter of the matched route. */
export const pathParam = (name: string): Effect.Effect<string, never, HttpRouter.RouteContext> =>
  Effect.map(HttpRouter.params, (params) => params[name] ?? "")
