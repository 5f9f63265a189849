/**
 * How a request meets the fault that fired for it (see Faults.ts): a status answered in place of the
 * route, a delay before it, a connection reset before or after it ran, an answer cut short, or one sent
 * slowly. The connection is reached through the Node request under the Effect one; once it is destroyed
 * the server finds its response destroyed and writes nothing, and the request's fiber is interrupted.
 */
import * as Effect from "effect/Effect"
import * as HttpServerRequest from "effect/http/HttpServerRequest"
import * as HttpServerResponse from "effect/http/HttpServerResponse"
import * as Stream from "effect/Stream"
import { toIncomingMessage, toServerResponse } from "@effect/platform-node/NodeHttpServerRequest"
import type { Socket } from "node:net"
import { CurrentRequestNote, refusal } from "../platform/requestNote.ts"
import { type FiredFault, statusAnswer } from "./Faults.ts"

/** The most pieces a slow answer is sent in. */
const SLOW_PIECES = 20

type Answer = HttpServerResponse.HttpServerResponse

const socketOf = (request: HttpServerRequest.HttpServerRequest): Socket | undefined => {
  const socket = toIncomingMessage(request).socket
  return socket === null ? undefined : (socket as Socket)
}

/** Resets the connection (an RST where the platform can send one) and marks the response destroyed, so the server writes nothing. */
const reset = (request: HttpServerRequest.HttpServerRequest) =>
  Effect.sync(() => {
    const socket = socketOf(request)
    if (socket !== undefined && !socket.destroyed) {
      if (typeof socket.resetAndDestroy === "function") socket.resetAndDestroy()
      else socket.destroy()
    }
    toServerResponse(request).destroy()
  })

/** Closes the connection once what was written has gone out, so the client reads it and then the end. */
const closeAfterFlush = (request: HttpServerRequest.HttpServerRequest) =>
  Effect.callback<void>((resume) => {
    const socket = socketOf(request)
    if (socket === undefined || socket.destroyed) return resume(Effect.void)
    socket.write(new Uint8Array(0), () => {
      socket.destroy()
      resume(Effect.void)
    })
  })

const noted = (fired: FiredFault, status: number | undefined, ruleStatus: number) =>
  Effect.map(CurrentRequestNote, (note) => {
    if (note !== undefined) note.fault = { rule: fired.rule(ruleStatus), status }
  })

/** The answer's body as bytes, when it has a known length; undefined for a streamed one. */
const bodyBytes = (response: Answer): Uint8Array | undefined => {
  switch (response.body._tag) {
    case "Uint8Array":
      return response.body.body
    case "Empty":
      return new Uint8Array(0)
    default:
      return undefined
  }
}

/** The answer with its body sent as `stream` under the full body's content length (`length`). */
const restream = (response: Answer, stream: Stream.Stream<Uint8Array>, length: number | undefined): Answer =>
  HttpServerResponse.stream(stream, {
    status: response.status,
    statusText: response.statusText,
    headers: response.headers,
    cookies: response.cookies,
    contentType: response.body._tag === "Empty" ? undefined : response.body.contentType,
    contentLength: length
  })

/** The headers and about half the body, then the connection closed (a streamed answer: its first piece). */
const truncated = (request: HttpServerRequest.HttpServerRequest, response: Answer): Answer => {
  const bytes = bodyBytes(response)
  const cut = Stream.fromEffectDrain(Effect.andThen(closeAfterFlush(request), Effect.never))
  if (bytes === undefined) {
    if (response.body._tag !== "Stream") return response
    return restream(response, Stream.concat(Stream.take(response.body.stream.pipe(Stream.orDie), 1), cut), undefined)
  }
  const half = bytes.subarray(0, Math.floor(bytes.length / 2))
  return restream(response, Stream.concat(Stream.make(half), cut), bytes.length)
}

/** The body in small pieces spread over `ms`, headers first (a streamed answer goes out as it is). */
const slowed = (request: HttpServerRequest.HttpServerRequest, response: Answer, ms: number): Answer => {
  const bytes = bodyBytes(response)
  if (bytes === undefined) return response
  const pieces = Math.max(1, Math.min(bytes.length, SLOW_PIECES))
  const size = Math.ceil(bytes.length / pieces)
  const gap = ms / pieces
  const flushHeaders = Stream.fromEffectDrain(Effect.sync(() => {
    const res = toServerResponse(request)
    if ("flushHeaders" in res) res.flushHeaders()
  }))
  const body = Stream.range(0, pieces - 1).pipe(
    Stream.mapEffect((i) => Effect.as(Effect.sleep(gap), bytes.subarray(i * size, Math.min(bytes.length, (i + 1) * size))))
  )
  return restream(response, Stream.concat(flushHeaders, body), bytes.length)
}

/** The request answered as `fired` says, `app` being the route. */
export const faultedAnswer = <E, R>(fired: FiredFault, app: Effect.Effect<Answer, E, R>): Effect.Effect<Answer, E, R | HttpServerRequest.HttpServerRequest> =>
  Effect.gen(function*() {
    const request = yield* HttpServerRequest.HttpServerRequest
    switch (fired.kind) {
      case "status": {
        // the body is read anyway, so the client's upload completes before the refusal arrives
        yield* Effect.ignore(request.text)
        return yield* refusal(statusAnswer(fired))
      }
      case "latency": {
        yield* Effect.sleep(fired.request.ms ?? 0)
        const response = yield* app
        yield* noted(fired, undefined, response.status)
        return response
      }
      case "reset": {
        if (fired.request.when === "after") yield* app
        yield* noted(fired, 0, 0)
        yield* reset(request)
        // nothing is written to a destroyed response; the status 0 is what the server's own log line shows
        return HttpServerResponse.empty({ status: 0 })
      }
      case "truncate": {
        const response = yield* app
        yield* noted(fired, undefined, response.status)
        return truncated(request, response)
      }
      case "slow": {
        const response = yield* app
        yield* noted(fired, undefined, response.status)
        return slowed(request, response, fired.request.ms ?? 0)
      }
    }
  })
