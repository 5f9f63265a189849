/**
 * Reading the local platform's event log in-process (tests built on `layerWithCore` of src/server/LocalPlatform.ts): a
 * mark before some writes, then the events logged since, each with its envelope and payload parsed as
 * a receiver would see them.
 */
import * as Effect from "effect/Effect"
import type { DomainEvent, EventEnvelope, Identity } from "../../src/events/protocol.ts"
import { decodeEnvelopeText } from "../../src/events/Event.ts"
import { SiteEvents } from "../../src/server/store/SiteEvents.ts"
import { layerWithCore } from "../../src/server/LocalPlatform.ts"

export interface LoggedEvent {
  readonly id: number
  readonly type: string
  readonly envelope: EventEnvelope
  /** The envelope's `data`: a DomainEvent for domain types, the event's own body otherwise. */
  readonly payload: any
  readonly identity: Identity
}

/** The id of the newest logged event: pass it to {@link loggedSince} after the writes. */
export const logMark = Effect.gen(function*() {
  return (yield* SiteEvents).lastId()
})

/** Every event logged after `mark`, oldest first (fails the test when they are no longer kept). */
export const loggedSince = (mark: number) =>
  Effect.gen(function*() {
    const events = (yield* SiteEvents).after(mark)
    if (events === undefined) return yield* Effect.die(new Error(`the events after ${mark} are no longer kept`))
    return events.map((e): LoggedEvent => {
      const envelope = JSON.parse(e.json) as EventEnvelope
      return { id: e.id, type: e.type, envelope, payload: JSON.parse(envelope.data), identity: JSON.parse(envelope.identity ?? "null") as Identity }
    })
  })

/** The domain event of a logged event of a domain type. */
export const domainOf = (e: LoggedEvent): DomainEvent => e.payload as DomainEvent

/** The events logged after `from`, decoded as sitefx's typed events. */
export const decodedSince = (from: number) =>
  Effect.gen(function*() {
    const log = yield* SiteEvents
    const out = []
    for (const e of log.after(from) ?? []) out.push(yield* decodeEnvelopeText(e.json))
    return out
  })
