/**
 * Guards of the local platform's dev answers (`/_sitefx/*`): sitefx/dev checks what the platform says
 * with these rather than with the wire Schemas of ../wire/platform.ts, which the platform itself keeps
 * (it decodes requests with them and answers through them), so a page that calls the dev endpoints,
 * the platform's console first, carries no Schema. The members' guards are in ./members.ts and the
 * webhooks' in ./webhooks.ts, so a page carries only those of the calls it makes.
 * test/dev/guards.test.ts holds each guard's type to its Schema's.
 */
import { CATALOG_VERSIONS } from "../../catalog/protocol.ts"
import * as G from "../../http/guard.ts"
import { Rule } from "../../http/rule.ts"

const str = G.string
const num = G.number
const opt = G.optional

/** `true`, and nothing else: the `ok` of the answers that have nothing more to say. */
const yes: G.Guard<true> = (u) => (u === true ? undefined : ": expected true")

/** One of these numbers. */
const numbers = <const L extends ReadonlyArray<number>>(values: L): G.Guard<L[number]> => {
  const wrong = `: expected one of ${values.join(", ")}`
  return (u) => (values.includes(u as number) ? undefined : wrong)
}

export const SiteSettings = G.struct({
  captcha: G.boolean,
  emailVerification: G.boolean,
  ownerApproval: G.boolean,
  mfaRequired: G.boolean,
  accessTokenTtlSeconds: num,
  catalogVersion: G.literals(CATALOG_VERSIONS)
})

export const OutboxMessage = G.struct({
  id: str,
  to: str,
  kind: G.literals(["EMAIL_VERIFICATION", "MFA_CODE", "RECOVERY", "ACTIVATION"]),
  subject: str,
  body: str,
  code: opt(str),
  link: opt(str),
  token: opt(str),
  createdDate: str
})
export const OutboxResponse = G.struct({ messages: G.array(OutboxMessage) })

export const ClockResponse = G.struct({ skewSeconds: num, now: str })
export const ProfileState = G.struct({
  profile: G.literals(["none", "production"]),
  plan: G.literals(["free", "premium", "elite"]),
  rateLimit: num,
  rateLimitWindowSeconds: num,
  scanRowsPerSecond: num
})
export const CaptchaResponse = G.struct({ token: str })
export const StatsResponse = G.struct({
  tokenRequests: G.struct({ anonymous: num, refresh_token: num, authorization_code: num, authorized_client: num }),
  requests: num
})

export const PendingFault = G.struct({
  id: str,
  path: str,
  method: opt(str),
  kind: opt(G.literals(["status", "latency", "reset", "truncate", "slow"])),
  status: opt(numbers([429, 500, 502, 503, 504])),
  retryAfter: opt(num),
  when: opt(G.literals(["before", "after"])),
  ms: opt(num),
  count: opt(num),
  rate: opt(num),
  seed: opt(num),
  hits: num
})
export const AddedFault = G.struct({ ok: yes, fault: PendingFault })
export const FaultsResponse = G.struct({ faults: G.array(PendingFault) })

export const Health = G.struct({ ok: yes })
export const SiteConnection = G.struct({ clientId: str, siteId: str, apiKey: str })

export const Snapshot = G.struct({
  name: str,
  format: G.literals(["sitefx-snapshot"]),
  formatVersion: num,
  sitefxVersion: str,
  createdDate: str,
  migrations: G.array(str),
  counts: G.struct({ members: num, collections: num, items: num, products: num, orders: opt(num), events: num }),
  sizeBytes: num
})
export const SnapshotsResponse = G.struct({ snapshots: G.array(Snapshot) })
export const SnapshotResponse = G.struct({ snapshot: Snapshot })
export const RestoreSnapshotResponse = G.struct({ snapshot: Snapshot, tookMs: num })

export const RequestRecord = G.struct({
  seq: num,
  time: str,
  method: str,
  path: str,
  status: num,
  durationMs: num,
  caller: G.struct({ kind: G.literals(["none", "visitor", "member", "admin"]), id: opt(str) }),
  rule: opt(Rule),
  code: opt(str),
  advice: opt(G.struct({ collection: str, fields: G.array(str), rowsScanned: num }))
})
export const RequestsResponse = G.struct({ requests: G.array(RequestRecord), last: num })
