/**
 * Route building blocks every platform module uses: {@link route} turns a handler that may refuse with
 * a {@link Reject} into a router entry that always answers in the platform's shape, and the request
 * helpers decode bodies with the shared schemas. A module is a Layer of routes:
 *
 * ```ts
 * export const routes = HttpRouter.addAll(Effect.gen(function*() {
 *   const members = yield* MemberStore
 *   return [route("GET", "/members/v1/members/my", handler(members))]
 * }))
 * ```
 */
import * as ByteSize from "effect/ByteSize"
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import * as Schema from "effect/Schema"
import * as HttpIncomingMessage from "effect/http/HttpIncomingMessage"
import * as HttpRouter from "effect/http/HttpRouter"
import * as HttpServerRequest from "effect/http/HttpServerRequest"
import type * as HttpServerResponse from "effect/http/HttpServerResponse"
import { decodeUtf8, notUtf8, parseJson } from "./json.ts"
import { MAX_BODY_BYTES } from "./limits.ts"
import { refusal } from "./requestNote.ts"
import { fromSchemaError, internalError, invalidField, payloadTooLarge, type Reject, toResponse } from "./responses.ts"

export type Method = "GET" | "POST" | "PUT" | "PATCH" | "DELETE" | "*"

/** What a handler may need: the request and its route context, nothing else. */
export type Handler = Effect.Effect<HttpServerResponse.HttpServerResponse, Reject, HttpRouter.Provided>

/** A route whose refusals and defects become platform error answers. */
export const route = (method: Method, path: HttpRouter.PathInput, handler: Handler): HttpRouter.Route<never, never> =>
  HttpRouter.route(method, path, guard(handler))

const guard = (handler: Handler) =>
  handler.pipe(
    Effect.catchTag("Reject", refusal),
    // every client input has an answer of its own: reaching this is a bug, logged with where it happened
    Effect.catchDefect((defect) =>
      Effect.flatMap(HttpServerRequest.HttpServerRequest, (request) =>
        Effect.logError(
          `sitefx local platform: unexpected failure on ${request.method} ${request.url.split("?")[0] ?? ""}`,
          defect
        )).pipe(Effect.as(toResponse(internalError())))
    )
  )

/**
 * How much body a route reads, and what it answers over that: {@link MAX_BODY_BYTES} and a 413 unless a
 * module says otherwise (the data routes take bigger bodies and answer WDE0109).
 */
export interface BodyLimitShape {
  readonly maxBytes: number
  readonly tooLarge: () => Reject
}

export const BodyLimit = Context.Reference<BodyLimitShape>("sitefx/server/BodyLimit", {
  defaultValue: () => ({ maxBytes: MAX_BODY_BYTES, tooLarge: () => payloadTooLarge(MAX_BODY_BYTES) })
})

/**
 * The request body as text: refused with the route's 413 when its declared length or the bytes that
 * arrive pass the limit (reading stops there), and with a 400 when it is not UTF-8.
 */
export const bodyText: Effect.Effect<string, Reject, HttpServerRequest.HttpServerRequest> = Effect.gen(function*() {
  const limit = yield* BodyLimit
  const request = yield* HttpServerRequest.HttpServerRequest
  const declared = Number(request.headers["content-length"] ?? "0")
  if (declared > limit.maxBytes) return yield* limit.tooLarge()
  const bytes = yield* request.arrayBuffer.pipe(
    Effect.provideService(HttpIncomingMessage.MaxBodySize, ByteSize.bytes(limit.maxBytes)),
    Effect.catch((error) =>
      Effect.fail(
        error.reason._tag === "RequestParseError" && error.reason.reason === "BodyTooLarge"
          ? limit.tooLarge()
          : invalidField("", "The request body could not be read")
      )
    )
  )
  const text = decodeUtf8(bytes)
  return text === undefined ? yield* notUtf8() : text
})

/** Parsed JSON text; a failure to parse or a depth over the bound is the client's 400. */
export const parseBody = (text: string): Effect.Effect<unknown, Reject> => {
  if (text.trim() === "") return Effect.succeed({})
  const parsed = parseJson(text)
  return parsed.ok ? Effect.succeed(parsed.value) : Effect.fail(parsed.reject)
}

/** The request body as JSON; an empty body reads as `{}`. */
export const jsonBody: Effect.Effect<unknown, Reject, HttpServerRequest.HttpServerRequest> = Effect.flatMap(bodyText, parseBody)

/** Decodes `input` with a shared wire schema; failures become a 400 with one violation per field. */
export const decode = <A, I>(schema: Schema.Codec<A, I>, input: unknown): Effect.Effect<A, Reject> =>
  Schema.decodeUnknownEffect(schema)(input, { errors: "all" }).pipe(Effect.mapError((error) => fromSchemaError(error)))

/** The JSON body decoded with `schema`. */
export const body = <A, I>(schema: Schema.Codec<A, I>): Effect.Effect<A, Reject, HttpServerRequest.HttpServerRequest> =>
  Effect.flatMap(jsonBody, (input) => decode(schema, input))

/** An HTML form body (`application/x-www-form-urlencoded`), held to the same limits as any body. */
export const formBody: Effect.Effect<URLSearchParams, Reject, HttpServerRequest.HttpServerRequest> = Effect.flatMap(
  bodyText,
  (text) => {
    const params = strictParams(text)
    return params === undefined ? Effect.fail(invalidField("", "The form body has a malformed escape", "FORMAT")) : Effect.succeed(params)
  }
)

const decodePart = (part: string) => decodeURIComponent(part.replace(/\+/g, " "))

/**
 * `a=1&b=x%20y` as parameters, or undefined when an escape is malformed or its bytes are not UTF-8
 * (URLSearchParams would put U+FFFD in their place and carry on).
 */
export const strictParams = (encoded: string): URLSearchParams | undefined => {
  const params = new URLSearchParams()
  for (const pair of encoded.split("&")) {
    if (pair === "") continue
    const eq = pair.indexOf("=")
    try {
      params.append(decodePart(eq < 0 ? pair : pair.slice(0, eq)), eq < 0 ? "" : decodePart(pair.slice(eq + 1)))
    } catch {
      return undefined
    }
  }
  return params
}

/** The query string of the current request; a malformed escape is a 400. */
export const query: Effect.Effect<URLSearchParams, Reject, HttpServerRequest.HttpServerRequest> = Effect.flatMap(
  HttpServerRequest.HttpServerRequest,
  (request) => {
    const at = request.url.indexOf("?")
    const params = strictParams(at < 0 ? "" : request.url.slice(at + 1))
    return params === undefined
      ? Effect.fail(invalidField("", "The query string has a malformed escape or is not UTF-8", "FORMAT"))
      : Effect.succeed(params)
  }
)

/** A request header (names are case-insensitive). */
export const header = (name: string): Effect.Effect<string | undefined, never, HttpServerRequest.HttpServerRequest> =>
  Effect.map(HttpServerRequest.HttpServerRequest, (request) => request.headers[name.toLowerCase()])

/**
 * The client's address: the TCP peer, never a forwarding header (anyone can write one). An IPv4 peer
 * on an IPv6 socket (`::ffff:127.0.0.2`) reads as its IPv4 address.
 */
export const clientAddress: Effect.Effect<string, never, HttpServerRequest.HttpServerRequest> = Effect.map(
  HttpServerRequest.HttpServerRequest,
  (request) => {
    const address = Option.getOrElse(request.peerAddress, () => "unknown")
    return address.startsWith("::ffff:") ? address.slice(7) : address
  }
)

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
