/**
 * The event envelope on the wire, as sitefx's events client reads it: the envelope a webhook's claim
 * `data` and each live-stream frame carry, who caused the event, and a domain event's payload. The local
 * platform writes the stricter shapes of `../protocol.ts` (no nulls, a domain event's id always set);
 * these take what the platform may also send: nulls for absent parts, an entity's event sequence as a
 * number, a domain event whose id comes from its carrier.
 */
import * as Schema from "effect/Schema"
import { nullable, opt } from "../../catalog/wire/common.ts"
import { IDENTITY_TYPES } from "../protocol.ts"

/** Who caused an event (JSON text inside the envelope). */
export const Identity = Schema.Struct({
  identityType: Schema.Literals(IDENTITY_TYPES),
  anonymousVisitorId: opt(Schema.String),
  memberId: opt(Schema.String),
  wixUserId: opt(Schema.String),
  appId: opt(Schema.String)
})
export type Identity = typeof Identity.Type

/** The account and site an event belongs to. */
export const AccountInfo = Schema.Struct({
  accountId: nullable(Schema.String),
  parentAccountId: nullable(Schema.String),
  siteId: nullable(Schema.String)
})

/** The envelope: the event's type and site, its payload and identity as JSON text, and the account. */
export const Envelope = Schema.Struct({
  eventType: Schema.String,
  instanceId: Schema.String,
  data: Schema.String,
  identity: nullable(Schema.String),
  accountInfo: nullable(AccountInfo)
})
export type Envelope = typeof Envelope.Type

/** The payload of a domain event (`wix.*` types): one entity created, updated, deleted, or acted upon. */
export const DomainPayload = Schema.Struct({
  id: opt(Schema.String),
  entityFqdn: Schema.String,
  slug: Schema.String,
  entityId: Schema.String,
  eventTime: Schema.String,
  triggeredByAnonymizeRequest: opt(Schema.Boolean),
  entityEventSequence: opt(Schema.Union([Schema.String, Schema.Number])),
  createdEvent: nullable(Schema.Struct({ entity: Schema.Unknown })),
  updatedEvent: nullable(Schema.Struct({ currentEntity: Schema.Unknown, modifiedFields: nullable(Schema.Record(Schema.String, Schema.Unknown)) })),
  deletedEvent: nullable(Schema.Struct({ deletedEntity: Schema.Unknown })),
  actionEvent: nullable(Schema.Struct({ body: Schema.Unknown }))
})
export type DomainPayload = typeof DomainPayload.Type
