/**
 * Site members, administered with an API key: list them a page at a time or as one Stream, find them
 * by status or login e-mail, read one, approve (which also unblocks) and block. Each function needs only
 * the `PlatformClient` that `Site.apiKey` provides; a visitor or member session is refused by the
 * platform (`PERMISSION_DENIED`). Arguments are checked before anything is sent.
 *
 * Every call asks for the `FULL` fieldset, so a member comes with its login e-mail and status (the
 * platform's default, `PUBLIC`, hides both).
 *
 * @example
 * import { Members } from "sitefx/members"
 * const pending = yield* Members.query({ status: "PENDING" })
 * for (const member of pending.members) yield* Members.approve(member.id)
 * const everyone = yield* Members.stream().pipe(Stream.runCollect)
 */
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import * as Stream from "effect/Stream"
import { unlessInvalid } from "../http/checks.ts"
import { offsetPaging } from "../http/paging.ts"
import type { Guard, TypeOf } from "../http/guard.ts"
import { PlatformClient } from "../http/PlatformClient.ts"
import type { PlatformRequest } from "../http/PlatformRequest.ts"
import { fromPlatformError, invalidArgument, type MembersError, type MembersFailure } from "./MembersError.ts"
import * as G from "./guards/members.ts"
import * as P from "./protocol.ts"

export { DEFAULT_MEMBERS_PAGE, MAX_MEMBERS_PAGE, type MemberStatus } from "./protocol.ts"

/** A site member as the admin calls answer it (the `FULL` fieldset: login e-mail and status included). */
export type Member = TypeOf<typeof G.Member>

/** One page of members, and how many there are in all when the platform counted them. */
export interface MembersPage {
  readonly members: ReadonlyArray<Member>
  readonly total?: number
}

/** Which page of members to read. */
export interface PageOptions {
  /** Members a page, 1 to {@link MAX_MEMBERS_PAGE} (the platform's default, 100, when left out). */
  readonly limit?: number
  /** Members to skip, 0 or more. */
  readonly offset?: number
}

/** Which members a query finds: by status and/or login e-mail, a page at a time. */
export interface QueryOptions extends PageOptions {
  readonly status?: P.MemberStatus
  /** Matched whatever its case. */
  readonly loginEmail?: string
}

type Effects<A> = Effect.Effect<A, MembersFailure, PlatformClient>

const FIELDSETS: ReadonlyArray<P.Fieldset> = ["FULL"]

const send = <A>(check: MembersError | undefined, request: () => PlatformRequest, guard: Guard<A>): Effects<A> =>
  unlessInvalid(check, () => Effect.flatMap(PlatformClient, (client) => client.json(request(), guard).pipe(Effect.mapError(fromPlatformError))))

const show = (v: unknown): string => (typeof v === "string" ? JSON.stringify(v) : v === null ? "null" : Array.isArray(v) ? "an array" : String(v))

const checkId = (what: string, id: unknown): MembersError | undefined =>
  typeof id === "string" && id.trim() !== "" && id.length <= 200 ? undefined : invalidArgument(`${what}: id must be a non-empty string, not ${show(id)}`, "id")

const checkWhole = (what: string, field: string, value: unknown, min: number, max: number): MembersError | undefined =>
  value === undefined || (typeof value === "number" && Number.isSafeInteger(value) && value >= min && value <= max)
    ? undefined
    : invalidArgument(`${what}: ${field} must be a whole number from ${min} to ${max}, not ${show(value)}`, field)

const checkPage = (what: string, options: PageOptions): MembersError | undefined =>
  typeof options !== "object" || options === null
    ? invalidArgument(`${what}: the options must be an object`, "options")
    : checkWhole(what, "limit", options.limit, 1, P.MAX_MEMBERS_PAGE) ?? checkWhole(what, "offset", options.offset, 0, Number.MAX_SAFE_INTEGER)

const pageOf = (answer: TypeOf<typeof G.MembersPageResponse>): MembersPage => ({
  members: answer.members ?? [],
  ...(answer.metadata?.total === undefined ? {} : { total: answer.metadata.total })
})

/**
 * One page of members, oldest first (`GET /members/v1/members`).
 *
 * @example
 * const { members, total } = yield* Members.list({ limit: 20, offset: 40 })
 */
export const list = (options: PageOptions = {}): Effects<MembersPage> =>
  Effect.map(
    send(checkPage("Members.list", options), () => ({
      method: "GET",
      path: P.MembersPaths.members,
      // paging travels as `.r`; fieldsets alone as a plain parameter, as the official client sends them
      payload: { ...offsetPaging(options), fieldsets: FIELDSETS },
      complex: {}
    }), G.MembersPageResponse),
    pageOf
  )

