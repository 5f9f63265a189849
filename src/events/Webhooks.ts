/**
 * Signed webhooks in: a processor verifies a webhook body (an RS256 JWT signed with the site's key
 * pair), decodes it into a typed {@link SiteEvent} and runs the handler registered for its type.
 *
 * - `handlers` maps event types to `(event) => Effect`; each handler gets the event of its type
 *   ({@link EventOf}). One function may serve several types ({@link forTypes}, or the same function
 *   under several keys typed for their union). `exhaustive: [...types]` makes the compiler require a
 *   handler for each of those types; `accept: [...types]` acknowledges types without running anything.
 * - A body that is not a well-formed token, does not verify, has expired or is not yet valid, is signed
 *   with any algorithm but RS256, does not hold a well-formed envelope, or has a type that is neither
 *   handled nor accepted fails with a {@link WebhookError} and runs no handler; its `reason` (a tagged
 *   class of reasons.ts) says which. A handler's failure is a WebhookError too (`HandlerFailed`, the
 *   handler's error as its `cause`).
 * - The site's public key (SPKI PEM, or the base64 of the PEM on one line) is imported once per
 *   processor, on first use; a key that is not an RSA SPKI public key fails every body with `InvalidKey`.
 *
 * Adapters serve a processor over HTTP: {@link toFetchHandler} for fetch runtimes (Deno, Bun, edge
 * workers), {@link toNodeHandler} for Node servers (node:http, Express, Fastify) and {@link route} for an
 * Effect `HttpRouter`. They answer 200 once the handler ran, 401
 * for a token that does not verify (signature, algorithm, validity times), 400 for a body that is not a
 * webhook or an event type the processor does not take, 413 for a body over the size limit, 405 for
 * other methods (fetch and Node adapters) and 500 when the handler fails or the key is unusable (so the platform
 * delivers again); each with a short JSON `{ error, message }` that never describes the key.
 *
 * @example
 * import { CatalogV1EventTypes, DataEventTypes, Webhooks } from "sitefx/events"
 * const webhooks = Webhooks.handler({
 *   publicKey: process.env.SITE_PUBLIC_KEY!,
 *   handlers: {
 *     [DataEventTypes.itemCreated]: (event) => Effect.log(`new ${event.entityId} in ${event.change._tag}`),
 *     ...Webhooks.forTypes([CatalogV1EventTypes.productCreated, CatalogV1EventTypes.productDeleted], (event) =>
 *       Effect.log(`product ${event.data.productId}`))
 *   }
 * })
 * export default { fetch: Webhooks.toFetchHandler(webhooks) }
 */

import * as ByteSize from "effect/ByteSize"
import * as Data from "effect/Data"
import * as Effect from "effect/Effect"
import * as Exit from "effect/Exit"
import * as HttpIncomingMessage from "effect/http/HttpIncomingMessage"
import * as HttpRouter from "effect/http/HttpRouter"
import * as HttpServerRequest from "effect/http/HttpServerRequest"
import * as HttpServerResponse from "effect/http/HttpServerResponse"
import type * as Layer from "effect/Layer"
import { decodeClaims, type EventOf, type SiteEvent } from "./Event.ts"
import { importPublicKey, verify, type VerifyOptions } from "./jwt.ts"
import { type NodeRequest, type NodeResponse, readNodeBody } from "./nodeBody.ts"
import type { EventType } from "./protocol.ts"
import { HandlerFailed, TooLarge, UnknownEventType, type WebhookErrorReason } from "./reasons.ts"

export type { NodeRequest, NodeResponse, WebhookErrorReason }

/**
 * A webhook that was refused (see `reason`) or whose handler failed (`HandlerFailed`, the handler's
 * error in `cause`). `eventType` is set once the body was decoded that far.
 *
 * @example
 * declare const processor: Webhooks.Processor<"wix.data.v2.data_item_created">
 * declare const body: string
 * // a token signed with another key is answered apart; any other refusal stays a WebhookError
 * const outcome = processor.process(body).pipe(
 *   Effect.as("handled"),
 *   Effect.catchReason("WebhookError", "BadSignature", (reason) => Effect.succeed(`not from the platform: ${reason.message}`))
 * )
 */
export class WebhookError extends Data.TaggedError("WebhookError")<{
  readonly reason: WebhookErrorReason
  readonly cause?: unknown
}> {
  override get message(): string {
    return this.reason.message
  }

  /** The event's type, once the body was decoded that far. */
  get eventType(): string | undefined {
    return "eventType" in this.reason ? this.reason.eventType : undefined
  }
}

