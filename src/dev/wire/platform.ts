/**
 * Wire shapes of the local platform's dev endpoints (`/_sitefx/*`): settings, outbox, clock, seeding,
 * captcha tokens, counters, member administration, injected faults and the request log. Tests and
 * tools decode answers with these.
 */
import * as Schema from "effect/Schema"
import { CatalogVersion } from "../../catalog/wire/common.ts"
import { CallerRole, Rule } from "../../http/wire.ts"
import { Identity } from "../../session/wire/index.ts"

/** The site's switches, as `GET /_sitefx/settings` answers them: captcha, email verification, owner approval, MFA, the access token lifetime and the store catalog. */
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

/** `PATCH /_sitefx/settings`: the switches to change; those left out keep their value. */
export const SiteSettingsPatch = Schema.Struct({
  captcha: Schema.optionalKey(Schema.Boolean),
  emailVerification: Schema.optionalKey(Schema.Boolean),
  ownerApproval: Schema.optionalKey(Schema.Boolean),
  mfaRequired: Schema.optionalKey(Schema.Boolean),
  accessTokenTtlSeconds: Schema.optionalKey(Schema.Int.check(Schema.isGreaterThanOrEqualTo(1))),
  catalogVersion: Schema.optionalKey(CatalogVersion)
})
export type SiteSettingsPatch = typeof SiteSettingsPatch.Type

/** Why the platform sent a message: an email verification, an MFA code, an account recovery or an activation. */
export const OutboxKind = Schema.Literals(["EMAIL_VERIFICATION", "MFA_CODE", "RECOVERY", "ACTIVATION"])
export type OutboxKind = typeof OutboxKind.Type

/** A message the platform would have emailed or texted, kept so a test can read its code, link or token. */
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

/** `GET /_sitefx/outbox[?to=address]`: the messages sent, all or to one address. */
export const OutboxResponse = Schema.Struct({ messages: Schema.Array(OutboxMessage) })

/** `POST /_sitefx/clock`: how many seconds the platform's clock runs ahead (or behind, when negative), to expire tokens without waiting. */
export const ClockRequest = Schema.Struct({ skewSeconds: Schema.Finite })
/** The platform's clock: its skew in seconds and the time it reads now (ISO text). */
export const ClockResponse = Schema.Struct({ skewSeconds: Schema.Finite, now: Schema.String })

/** The site's plan, which sets how long a data call may run under the production profile. */
export const SitePlan = Schema.Literals(["free", "premium", "elite"])

/** A rate limit's window: more than 0 and at most a day, in seconds (fractions allowed). */
export const RateWindowSeconds = Schema.Finite.check(Schema.isGreaterThan(0), Schema.isLessThanOrEqualTo(86_400))

/**
 * `GET /_sitefx/profile`: whether the production profile is on, the plan, the rate limit (calls an API key
 * may make in each window of `rateLimitWindowSeconds`) and the scan rate standing for a data call's time.
 */
export const ProfileState = Schema.Struct({
  profile: Schema.Literals(["none", "production"]),
  plan: SitePlan,
  rateLimit: Schema.Int.check(Schema.isGreaterThanOrEqualTo(1)),
  rateLimitWindowSeconds: RateWindowSeconds,
  scanRowsPerSecond: Schema.Int.check(Schema.isGreaterThanOrEqualTo(1))
})
export type ProfileState = typeof ProfileState.Type

/** `POST /_sitefx/profile`: what to change; what is left out keeps its value. */
export const ProfileRequest = Schema.Struct({
  profile: Schema.optionalKey(Schema.Literals(["none", "production"])),
  plan: Schema.optionalKey(SitePlan),
  rateLimit: Schema.optionalKey(Schema.Int.check(Schema.isGreaterThanOrEqualTo(1))),
  rateLimitWindowSeconds: Schema.optionalKey(RateWindowSeconds),
  scanRowsPerSecond: Schema.optionalKey(Schema.Int.check(Schema.isGreaterThanOrEqualTo(1)))
})
export type ProfileRequest = typeof ProfileRequest.Type

/** What a seed creates: `demo` the site with a demo member, a demo store and demo data collections; `none` the site alone. */
export const SeedName = Schema.Literals(["demo", "none"])
export type SeedName = typeof SeedName.Type
/** `POST /_sitefx/seed`: the seed to apply (after `POST /_sitefx/reset`, for a fresh site). */
export const SeedRequest = Schema.Struct({ seed: SeedName })