/**
 * Members of a status and/or a login e-mail, a page at a time (`POST /members/v1/members/query`).
 *
 * @example
 * import { Members } from "sitefx/members"
 * const found = yield* Members.query({ loginEmail: "ada@example.com" })
 * const blocked = yield* Members.query({ status: "BLOCKED", limit: 50 })
 */
export const query = (options: QueryOptions = {}): Effects<MembersPage> => {
  const what = "Members.query"
  const check = checkPage(what, options) ??
    (options.status === undefined || P.MEMBER_STATUSES.includes(options.status)
      ? undefined
      : invalidArgument(`${what}: status must be one of ${P.MEMBER_STATUSES.join(", ")}, not ${show(options.status)}`, "status")) ??
    (options.loginEmail === undefined || (typeof options.loginEmail === "string" && options.loginEmail.trim() !== "")
      ? undefined
      : invalidArgument(`${what}: loginEmail must be a non-empty string, not ${show(options.loginEmail)}`, "loginEmail"))
  return Effect.map(
    send(check, () => {
      const conditions = [
        ...(options.status === undefined ? [] : [{ status: options.status }]),
        ...(options.loginEmail === undefined ? [] : [{ loginEmail: options.loginEmail }])
      ]
      const filter = conditions.length === 2 ? { $and: conditions } : conditions[0] ?? {}
      return {
        method: "POST",
        path: P.MembersPaths.query,
        payload: {
          fieldsets: FIELDSETS,
          query: { filter, paging: { offset: options.offset ?? 0, limit: options.limit ?? P.DEFAULT_MEMBERS_PAGE } }
        },
        idempotent: true
      }
    }, G.MembersPageResponse),
    pageOf
  )
}

/**
 * Every member, page after page (`pageSize` a page, 100 unless given), the next page asked for only
 * as the stream is consumed.
 *
 * @example
 * import { Members } from "sitefx/members"
 * const emails = yield* Members.stream({ pageSize: 100 }).pipe(
 *   Stream.filter((m) => m.status === "APPROVED"),
 *   Stream.map((m) => m.loginEmail),
 *   Stream.runCollect
 * )
 */
export const stream = (options: { readonly pageSize?: number } = {}): Stream.Stream<Member, MembersFailure, PlatformClient> => {
  const limit = options.pageSize ?? P.DEFAULT_MEMBERS_PAGE
  const check = checkWhole("Members.stream", "pageSize", limit, 1, P.MAX_MEMBERS_PAGE)
  if (check !== undefined) return Stream.fail(check)
  return Stream.paginate(0, (offset) =>
    Effect.map(list({ limit, offset }), (page) => {
      const next = offset + page.members.length
      const more = page.members.length === limit && (page.total === undefined || next < page.total)
      return [page.members, more ? Option.some(next) : Option.none()] as const
    }))
}

const memberOf = (answer: TypeOf<typeof G.MemberResponse>): Member => answer.member

/**
 * A member by id (`GET /members/v1/members/{id}`); an unknown id is a MembersError (404).
 *
 * @example
 * import { Members, MembersCodes } from "sitefx/members"
 * declare const memberId: string
 * const member = yield* Members.get(memberId).pipe(
 *   Effect.catchIf((e) => e._tag === "MembersError" && e.code === MembersCodes.memberNotFound, () => Effect.succeed(undefined))
 * )
 */
export const get = (id: string): Effects<Member> =>
  Effect.map(
    send(checkId("Members.get", id), () => ({ method: "GET", path: P.MembersPaths.member(id), payload: { id, fieldsets: FIELDSETS } }), G.MemberResponse),
    memberOf
  )

/**
 * Approves a pending member, or unblocks a blocked one: they may log in again
 * (`POST /members/v1/members/{id}/approve`). Answers the member as it now is.
 */
export const approve = (id: string): Effects<Member> =>
  Effect.map(
    send(checkId("Members.approve", id), () => ({ method: "POST", path: P.MembersPaths.approve(id), payload: { id }, idempotent: true }), G.MemberResponse),
    memberOf
  )

/**
 * Blocks a member: they cannot log in, and their sessions end (`POST /members/v1/members/{id}/block`).
 * Answers the member as it now is; {@link approve} unblocks.
 *
 * @example
 * import { Members } from "sitefx/members"
 * declare const memberId: string
 * const member = yield* Members.block(memberId)
 * console.log(member.status) // "BLOCKED"
 */
export const block = (id: string): Effects<Member> =>
  Effect.map(
    send(checkId("Members.block", id), () => ({ method: "POST", path: P.MembersPaths.block(id), payload: { id }, idempotent: true }), G.MemberResponse),
    memberOf
  )