/** A handler of the events of type `T`. */
export type Handler<T extends EventType, E = unknown, R = never> = (event: EventOf<T>) => Effect.Effect<unknown, E, R>

/** Handlers by event type. */
export type Handlers = { readonly [T in EventType]?: Handler<T, unknown, any> }

/** The event types a handler map handles. */
export type HandledTypes<H> = Extract<keyof H, EventType>

/** What the handlers of a map need from the environment. */
export type HandlersContext<H> = {
  [K in keyof H]-?: NonNullable<H[K]> extends (event: any) => Effect.Effect<any, any, infer R> ? R : never
}[keyof H]

/** Every type in `Required` has a handler in `H` (the compiler names each missing one). */
export type Exhaustive<H, Required extends EventType> = { readonly [K in Exclude<Required, keyof H>]: Handler<K, unknown, any> }

/** Keys that are not event types are refused by the compiler. */
export type OnlyEventTypes<H> = { readonly [K in Exclude<keyof H, EventType>]: never }

/** Bodies larger than this are refused unless the options say otherwise: 4 MiB. */
export const DEFAULT_MAX_BODY_BYTES = 4 * 1024 * 1024

/** A webhook handler's settings: the site's public key, the handlers by event type, and the checks on them. */
export interface Options<H, X extends ReadonlyArray<EventType>, A extends ReadonlyArray<EventType>> extends VerifyOptions {
  /** The site's public key: SPKI PEM text, or the base64 of the PEM on one line. */
  readonly publicKey: string
  readonly handlers: H
  /** Event types that must each have a handler (checked by the compiler). */
  readonly exhaustive?: X
  /** Event types acknowledged without a handler (any other type without one is refused). */
  readonly accept?: A
  /** The largest body taken, in bytes ({@link DEFAULT_MAX_BODY_BYTES} unless given). */
  readonly maxBodyBytes?: number
}

/**
 * Verifies, decodes and dispatches webhook bodies.
 *
 * @example
 * // a processor behind a server of your own (the adapters answer the same way, with a JSON body)
 * import { createServer } from "node:http"
 * declare const processor: Webhooks.Processor<"wix.data.v2.data_item_created">
 * createServer(async (request, response) => {
 *   let body = ""
 *   for await (const chunk of request) body += chunk
 *   const status = await Effect.runPromise(processor.process(body).pipe(
 *     Effect.as(200),
 *     Effect.catchTag("WebhookError", (e) => Effect.succeed(e.reason._tag === "HandlerFailed" || e.reason._tag === "InvalidKey" ? 500 : 400))
 *   ))
 *   response.writeHead(status).end()
 * }).listen(3000)
 */
export interface Processor<T extends EventType, R = never> {
  /** Verifies and decodes one body and runs its type's handler; the event once the handler succeeded. */
  readonly process: (body: string) => Effect.Effect<EventOf<T>, WebhookError, R>
  /** Verifies and decodes one body without running any handler (any event type sitefx knows). */
  readonly parse: (body: string) => Effect.Effect<SiteEvent, WebhookError>
  /** The event types this processor takes (handled or accepted). */
  readonly types: ReadonlyArray<T>
  /** The largest body the adapters read, in bytes. */
  readonly maxBodyBytes: number
}

const refuse = (reason: WebhookErrorReason) => new WebhookError({ reason })

/**
 * A processor of webhook bodies with these handlers.
 *
 * @example
 * const processor = Webhooks.handler({
 *   publicKey: process.env.SITE_PUBLIC_KEY!,
 *   exhaustive: Object.values(DataEventTypes),
 *   handlers: Webhooks.forTypes(Object.values(DataEventTypes), (event) => Effect.log(event.type, event.entityId))
 * })
 */
export const handler = <
  const H extends Handlers,
  const X extends ReadonlyArray<EventType> = readonly [],
  const A extends ReadonlyArray<EventType> = readonly []
