/**
 * A site's events as they happen: `Events.live` is a Stream of the events the platform logs, read from
 * its live stream (server-sent events, an API key). When the connection drops it reconnects with the
 * id of the last event it gave you, so the platform sends what was missed first: nothing is lost and
 * nothing comes twice. It fails with a {@link LiveError} when it cannot go on, its `reason` saying why:
 * the key is refused (`Unauthorized`), the missed events are no longer kept (`Expired`: read the current
 * state and start again), or the platform stays unreachable through every retry (`Unreachable`).
 *
 * @example
 * import * as Events from "sitefx/events"
 * yield* Events.live({ eventTypes: ["wix.data.v2.data_item_created"] }).pipe(
 *   Stream.runForEach((e) => Effect.log(e.type, e.id))
 * )
 */
import * as Data from "effect/Data"
import * as Effect from "effect/Effect"
import * as Stream from "effect/Stream"
import { PlatformAuth } from "../http/PlatformClient.ts"
import { PlatformConfig } from "../http/PlatformConfig.ts"
import { PlatformFetch } from "../http/PlatformHttp.ts"
import { retryAttributes } from "../http/retry.ts"
import { decodeEnvelope, type SiteEvent } from "./Event.ts"
import { type EventEnvelope, EventPaths } from "./protocol.ts"
import { Expired, type LiveErrorReason, Malformed, Refused, Unauthorized, Unreachable } from "./reasons.ts"

export type { LiveErrorReason }

/** One event of the stream: its id (what a later stream resumes from), type, envelope, and the event decoded. */
export interface LiveEvent {
  readonly id: string
  readonly type: string
  readonly envelope: EventEnvelope
  /** The typed event; undefined for an event type sitefx does not know (the envelope still has it). */
  readonly event: SiteEvent | undefined
}

/**
 * The live stream stopped; `reason` says why: refused credentials (`Unauthorized`), an expired resume point
 * (`Expired`), another refusal (`Refused`), an unreachable platform (`Unreachable`), or a frame that is
 * not an event (`Malformed`).
 */
export class LiveError extends Data.TaggedError("LiveError")<{ readonly reason: LiveErrorReason }> {
  override get message(): string {
    return this.reason.message
  }

  /** The HTTP status of the platform's refusal, when it answered one. */
  get status(): number | undefined {
    return "status" in this.reason ? this.reason.status : undefined
  }

  /** The last event id the stream gave, to resume from with a new stream. */
  get lastEventId(): string | undefined {
    return "lastEventId" in this.reason ? this.reason.lastEventId : undefined
  }
}

const stopped = (reason: LiveErrorReason) => new LiveError({ reason })

/** Which events the live stream gives, where it starts, and how it reconnects. */
export interface LiveOptions {
  /** Only these event types (all when absent). */
  readonly eventTypes?: ReadonlyArray<string>
  /** Start after this event id (from an earlier stream) rather than with the events from now on. */
  readonly lastEventId?: string
  /** Reconnection: attempts in a row without an event before giving up (default 8), first wait (default 250 ms), longest wait (default 10 s). */
  readonly reconnect?: { readonly attempts?: number; readonly baseMillis?: number; readonly maxMillis?: number }
  /**
   * A connection that brings nothing, not even the platform's keep-alive comment (every 15 s), for this
   * long is taken for dead and replaced (default 45 000 ms): a connection a network silently dropped
   * would otherwise wait forever.
   */
  readonly idleMillis?: number
}

interface Frame {
  id?: string
  event?: string
  data: Array<string>
}

