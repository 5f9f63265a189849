/**
 * The site's events live, as server-sent events (an API key): every event the log takes, or those of
 * the `eventType`s asked for, each frame with its id, type and envelope. A client that lost its
 * connection sends `Last-Event-ID` (or `?lastEventId=`) and gets what it missed first, then the live
 * events, none twice; when what it missed is no longer kept it gets 410 `EVENTS_EXPIRED` instead of a
 * stream with a hole in it. The public key receivers verify webhooks with is served to anyone.
 */
import * as Effect from "effect/Effect"
import * as HttpRouter from "effect/http/HttpRouter"
import * as HttpServerResponse from "effect/http/HttpServerResponse"
import * as Stream from "effect/Stream"
import { EventPaths } from "../../events/protocol.ts"
import { Callers } from "../accounts/Callers.ts"
import { application, invalidField, replyJson } from "../platform/responses.ts"
import { header, query, route } from "../platform/routing.ts"
import { type SiteEvent, SiteEvents } from "../store/SiteEvents.ts"
import { SiteKeys } from "./SiteKeys.ts"

export const streamRoutes = HttpRouter.addAll(Effect.gen(function*() {
  const callers = yield* Callers
  const events = yield* SiteEvents
  const keys = yield* SiteKeys

  const stream = Effect.gen(function*() {
    yield* callers.admin
    const params = yield* query
    const types = params.getAll("eventType")
    if (types.length > MAX_TYPES) return yield* invalidField("eventType", `A stream names at most ${MAX_TYPES} event types`, "MAX_SIZE", { max: MAX_TYPES })
    if (types.some((t) => t === "" || t.length > 200)) return yield* invalidField("eventType", "An event type is 1 to 200 characters", "FORMAT")
    const wanted = new Set(types)
    const resume = (yield* header("last-event-id")) ?? params.get("lastEventId") ?? undefined
    let from: number | undefined
    if (resume !== undefined) {
      from = /^\d{1,15}$/.test(resume.trim()) ? Number(resume.trim()) : Number.NaN
      if (!Number.isSafeInteger(from)) return yield* invalidField("Last-Event-ID", "The last event id is a whole number", "FORMAT")
      if (events.after(from) === undefined) {
        return yield* application(410, "EVENTS_EXPIRED", `Events after ${from} are no longer kept; read the current state and start a new stream`)
      }
    }
    const body = Stream.unwrap(Effect.gen(function*() {
      // subscribe first, then read what was missed: an event logged in between comes twice and is sent once
      const subscription = yield* events.subscribe
      let sent = from ?? events.lastId()
      const missed = from === undefined ? [] : events.after(from) ?? []
      /** The frames of events not sent yet that the stream asked for, as one chunk (none when there are none). */
      const onward = (events: ReadonlyArray<SiteEvent>): ReadonlyArray<Uint8Array> => {
        let text = ""
        for (const e of events) {
          if (e.id <= sent) continue
          sent = e.id
          if (wanted.size === 0 || wanted.has(e.type)) text += frame(e)
        }
        return text === "" ? [] : [encoder.encode(text)]
      }
      const live = Stream.concat(Stream.make(missed), Stream.fromSubscription(subscription).pipe(Stream.map((batch) => batch.events))).pipe(
        Stream.flatMap((events) => Stream.fromIterable(onward(events)))
      )
      const heartbeat = Stream.tick(`${HEARTBEAT_SECONDS} seconds`).pipe(Stream.map(() => encoder.encode(": keep-alive\n\n")))
      // the position the stream starts from, as an event id without data: a client cut off before its
      // first event resumes from here, not from whatever is new when it comes back
      return Stream.concat(Stream.make(encoder.encode(`retry: 1000\nid: ${sent}\n: connected\n\n`)), Stream.merge(live, heartbeat))
    }))
    return HttpServerResponse.stream(body, {
      contentType: "text/event-stream",
      headers: { "cache-control": "no-store", "x-accel-buffering": "no" }
    })
  })

  return [
    route("GET", EventPaths.stream, stream),
    route("GET", EventPaths.publicKey, Effect.sync(() => replyJson(JSON.stringify({ publicKey: keys.publicKeyPem() }))))
  ]
}))

/** Seconds between the comments that keep an idle stream's connection open through proxies. */
export const HEARTBEAT_SECONDS = 15

/** Event types one stream may name. */
const MAX_TYPES = 100

const encoder = new TextEncoder()

const frame = (e: SiteEvent) => `id: ${e.id}\nevent: ${e.type}\ndata: ${e.json}\n\n`