>(
  options: Options<H & OnlyEventTypes<H> & Exhaustive<H, X[number]>, X, A>
): Processor<HandledTypes<H> | A[number], HandlersContext<H>> => {
  const handlers = options.handlers as Handlers
  const taken = new Set<string>([...Object.keys(handlers).filter((k) => handlers[k as EventType] !== undefined), ...(options.accept ?? [])])
  const maxBodyBytes = options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES
  const verifyOptions: VerifyOptions = {
    ...(options.leewaySeconds === undefined ? {} : { leewaySeconds: options.leewaySeconds }),
    ...(options.now === undefined ? {} : { now: options.now })
  }
  // imported once, on first use, and shared by concurrent bodies
  const key = Effect.runSync(Effect.cached(importPublicKey(options.publicKey)))

  const parse = (body: string): Effect.Effect<SiteEvent, WebhookError> =>
    Effect.suspend(() => {
      if (body.length > maxBodyBytes) return Effect.fail(refuse(new TooLarge({ message: `The body is larger than ${maxBodyBytes} bytes` })))
      return key.pipe(
        Effect.flatMap((k) => verify(body.trim(), k, verifyOptions)),
        Effect.mapError((e) => refuse(e.reason)),
        Effect.flatMap((claims) => decodeClaims(claims).pipe(Effect.mapError((e) => refuse(e.reason))))
      )
    })

  const process = (body: string) =>
    Effect.flatMap(parse(body), (event) => {
      if (!taken.has(event.type)) {
        return Effect.fail(refuse(new UnknownEventType({ message: `Event type ${event.type} is not handled here`, eventType: event.type })))
      }
      const run = handlers[event.type] as Handler<EventType, unknown, unknown> | undefined
      if (run === undefined) return Effect.succeed(event)
      return run(event).pipe(
        Effect.mapError((cause) =>
          new WebhookError({ reason: new HandlerFailed({ message: `The handler of ${event.type} failed`, eventType: event.type }), cause })
        ),
        Effect.as(event)
      )
    })

  return {
    process: process as Processor<HandledTypes<H> | A[number], HandlersContext<H>>["process"],
    parse,
    types: [...taken] as Array<HandledTypes<H> | A[number]>,
    maxBodyBytes
  }
}

/**
 * One handler for several event types, to spread into a handler map: it gets the union of their events
 * (narrow on `event.type` or `event._tag`).
 */
export const forTypes = <const T extends EventType, E = never, R = never>(
  types: ReadonlyArray<T>,
  f: (event: EventOf<T>) => Effect.Effect<unknown, E, R>
): { readonly [K in T]: (event: EventOf<T>) => Effect.Effect<unknown, E, R> } => {
  const out: Record<string, typeof f> = {}
  for (const type of types) out[type] = f
  return out as { readonly [K in T]: typeof f }
}

// ---- HTTP answers -------------------------------------------------------------------------------------------

interface Answer {
  readonly status: number
  readonly body: { readonly ok: true } | { readonly error: string; readonly message: string }
}

const statusOf: { readonly [R in WebhookErrorReason["_tag"]]: number } = {
  BadSignature: 401,
  Expired: 401,
  NotYetValid: 401,
  UnsupportedAlgorithm: 401,
  Malformed: 400,
  UnknownEventType: 400,
  TooLarge: 413,
  HandlerFailed: 500,
  InvalidKey: 500
}

const internal: Answer = { status: 500, body: { error: "Internal", message: "The webhook could not be processed" } }

/** What an outcome answers: refusals say what was wrong with the body; failures of the receiver say nothing more. */
const answerOf = (exit: Exit.Exit<unknown, unknown>): Answer => {
  if (Exit.isSuccess(exit)) return { status: 200, body: { ok: true } }
  const error = Exit.findErrorOption(exit)
  if (error._tag === "None" || !(error.value instanceof WebhookError)) return internal
  const e = error.value
  const reason = e.reason._tag
  const status = statusOf[reason]
  if (reason === "InvalidKey") return { status, body: { error: reason, message: "The webhook receiver is not configured with a usable key" } }
  if (reason === "HandlerFailed") return { status, body: { error: reason, message: "The event's handler failed" } }
  return { status, body: { error: reason, message: e.message } }
}

const tooLarge = (max: number): Answer => ({ status: 413, body: { error: "TooLarge", message: `The body is larger than ${max} bytes` } })
const methodNotAllowed: Answer = { status: 405, body: { error: "MethodNotAllowed", message: "Webhooks are POSTed" } }
const unreadable: Answer = { status: 400, body: { error: "Malformed", message: "The request body could not be read" } }
const parsedBody: Answer = {
  status: 400,
  body: { error: "Malformed", message: "The request body was parsed into a value that is not the signed token as sent; a webhook route takes its body raw (text or bytes)" }
}
const consumedBody: Answer = {
  status: 500,
  body: { error: "BodyUnavailable", message: "The request body was read before the webhook handler got it; a webhook route takes its body raw (text or bytes)" }
}

const utf8 = new TextDecoder("utf-8")
const encoder = new TextEncoder()

/** Runs processors whose handlers need services (a `ManagedRuntime` is one). */
export interface Runner<R> {
  readonly runPromiseExit: <A, E>(effect: Effect.Effect<A, E, R>) => Promise<Exit.Exit<A, unknown>>
}