/** Splits server-sent event text into frames; returns the unfinished rest. */
const parseFrames = (text: string, emit: (frame: Frame) => void): string => {
  let rest = text
  for (;;) {
    const end = rest.search(/\r?\n\r?\n/)
    if (end < 0) return rest
    const block = rest.slice(0, end)
    rest = rest.slice(end + (rest[end] === "\r" ? 4 : 2))
    const frame: Frame = { data: [] }
    for (const line of block.split(/\r?\n/)) {
      if (line === "" || line.startsWith(":")) continue
      const colon = line.indexOf(":")
      const field = colon < 0 ? line : line.slice(0, colon)
      const value = colon < 0 ? "" : line.slice(colon + 1).replace(/^ /, "")
      if (field === "data") frame.data.push(value)
      else if (field === "id") frame.id = value
      else if (field === "event") frame.event = value
    }
    // a frame with an id and no data moves the resume point without an event (the platform's first frame)
    if (frame.data.length > 0 || frame.id !== undefined) emit(frame)
  }
}

const sleep = (ms: number, signal: AbortSignal) =>
  new Promise<void>((resolve) => {
    const timer = setTimeout(resolve, ms)
    signal.addEventListener("abort", () => {
      clearTimeout(timer)
      resolve()
    }, { once: true })
  })

/**
 * The site's events from now on (or after `lastEventId`), reconnecting without loss.
 *
 * @example
 * import * as Events from "sitefx/events"
 * declare const lastHandled: string // the id of the last event handled, kept across runs
 * yield* Events.live({ eventTypes: [Events.DataEventTypes.itemCreated, Events.DataEventTypes.itemUpdated], lastEventId: lastHandled }).pipe(
 *   Stream.runForEach((e) => (e.event?._tag === "Domain" ? Effect.log(e.id, e.type, e.event.entityId) : Effect.void)),
 *   Effect.catchReason("LiveError", "Expired", () => Effect.log("too much was missed: read the current state, then start again"))
 * )
 */
