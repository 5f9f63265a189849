/**
 * Guards of the event envelope, of who caused an event, and of a domain event's payload; each guard's
 * type is its Schema's in `../wire/envelope.ts` (test/events/guards.test.ts).
 */
import { nullable, opt } from "../../catalog/guards/common.ts"
import * as G from "../../http/guard.ts"
import { IDENTITY_TYPES } from "../protocol.ts"

const str = G.string
const optStr = opt(G.string)

export const AccountInfo = G.struct({ accountId: nullable(str), parentAccountId: nullable(str), siteId: nullable(str) })

export const Envelope = G.struct({
  eventType: str,
  instanceId: str,
  data: str,
  identity: nullable(str),
  accountInfo: nullable(AccountInfo)
})

export const Identity = G.struct({
  identityType: G.literals(IDENTITY_TYPES),
  anonymousVisitorId: optStr,
  memberId: optStr,
  wixUserId: optStr,
  appId: optStr
})

export const DomainPayload = G.struct({
  id: optStr,
  entityFqdn: str,
  slug: str,
  entityId: str,
  eventTime: str,
  triggeredByAnonymizeRequest: opt(G.boolean),
  entityEventSequence: opt(G.union(G.string, G.number)),
  createdEvent: nullable(G.struct({ entity: G.unknown })),
  updatedEvent: nullable(G.struct({ currentEntity: G.unknown, modifiedFields: nullable(G.object) })),
  deletedEvent: nullable(G.struct({ deletedEntity: G.unknown })),
  actionEvent: nullable(G.struct({ body: G.unknown }))
})