const runWith = <R>(runner: Runner<R> | undefined): Runner<R>["runPromiseExit"] =>
  runner?.runPromiseExit ?? (<A, E>(effect: Effect.Effect<A, E, R>) => Effect.runPromiseExit(effect as Effect.Effect<A, E>))

/** What a body read in full answers once the processor had it. */
const outcomeOf = async <T extends EventType, R>(processor: Processor<T, R>, run: Runner<R>["runPromiseExit"], body: string): Promise<Answer> => {
  try {
    return answerOf(await run(processor.process(body)))
  } catch {
    return internal
  }
}

/** The request body as text, reading no more than `max` bytes; undefined when it is larger. */
const readBody = async (request: Request, max: number): Promise<string | undefined> => {
  const declared = Number(request.headers.get("content-length") ?? "0")
  if (declared > max) return undefined
  if (request.body === null) return ""
  const reader = request.body.getReader()
  const chunks: Array<Uint8Array> = []
  let total = 0
  for (;;) {
    const { done, value } = await reader.read()
    if (done) break
    total += value.byteLength
    if (total > max) {
      await reader.cancel().catch(() => undefined)
      return undefined
    }
    chunks.push(value)
  }
  const bytes = new Uint8Array(total)
  let at = 0
  for (const chunk of chunks) {
    bytes.set(chunk, at)
    at += chunk.byteLength
  }
  return utf8.decode(bytes)
}

/**
 * A `Request → Response` handler for fetch runtimes: POST bodies go through the processor. A processor
 * whose handlers need services takes a runner that provides them (`ManagedRuntime.make(layer)`).
 *
 * @example
 * // what Deno's and Bun's own types say of their servers
 * declare const Deno: { serve(handler: (request: Request) => Promise<Response>): unknown }
 * declare const Bun: { serve(options: { fetch: (request: Request) => Promise<Response> }): unknown }
 * const processor = Webhooks.handler({
 *   publicKey: process.env.SITE_PUBLIC_KEY!,
 *   handlers: { [DataEventTypes.itemCreated]: (event) => Effect.log(event.entityId) }
 * })
 * Deno.serve(Webhooks.toFetchHandler(processor)) // on Deno
 * Bun.serve({ fetch: Webhooks.toFetchHandler(processor) }) // on Bun
 */
export function toFetchHandler<T extends EventType>(processor: Processor<T, never>): (request: Request) => Promise<Response>
export function toFetchHandler<T extends EventType, R>(processor: Processor<T, R>, runner: Runner<R>): (request: Request) => Promise<Response>
export function toFetchHandler<T extends EventType, R>(processor: Processor<T, R>, runner?: Runner<R>): (request: Request) => Promise<Response> {
  const run = runWith(runner)
  const respond = (answer: Answer, headers?: Record<string, string>) => Response.json(answer.body, { status: answer.status, ...(headers === undefined ? {} : { headers }) })
  return async (request) => {
    if (request.method !== "POST") return respond(methodNotAllowed, { allow: "POST" })
    let body: string | undefined
    try {
      body = await readBody(request, processor.maxBodyBytes)
    } catch {
      return respond(unreadable)
    }
    if (body === undefined) return respond(tooLarge(processor.maxBodyBytes))
    return respond(await outcomeOf(processor, run, body))
  }
}

/**
 * A `(request, response)` handler for Node servers: node:http's `createServer`, Express, Fastify, or any
 * framework that hands over node:http's request and response. It answers as {@link toFetchHandler} does
 * (the same statuses and JSON bodies, 405 with `allow: POST` for other methods), and a processor whose
 * handlers need services takes a runner the same way. The promise it returns settles once the answer is
 * written, and never rejects.
 *
 * The body is the signed token exactly as the platform sent it (`text/plain`), so the handler needs it
 * raw:
 * - a request nobody has read (node:http, or Express with no parser on the route, or a `json()`,
 *   `urlencoded()` or `raw()` parser that passes `text/plain` by) is read here, stopping at
 *   `maxBodyBytes` ({@link DEFAULT_MAX_BODY_BYTES} unless the processor's options say otherwise);
 * - a body a parser left as bytes (Express's `raw({ type: "text/plain" })`) or as text (Express's
 *   `text()`, Fastify's own `text/plain` parser: pass Fastify's `request` and `reply.raw`, after
 *   `reply.hijack()`) is taken as it is, under the same limit (a parser's own limit, 100 KB for
 *   Express's and 1 MiB for Fastify's, answers before this one: raise it to match);
 * - a body a parser turned into anything else (an object, after a parser that takes every type) is not
 *   the token as it was sent and is refused with 400 `Malformed`; a stream that was read by something
 *   else and left nothing answers 500 `BodyUnavailable`, so that the platform delivers again once the
 *   route is fixed.
 *
 * @example
 * import { createServer } from "node:http"
 * const processor = Webhooks.handler({
 *   publicKey: process.env.SITE_PUBLIC_KEY!,
 *   handlers: { [DataEventTypes.itemCreated]: (event) => Effect.log(event.entityId) }
 * })
 * createServer(Webhooks.toNodeHandler(processor)).listen(3000)
 */
