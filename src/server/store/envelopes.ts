/**
 * The platform's event envelope, as the event log's decoders build it: who caused an event, the domain
 * event of one entity, and the envelope's JSON text around either kind of payload. The data engine and
 * the catalog each decode their own log entries with these.
 */
import type { DomainEvent, EventEnvelope, Identity } from "../../events/protocol.ts"
import type { Caller } from "../platform/Caller.ts"

/** The local site's account, as the envelope names it. */
export const LOCAL_ACCOUNT_ID = "sitefx-local-account"

/** The site id an envelope names before the site has one. */
export const NO_SITE_ID = "sitefx-local-site"

/** Who caused an event, as receivers see it: a visitor, a member, the site's owner (an API key), or nobody known. */
export const identityOf = (actor: Caller): Identity => {
  switch (actor.kind) {
    case "visitor":
      return { identityType: "ANONYMOUS_VISITOR", anonymousVisitorId: actor.id }
    case "member":
      return { identityType: "MEMBER", memberId: actor.id }
    case "admin":
      return { identityType: "WIX_USER", wixUserId: actor.keyId }
    case "none":
      return { identityType: "UNKNOWN" }
  }
}

/** What the log stamps on each event it keeps. */
export interface EventStamp {
  /** The event's id in the log. */
  readonly id: number
  /** The domain event's own id: a UUID that names this event of this database, the same at every read. */
  readonly uuid: string
  /** ISO time of the write that logged it. */
  readonly eventTime: string
  /** The site it happened on. */
  readonly siteId: string
}

/**
 * A {@link DomainEvent} as JSON text, with its change (`createdEvent`, ...) given as JSON text: an entity
 * the writer holds as text already goes in without being parsed and written again. `entityEventSequence`
 * is the log's event id: it grows with every event of the entity (and of every other), and keeps growing
 * across restarts and resets.
 */
export const domainEventText = (stamp: EventStamp, entityFqdn: string, entityId: string, slug: string, change: string, changeJson: string): string =>
  `{"id":${JSON.stringify(stamp.uuid)},"entityFqdn":${JSON.stringify(entityFqdn)},"slug":${JSON.stringify(slug)},"entityId":${JSON.stringify(entityId)},` +
  `"eventTime":${JSON.stringify(stamp.eventTime)},"triggeredByAnonymizeRequest":false,"entityEventSequence":"${stamp.id}",${JSON.stringify(change)}:${changeJson}}`

/**
 * The envelope's JSON text around a payload given as JSON text. The payload and the identity (JSON text
 * too, as a batch's events share it) are strings inside it, as the platform sends them.
 */
export const envelopeJson = (stamp: EventStamp, identity: string, eventType: string, data: string): string =>
  JSON.stringify(
    {
      eventType,
      instanceId: stamp.siteId,
      data,
      identity,
      accountInfo: { accountId: LOCAL_ACCOUNT_ID, siteId: stamp.siteId }
    } satisfies EventEnvelope
  )