export const live = (options: LiveOptions = {}): Stream.Stream<LiveEvent, LiveError, PlatformAuth | PlatformConfig> =>
  Stream.unwrap(Effect.gen(function*() {
    const auth = yield* PlatformAuth
    const config = yield* PlatformConfig
    const fetch = yield* PlatformFetch
    const attempts = options.reconnect?.attempts ?? 8
    const base = options.reconnect?.baseMillis ?? 250
    const max = options.reconnect?.maxMillis ?? 10_000
    const query = (options.eventTypes ?? []).map((t) => `eventType=${encodeURIComponent(t)}`).join("&")
    const url = `${config.apiUrl}${EventPaths.stream}${query === "" ? "" : `?${query}`}`
    const idleMillis = options.idleMillis ?? 45_000
    // each reconnection is told as a retry on the span the stream runs in, when it runs in one
    const span = yield* Effect.exit(Effect.currentSpan)
    const told = (attempt: number, delay: number, problem: string) => {
      const attributes = retryAttributes({ method: "GET", path: EventPaths.stream }, attempt, delay, { code: "TRANSPORT_ERROR", message: problem })
      if (span._tag === "Success") span.value.event("sitefx.retry", BigInt(Date.now()) * 1_000_000n, attributes)
    }

    // aborted when the stream ends or is interrupted: a pending connection or read gives up at once
    const abort = new AbortController()
    async function* events(): AsyncGenerator<Omit<LiveEvent, "event">> {
      let lastId = options.lastEventId
      let failures = 0
      try {
        for (;;) {
          if (abort.signal.aborted) return
          let headers: Readonly<Record<string, string>>
          try {
            headers = await Effect.runPromise(auth.headers)
          } catch (e) {
            throw stopped(new Unauthorized({ message: `no credentials for the events stream: ${e instanceof Error ? e.message : String(e)}` }))
          }
          let response: Response | undefined
          let problem: string
          // this connection's own abort: the stream's end, or a watchdog that sees nothing come for idleMillis
          const connection = new AbortController()
          const stop = () => connection.abort()
          abort.signal.addEventListener("abort", stop, { once: true })
          let idle = false
          let watchdog: ReturnType<typeof setTimeout> | undefined
          const watch = () => {
            clearTimeout(watchdog)
            watchdog = setTimeout(() => {
              idle = true
              connection.abort()
            }, idleMillis)
          }
          // the watchdog and the connection end with the connection, also when the consumer stops early
          try {
            watch()
            try {
              response = await fetch(url, {
                headers: { ...headers, accept: "text/event-stream", ...(lastId === undefined ? {} : { "last-event-id": lastId }) },
                signal: connection.signal
              })
            } catch (e) {
              problem = idle ? `nothing came for ${idleMillis} ms` : e instanceof Error ? e.message : String(e)
            }
            if (response !== undefined) {
              const status = response.status
              if (status === 401 || status === 403) {
                await response.body?.cancel()
                throw stopped(new Unauthorized({ message: `the events stream refused the credentials (${status})`, status, ...(lastId === undefined ? {} : { lastEventId: lastId }) }))
              }
              if (status === 410) {
                await response.body?.cancel()
                throw stopped(new Expired({ message: `the events after ${lastId ?? "the start"} are no longer kept`, status, ...(lastId === undefined ? {} : { lastEventId: lastId }) }))
              }
              if (status >= 400 && status < 500 && status !== 408 && status !== 429) {
                const text = await response.text()
                throw stopped(new Refused({ message: `the events stream answered ${status}: ${text.slice(0, 200)}`, status }))
              }
              if (status === 200 && response.body !== null) {
                const reader = response.body.pipeThrough(new TextDecoderStream()).getReader()
                let buffer = ""
                const ready: Array<Omit<LiveEvent, "event">> = []
                try {
                  for (;;) {
                    const { done, value } = await reader.read()
                    if (done) break
                    watch()
                    buffer = parseFrames(buffer + value, (frame) => {
                      if (frame.data.length === 0) {
                        if (frame.id !== undefined && frame.id !== "") lastId = frame.id
                        return
                      }
                      let envelope: EventEnvelope
                      try {
                        envelope = JSON.parse(frame.data.join("\n")) as EventEnvelope
                      } catch {
                        throw stopped(new Malformed({ message: "an event's data is not JSON" }))
                      }
                      ready.push({ id: frame.id ?? "", type: frame.event ?? envelope.eventType, envelope })
                    })
                    for (const e of ready.splice(0)) {
                      if (e.id !== "") lastId = e.id
                      failures = 0
                      yield e
                    }
                  }
                  problem = "the events stream ended"
                } catch (e) {
                  if (e instanceof LiveError) throw e
                  problem = idle ? `nothing came for ${idleMillis} ms` : e instanceof Error ? e.message : String(e)
                } finally {
                  reader.releaseLock()
                }
              } else {
                problem = `the events stream answered ${status}`
                await response.body?.cancel()
              }
            }
          } finally {
            clearTimeout(watchdog)
            abort.signal.removeEventListener("abort", stop)
            connection.abort()
          }
          if (abort.signal.aborted) return
          failures++
          if (failures > attempts) {
            throw stopped(new Unreachable({ message: `${problem!} (${attempts} reconnections in a row failed)`, ...(lastId === undefined ? {} : { lastEventId: lastId }) }))
          }
          const wait = Math.min(max, base * 2 ** (failures - 1))
          const delay = wait / 2 + Math.random() * (wait / 2)
          told(failures, delay, problem!)
          await sleep(delay, abort.signal)
        }
      } finally {
        abort.abort()
      }
    }

    return Stream.fromAsyncIterable(events(), (e) =>
      e instanceof LiveError ? e : stopped(new Unreachable({ message: e instanceof Error ? e.message : String(e) }))).pipe(
        Stream.mapEffect((e) =>
          decodeEnvelope(e.envelope, e.id).pipe(
            Effect.map((event): LiveEvent => ({ ...e, event })),
            Effect.catch((error) =>
              error.reason._tag === "UnknownEventType"
                ? Effect.succeed<LiveEvent>({ ...e, event: undefined })
                : Effect.fail(stopped(new Malformed({ message: error.message, lastEventId: e.id })))
            )
          )
        ),
        Stream.ensuring(Effect.sync(() => abort.abort()))
      )
  }))