export function toNodeHandler<T extends EventType>(processor: Processor<T, never>): (request: NodeRequest, response: NodeResponse) => Promise<void>
export function toNodeHandler<T extends EventType, R>(processor: Processor<T, R>, runner: Runner<R>): (request: NodeRequest, response: NodeResponse) => Promise<void>
export function toNodeHandler<T extends EventType, R>(processor: Processor<T, R>, runner?: Runner<R>): (request: NodeRequest, response: NodeResponse) => Promise<void> {
  const run = runWith(runner)
  return async (request, response) => {
    const respond = (answer: Answer, headers?: Record<string, string>) => {
      const text = JSON.stringify(answer.body)
      response.writeHead(answer.status, { "content-type": "application/json", "content-length": String(encoder.encode(text).byteLength), ...headers })
      response.end(text)
    }
    try {
      if (request.method !== "POST") return respond(methodNotAllowed, { allow: "POST" })
      const body = await readNodeBody(request, processor.maxBodyBytes)
      switch (body._tag) {
        case "TooLarge":
          return respond(tooLarge(processor.maxBodyBytes))
        case "Unreadable":
          return respond(unreadable)
        case "Parsed":
          return respond(parsedBody)
        case "Consumed":
          return respond(consumedBody)
        case "Text":
          return respond(await outcomeOf(processor, run, body.text))
      }
    } catch {
      // a response that can no longer be written (the client went away) has no one to tell
      try {
        respond(internal)
      } catch {
        // nothing more to do
      }
    }
  }
}

/**
 * A POST route for an Effect `HttpRouter` serving the processor at `path`; the handlers' services come
 * from the server's environment.
 *
 * @example
 * import * as NodeHttpServer from "@effect/platform-node/NodeHttpServer"
 * import * as NodeRuntime from "@effect/platform-node/NodeRuntime"
 * import * as HttpRouter from "effect/http/HttpRouter"
 * import { createServer } from "node:http"
 * declare const otherRoutes: Layer.Layer<never, never, HttpRouter.HttpRouter>
 * const processor = Webhooks.handler({
 *   publicKey: process.env.SITE_PUBLIC_KEY!,
 *   handlers: { [DataEventTypes.itemCreated]: (event) => Effect.log(event.entityId) }
 * })
 * const Routes = Layer.mergeAll(Webhooks.route("/webhooks", processor), otherRoutes)
 * HttpRouter.serve(Routes).pipe(
 *   Layer.provide(NodeHttpServer.layer(createServer, { port: 3000 })),
 *   Layer.launch,
 *   NodeRuntime.runMain
 * )
 */
export const route = <T extends EventType, R>(
  path: HttpRouter.PathInput,
  processor: Processor<T, R>
): Layer.Layer<never, never, HttpRouter.HttpRouter | HttpRouter.Request.From<"Requires", Exclude<R, HttpRouter.Provided>>> =>
  HttpRouter.add(
    "POST",
    path,
    Effect.gen(function*() {
      const request = yield* HttpServerRequest.HttpServerRequest
      const max = processor.maxBodyBytes
      const reply = (answer: Answer) => HttpServerResponse.jsonUnsafe(answer.body, { status: answer.status })
      if (Number(request.headers["content-length"] ?? "0") > max) return reply(tooLarge(max))
      const read = yield* request.arrayBuffer.pipe(
        Effect.provideService(HttpIncomingMessage.MaxBodySize, ByteSize.bytes(max)),
        Effect.result
      )
      if (read._tag === "Failure") {
        const e = read.failure
        return e.reason._tag === "RequestParseError" && e.reason.reason === "BodyTooLarge"
          ? reply(tooLarge(max))
          : reply({ status: 400, body: { error: "Malformed", message: "The request body could not be read" } })
      }
      const exit = yield* Effect.exit(processor.process(utf8.decode(read.success)))
      return reply(answerOf(exit))
    })
  )
