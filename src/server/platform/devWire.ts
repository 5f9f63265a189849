/**
 * Wire shapes of the local platform's dev endpoints (`/_sitefx/*`): settings, outbox, clock, seeding,
 * captcha tokens, counters, member administration and injected faults. Tests and tools decode answers with these.
 */
import * as Schema from "effect/Schema"
import { CatalogVersion } from "../../catalog/wire/common.ts"
import { Identity } from "../../session/wire/index.ts"

export const SiteSettings = Schema.Struct({
  captcha: Schema.Boolean,
  emailVerification: Schema.Boolean,
  ownerApproval: Schema.Boolean,
  mfaRequired: Schema.Boolean,
  accessTokenTtlSeconds: Schema.Int.check(Schema.isGreaterThanOrEqualTo(1)),
  /** Which store catalog the site has (what `GET /stores/v3/provision/version` answers). */
  catalogVersion: CatalogVersion
})
export type SiteSettings = typeof SiteSettings.Type

export const SiteSettingsPatch = Schema.Struct({
  captcha: Schema.optionalKey(Schema.Boolean),
  emailVerification: Schema.optionalKey(Schema.Boolean),
  ownerApproval: Schema.optionalKey(Schema.Boolean),
  mfaRequired: Schema.optionalKey(Schema.Boolean),
  accessTokenTtlSeconds: Schema.optionalKey(Schema.Int.check(Schema.isGreaterThanOrEqualTo(1))),
  catalogVersion: Schema.optionalKey(CatalogVersion)
})
export type SiteSettingsPatch = typeof SiteSettingsPatch.Type

export const OutboxKind = Schema.Literals(["EMAIL_VERIFICATION", "MFA_CODE", "RECOVERY", "ACTIVATION"])
export type OutboxKind = typeof OutboxKind.Type

export const OutboxMessage = Schema.Struct({
  id: Schema.String,
  to: Schema.String,
  kind: OutboxKind,
  subject: Schema.String,
  body: Schema.String,
  code: Schema.optionalKey(Schema.String),
  link: Schema.optionalKey(Schema.String),
  token: Schema.optionalKey(Schema.String),
  createdDate: Schema.String
})
export type OutboxMessage = typeof OutboxMessage.Type

export const OutboxResponse = Schema.Struct({ messages: Schema.Array(OutboxMessage) })

export const ClockRequest = Schema.Struct({ skewSeconds: Schema.Finite })
export const ClockResponse = Schema.Struct({ skewSeconds: Schema.Finite, now: Schema.String })

export const SeedName = Schema.Literals(["demo", "none"])
export type SeedName = typeof SeedName.Type
export const SeedRequest = Schema.Struct({ seed: SeedName })

export const CaptchaResponse = Schema.Struct({ token: Schema.String })

export const StatsResponse = Schema.Struct({
  tokenRequests: Schema.Struct({
    anonymous: Schema.Number,
    refresh_token: Schema.Number,
    authorization_code: Schema.Number,
    authorized_client: Schema.Number
  }),
  requests: Schema.Number
})

export const EnrollFactorRequest = Schema.Struct({
  type: Schema.Literals(["TOTP", "EMAIL", "SMS"]),
  phone: Schema.optionalKey(Schema.String)
})
export const EnrollFactorResponse = Schema.Struct({ factorId: Schema.String, secret: Schema.optionalKey(Schema.String) })

export const CallerKind = Schema.Literals(["visitor", "member", "admin"])
export const WhoAmI = Schema.Struct({
  kind: CallerKind,
  id: Schema.String,
  role: Schema.String,
  clientId: Schema.NullOr(Schema.String)
})

/** `POST /_sitefx/faults`: the next `count` requests under `path` answer `status` (with `retry-after` seconds). */
export const FaultRequest = Schema.Struct({
  path: Schema.String.check(Schema.isPattern(/^\//)),
  status: Schema.Literals([429, 502, 503, 504]),
  count: Schema.Int.check(Schema.isGreaterThanOrEqualTo(1)),
  retryAfter: Schema.optionalKey(Schema.Int.check(Schema.isGreaterThanOrEqualTo(0)))
})
export type FaultRequest = typeof FaultRequest.Type

export const Health = Schema.Struct({ ok: Schema.Literal(true) })
/** What a script needs to reach this site: `GET /_sitefx/site` (dev mode, scripts and allowed pages only). */
export const SiteConnection = Schema.Struct({ clientId: Schema.String, siteId: Schema.String, apiKey: Schema.String })
export const IdentityResponse = Schema.Struct({ identity: Identity })
export const IdentitiesResponse = Schema.Struct({ identities: Schema.Array(Identity) })