/** `POST /_sitefx/captcha`: a captcha token the platform takes once, for a registration or login when captcha is on. */
export const CaptchaResponse = Schema.Struct({ token: Schema.String })

/** `GET /_sitefx/stats`: requests served, and token requests by grant type (a test counts refreshes with it). */
export const StatsResponse = Schema.Struct({
  tokenRequests: Schema.Struct({
    anonymous: Schema.Number,
    refresh_token: Schema.Number,
    authorization_code: Schema.Number,
    authorized_client: Schema.Number
  }),
  requests: Schema.Number
})

/** `POST /_sitefx/members/:id/factors`: an MFA factor to enroll for a member (an SMS factor needs a phone). */
export const EnrollFactorRequest = Schema.Struct({
  type: Schema.Literals(["TOTP", "EMAIL", "SMS"]),
  phone: Schema.optionalKey(Schema.String)
})
/** The enrolled factor's id, and for TOTP its secret (base32), to compute codes with. */
export const EnrollFactorResponse = Schema.Struct({ factorId: Schema.String, secret: Schema.optionalKey(Schema.String) })

/** Who a request's credentials make its caller: a visitor, a member, or an admin (an API key). */
export const CallerKind = Schema.Literals(["visitor", "member", "admin"])
/** `GET /_sitefx/whoami`: the caller the request's `Authorization` makes, with its id, role and OAuth client. */
export const WhoAmI = Schema.Struct({
  kind: CallerKind,
  id: Schema.String,
  role: Schema.String,
  clientId: Schema.NullOr(Schema.String)
})

/** What an injected fault does: answer a status, delay the request, reset the connection, cut the answer short, or send it slowly. */
export const FaultKind = Schema.Literals(["status", "latency", "reset", "truncate", "slow"])
export type FaultKind = typeof FaultKind.Type

/** The statuses a status fault answers: 429 (an application refusal) and system errors. */
export const FaultStatus = Schema.Literals([429, 500, 502, 503, 504])

/** The longest delay or slow answer a fault may ask for, in milliseconds (five minutes). */
export const MAX_FAULT_MS = 300_000

