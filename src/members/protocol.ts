/**
 * The members admin API's protocol facts as plain values: paths, fieldsets and paging bounds. The
 * Schemas of its requests and answers are in `wire/` (the local platform reads requests and writes
 * answers with them), the client's guards of the answers in `guards/`; test/members/guards.test.ts
 * keeps each guard's type equal to its Schema's.
 *
 * Wire facts, as the platform's official members module (`@wix/members` 1.0.519, its
 * `auto_sdk_members_members` 1.0.135 build) sends them with an API key (host www.wixapis.com):
 *
 * | call    | request                                                                                     |
 * |---------|---------------------------------------------------------------------------------------------|
 * | list    | `GET /members/v1/members`, payload `{paging:{limit, offset}, fieldsets, sorting}`: `.r` when it holds an object (paging, sorting), else flat (`?fieldsets=FULL`) |
 * | query   | `POST /members/v1/members/query {fieldsets?, query:{filter, paging:{offset, limit}, sort?}}` (its builder: 50 a page) |
 * | get     | `GET /members/v1/members/{id}?id={id}&fieldsets=…` (always flat)                             |
 * | approve | `POST /members/v1/members/{id}/approve {id}`                                                 |
 * | block   | `POST /members/v1/members/{id}/block {id}`                                                   |
 *
 * Answers: list and query `{members, metadata:{count, offset, total, tooManyToCount?}}`; get, approve
 * and block `{member}`. A member is `{id, loginEmail, loginEmailVerified, status, contactId, contact,
 * profile:{nickname, slug, photo, title}, privacyStatus, activityStatus, createdDate, updatedDate,
 * lastLoginDate}`; status is one of `UNKNOWN PENDING APPROVED BLOCKED OFFLINE`. What an answer holds
 * depends on the fieldsets asked for: `PUBLIC` (the default) gives id, contactId, the dates and the
 * profile with the three statuses as `UNKNOWN`; `EXTENDED` adds loginEmail and the real statuses;
 * `FULL` gives everything. Block may refuse with `MEMBER_SELF_BLOCK_FORBIDDEN`,
 * `OWNER_MEMBER_BLOCK_FORBIDDEN` or `ACTIVE_SUBSCRIPTION_MEMBER_BLOCK_FORBIDDEN`.
 */
import { MEMBER_STATUSES } from "../session/protocol.ts"

export { MEMBER_STATUSES }
/** Where a member stands: `PENDING` approval, `APPROVED`, `BLOCKED`, `OFFLINE`, or `UNKNOWN`. */
export type MemberStatus = typeof MEMBER_STATUSES[number]

/** How much of a member an answer holds (at most three named per call). */
export const FIELDSETS = ["PUBLIC", "EXTENDED", "FULL"] as const
export type Fieldset = typeof FIELDSETS[number]
export const MAX_FIELDSETS = 3

/**
 * Paging bounds. The platform documents no upper bound for these two calls; the local platform takes
 * up to 1000 a page and gives 100 when none is asked for, and sitefx's stream asks for 100 a page,
 * which every bound seen on the platform's member services allows.
 */
/** The most members one page may hold. */
export const MAX_MEMBERS_PAGE = 1000
/** Members a page holds when the call names no limit. */
export const DEFAULT_MEMBERS_PAGE = 100

/** The paths of the members admin calls, as the platform's official client sends them. */
export const MembersPaths = {
  members: "/members/v1/members",
  query: "/members/v1/members/query",
  member: (id: string) => `/members/v1/members/${encodeURIComponent(id)}`,
  approve: (id: string) => `/members/v1/members/${encodeURIComponent(id)}/approve`,
  block: (id: string) => `/members/v1/members/${encodeURIComponent(id)}/block`
} as const