const faultFields = {
  /** The start of the paths it faults (it starts with `/`). */
  path: Schema.String.check(Schema.isPattern(/^\//, { message: "path is the start of a path: /wix-data" })),
  /** Only requests with this method (any case); any method when absent. */
  method: Schema.optionalKey(Schema.String.check(Schema.isPattern(/^[A-Za-z]{1,16}$/, { message: "method is an HTTP method such as GET" }))),
  /** `status` when absent. */
  kind: Schema.optionalKey(FaultKind),
  /** The status a `status` fault answers (required there, refused on other kinds). */
  status: Schema.optionalKey(FaultStatus),
  /** Seconds for the `Retry-After` header of a `status` fault. */
  retryAfter: Schema.optionalKey(Schema.Int.check(Schema.isGreaterThanOrEqualTo(0))),
  /** When a `reset` fault resets the connection: before the route runs (nothing changes) or after it ran (its writes stay). */
  when: Schema.optionalKey(Schema.Literals(["before", "after"])),
  /** `latency`: the delay before the route runs; `slow`: the time over which the answer's body goes out. */
  ms: Schema.optionalKey(Schema.Int.check(Schema.isBetween({ minimum: 0, maximum: MAX_FAULT_MS }, { message: `ms is a whole number from 0 to ${MAX_FAULT_MS}` }))),
  /** Faults the next `count` matching requests (with `rate`: at most `count` of them). */
  count: Schema.optionalKey(Schema.Int.check(Schema.isGreaterThanOrEqualTo(1, { message: "count is a whole number from 1" }))),
  /** Faults each matching request with this probability, drawn from a PRNG seeded with `seed`. */
  rate: Schema.optionalKey(Schema.Finite.check(Schema.makeFilter((r: number) => (r > 0 && r <= 1) || "rate is a probability above 0 and at most 1"))),
  /** The seed of the fault's draws (1 when absent): the same seed faults the same requests of a run. */
  seed: Schema.optionalKey(Schema.Int)
}

/** What is wrong with a fault's combination of fields, if anything. */
const faultProblem = (f: {
  readonly kind?: FaultKind
  readonly status?: number
  readonly retryAfter?: number
  readonly when?: string
  readonly ms?: number
  readonly count?: number
  readonly rate?: number
  readonly seed?: number
}): string | undefined => {
  const kind = f.kind ?? "status"
  if (f.count === undefined && f.rate === undefined) return "A fault needs a count, a rate, or both"
  if (f.seed !== undefined && f.rate === undefined) return "seed is for a fault with a rate"
  if (kind === "status" && f.status === undefined) return "A status fault needs a status: 429, 500, 502, 503 or 504"
  if (kind !== "status" && f.status !== undefined) return `status is for a status fault, not a ${kind} fault`
  if (kind !== "status" && f.retryAfter !== undefined) return `retryAfter is for a status fault, not a ${kind} fault`
  if (kind !== "reset" && f.when !== undefined) return `when is for a reset fault, not a ${kind} fault`
  if ((kind === "latency" || kind === "slow") && f.ms === undefined) return `A ${kind} fault needs ms`
  if (kind !== "latency" && kind !== "slow" && f.ms !== undefined) return `ms is for a latency or slow fault, not a ${kind} fault`
  return undefined
}

/**
 * `POST /_sitefx/faults`: a fault for requests under `path` (of `method`, when given): the next `count`
 * of them, or each with probability `rate` (seeded, so a run repeats), or both (at most `count`). A
 * `status` fault answers `status` (with `Retry-After` when given) and the route never runs; `latency`
 * delays the route by `ms`; `reset` destroys the connection `before` the route runs or `after` it ran;
 * `truncate` sends the answer's headers and about half its body, then destroys the connection; `slow`
 * sends the body in small pieces over `ms`. `{ path, status, count, retryAfter? }` is a status fault.
 */
export const FaultRequest = Schema.Struct(faultFields).check(Schema.makeFilter((f) => faultProblem(f) ?? true))
export type FaultRequest = typeof FaultRequest.Type

/** A fault still pending: what was asked, its `id`, its `count` of requests left (when counted) and the requests it has faulted (`hits`). */
export const PendingFault = Schema.Struct({ id: Schema.String, ...faultFields, hits: Schema.Int })
export type PendingFault = typeof PendingFault.Type
/** `POST /_sitefx/faults`: the fault as added. */
export const AddedFault = Schema.Struct({ ok: Schema.Literal(true), fault: PendingFault })
/** `GET /_sitefx/faults`: the faults still pending, in the order they were added. */
export const FaultsResponse = Schema.Struct({ faults: Schema.Array(PendingFault) })

/** `GET /_sitefx/health`, and the answer of dev calls that have nothing else to say: `{ ok: true }`. */
export const Health = Schema.Struct({ ok: Schema.Literal(true) })
/** What a script needs to reach this site: `GET /_sitefx/site` (dev mode, scripts and allowed pages only). */
export const SiteConnection = Schema.Struct({ clientId: Schema.String, siteId: Schema.String, apiKey: Schema.String })
/** A member's identity after a dev change (approve, block, require a password reset). */
export const IdentityResponse = Schema.Struct({ identity: Identity })
/** `GET /_sitefx/members[?email=address]`: the site's members' identities, all or the one with that email. */
export const IdentitiesResponse = Schema.Struct({ identities: Schema.Array(Identity) })

/** How much of each kind a snapshot holds. */
export const SnapshotCounts = Schema.Struct({
  members: Schema.Int,
  collections: Schema.Int,
  items: Schema.Int,
  products: Schema.Int,
  /** The store's orders (a snapshot saved before sitefx kept orders does not say). */
  orders: Schema.optionalKey(Schema.Int),
  events: Schema.Int
})

/** A saved snapshot of the platform's state: its name, its manifest and its size. */
export const Snapshot = Schema.Struct({
  name: Schema.String,
  format: Schema.Literal("sitefx-snapshot"),
  formatVersion: Schema.Int,
  sitefxVersion: Schema.String,
  createdDate: Schema.String,
  migrations: Schema.Array(Schema.String),
  counts: SnapshotCounts,
  sizeBytes: Schema.Int
})
export type Snapshot = typeof Snapshot.Type

/** `GET /_sitefx/snapshots`: the saved snapshots, oldest first. */
export const SnapshotsResponse = Schema.Struct({ snapshots: Schema.Array(Snapshot) })
/** `POST /_sitefx/snapshots`: saves the state under `name` (an existing name only with `overwrite`). */
export const SaveSnapshotRequest = Schema.Struct({ name: Schema.String, overwrite: Schema.optionalKey(Schema.Boolean) })
/** One snapshot (`POST /_sitefx/snapshots`, `GET /_sitefx/snapshots/:name`). */
export const SnapshotResponse = Schema.Struct({ snapshot: Snapshot })
/** `POST /_sitefx/snapshots/:name/restore`: the snapshot now in place, and how long the restore took. */
export const RestoreSnapshotResponse = Schema.Struct({ snapshot: Snapshot, tookMs: Schema.Finite })

/** Who made a logged request: its kind, and a member's or visitor's id or an API key's id (never a credential). */
export const RequestCaller = Schema.Struct({ kind: CallerRole, id: Schema.optionalKey(Schema.String) })

/** The index a data query needed: its collection, the fields its filter and sort read, and how many items it scanned. */
export const IndexAdvice = Schema.Struct({ collection: Schema.String, fields: Schema.Array(Schema.String), rowsScanned: Schema.Int })

/** One request the platform answered, as `GET /_sitefx/requests` lists it; a refusal carries its rule and code. */
export const RequestRecord = Schema.Struct({
  /** Increasing: a follower asks for what comes after the last it saw. */
  seq: Schema.Int,
  /** When the request arrived (ISO). */
  time: Schema.String,
  method: Schema.String,
  /** The path without its query string (which can carry codes and tokens). */
  path: Schema.String,
  status: Schema.Int,
  durationMs: Schema.Finite,
  caller: RequestCaller,
  rule: Schema.optionalKey(Rule),
  /** The application code of the answer, when it has one. */
  code: Schema.optionalKey(Schema.String),
  /** A data query that scanned more unindexed items than the plan's threshold: the collection, the fields to index, the items read. */
  advice: Schema.optionalKey(IndexAdvice)
})
export type RequestRecord = typeof RequestRecord.Type

/** `GET /_sitefx/requests`: the matching requests, oldest first, and the newest seq in the log (to follow on from). */
export const RequestsResponse = Schema.Struct({ requests: Schema.Array(RequestRecord), last: Schema.Int })
export type RequestsResponse = typeof RequestsResponse.Type

/** A number from a query parameter, from `min` to `max` (a whole one unless `fractions`), refused with `message`. */
const numberParam = (min: number, max: number, message: string, fractions = false) => {
  const between = Schema.FiniteFromString.annotate({ message }).check(Schema.isBetween({ minimum: min, maximum: max }, { message }))
  return fractions ? between : between.check(Schema.isInt({ message }))
}

/** The most requests one answer lists. */
export const MAX_REQUESTS_LIMIT = 1000
/** The longest a follower's request is held, in seconds. */
export const MAX_REQUESTS_WAIT = 30

/**
 * The query of `GET /_sitefx/requests`: `status` (`4xx`, `5xx`, `2xx` or an exact `404`), `caller`
 * (`visitor`, `member`, `admin`, `none`, or one caller: `member:<id>`, `admin:<keyId>`), `path` (a
 * prefix), `method`, `after` (a seq: only newer ones), `limit` (the newest this many, default 100),
 * `wait` (seconds to hold the request while nothing after `after` matches: a live tail), `dev`
 * (`true`: dev endpoint requests too) and `advice` (`true`: only requests with an index advice).
 */
export const RequestsQuery = Schema.Struct({
  status: Schema.optionalKey(
    Schema.String.check(Schema.isPattern(/^[1-5]([0-9]{2}|xx)$/, { message: "status is 2xx, 3xx, 4xx, 5xx or one status such as 404" }))
  ),
  caller: Schema.optionalKey(
    Schema.String.check(
      Schema.isPattern(/^(none|visitor|member|admin)(:.+)?$/, { message: "caller is visitor, member, admin or none, or one caller: member:<id>, admin:<key id>" })
    )
  ),
  path: Schema.optionalKey(Schema.String.check(Schema.isPattern(/^\//, { message: "path is the start of a path: /wix-data" }))),
  method: Schema.optionalKey(Schema.String.check(Schema.isPattern(/^[A-Za-z]{1,16}$/, { message: "method is an HTTP method such as GET" }))),
  after: Schema.optionalKey(numberParam(0, Number.MAX_SAFE_INTEGER, "after is a request's seq: a whole number from 0")),
  limit: Schema.optionalKey(numberParam(1, MAX_REQUESTS_LIMIT, `limit is a whole number from 1 to ${MAX_REQUESTS_LIMIT}`)),
  wait: Schema.optionalKey(numberParam(0, MAX_REQUESTS_WAIT, `wait is a number of seconds from 0 to ${MAX_REQUESTS_WAIT}`, true)),
  dev: Schema.optionalKey(Schema.Literals(["true", "false"]).annotate({ message: "dev is true or false" })),
  advice: Schema.optionalKey(Schema.Literals(["true", "false"]).annotate({ message: "advice is true or false" }))
})
export type RequestsQuery = typeof RequestsQuery.Type
