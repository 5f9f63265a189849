/**
 * The members admin API of the local platform (`/members/v1/members…`, see src/members/protocol.ts for
 * the wire): list, query, get, approve and block, for API-key callers only (401 without credentials,
 * 403 for visitors and members). Answers hold what the asked fieldsets give (`PUBLIC` unless named).
 *
 * Approving and blocking are {@link approveMember} and {@link blockMember}, which the dev endpoints
 * (`/_sitefx/members/:id/approve`, `/block`) use too.
 */
import * as Effect from "effect/Effect"
import * as HttpRouter from "effect/http/HttpRouter"
import type * as HttpServerRequest from "effect/http/HttpServerRequest"
import { DEFAULT_MEMBERS_PAGE, type Fieldset, MAX_FIELDSETS, MAX_MEMBERS_PAGE, MembersPaths } from "../../members/protocol.ts"
import {
  GetMemberRequest,
  ListMembersRequest,
  type Member,
  MemberIdRequest,
  MemberResponse,
  MembersPageResponse,
  type Paging,
  QueryMembersRequest,
  type Sorting
} from "../../members/wire/index.ts"
import { type Comparable, type FilterNode, isDateValue } from "../../data/FilterTree.ts"
import { EngineFailure, toViolation } from "../store/engineFailures.ts"
import { checkFilter, makeDocumentFilter } from "../store/filters.ts"
import { getPayload } from "../store/payload.ts"
import { Callers } from "../accounts/Callers.ts"
import { RefreshTokens } from "../accounts/RefreshTokens.ts"
import { invalidField, notFound, type Reject, reply } from "../platform/responses.ts"
import { body, pathParam, route } from "../platform/routing.ts"
import { Codes } from "./codes.ts"
import { type MemberChanges, type MemberRecord, MemberStore } from "../accounts/MemberStore.ts"
import { memberOf } from "./views.ts"
import { isObject, normalizeIso } from "../store/values.ts"
import { Database } from "../platform/Database.ts"

export const adminMemberRoutes = HttpRouter.addAll(Effect.gen(function*() {
  const callers = yield* Callers
  const members = yield* MemberStore
  const refreshTokens = yield* RefreshTokens
  const matching = makeDocumentFilter(yield* Database)

  const memberById = (id: string): Effect.Effect<MemberRecord, Reject> => {
    const found = id === "" ? undefined : members.byId(id)
    return found === undefined ? Effect.fail(notFound(`No member has the id ${JSON.stringify(id)}`, Codes.memberNotFound)) : Effect.succeed(found)
  }

  /** The path's member, after checking the caller, and that an id the body repeats is the same one. */
  const target: Effect.Effect<MemberRecord, Reject, HttpServerRequest.HttpServerRequest | HttpRouter.RouteContext> = Effect.gen(function*() {
    yield* callers.admin
    const id = yield* pathParam("id")
    const request = yield* body(MemberIdRequest)
    if (request.id !== undefined && request.id !== id) return yield* invalidField("id", "The id in the body differs from the one in the path")
    return yield* memberById(id)
  })

  const page = (
    options: {
      readonly paging: Paging | undefined
      readonly pagingAt: string
      readonly fieldsets: ReadonlyArray<Fieldset> | undefined
      readonly sorting: ReadonlyArray<Sorting>
      readonly sortingAt: string
      readonly filter?: unknown
      readonly search?: QueryMembersRequest["search"]
    }
  ) =>
    Effect.gen(function*() {
      const refusal = checkFieldsets(options.fieldsets)
      if (refusal !== undefined) return yield* refusal
      const { limit, offset, filter, search, compare } = yield* attempt(() => ({
        ...pageOf(options.paging, options.pagingAt),
        filter: options.filter == null ? undefined : memberFilter(options.filter, "query.filter"),
        search: searchFilter(options.search),
        compare: sortBy(options.sorting, options.sortingAt)
      }))
      let all = members.list().map(memberOf)
      const conditions = [filter, search].filter((n) => n !== undefined)
      if (conditions.length > 0) {
        const picked = all
        all = matching(picked.map(filterDocument), { _tag: "And", nodes: conditions }).map((i) => picked[i]!)
      }
      if (compare !== undefined) all = all.slice().sort(compare)
      const slice = all.slice(offset, offset + limit)
      return reply(MembersPageResponse, {
        members: slice.map((m) => project(m, options.fieldsets)),
        metadata: { count: slice.length, offset, total: all.length }
      })
    })

  const list = Effect.gen(function*() {
    yield* callers.admin
    const request = yield* getPayload(ListMembersRequest, { arrays: ["fieldsets"], numbers: ["paging.limit", "paging.offset"] })
    return yield* page({
      paging: request.paging,
      pagingAt: "paging.",
      fieldsets: request.fieldsets,
      sorting: request.sorting ?? [],
      sortingAt: "sorting"
    })
  })

  const query = Effect.gen(function*() {
    yield* callers.admin
    const request = yield* body(QueryMembersRequest)
    const q = request.query ?? {}
    const sortingAt = q.sort !== undefined ? "query.sort" : "query.sorting"
    return yield* page({
      paging: q.paging,
      pagingAt: "query.paging.",
      fieldsets: request.fieldsets,
      sorting: q.sort ?? q.sorting ?? [],
      sortingAt,
      filter: q.filter,
      search: request.search
    })
  })

  const get = Effect.gen(function*() {
    yield* callers.admin
    const request = yield* getPayload(GetMemberRequest, { arrays: ["fieldsets"] })
    const refusal = checkFieldsets(request.fieldsets)
    if (refusal !== undefined) return yield* refusal
    const member = yield* memberById(yield* pathParam("id"))
    return reply(MemberResponse, { member: project(memberOf(member), request.fieldsets) })
  })

  const approve = Effect.map(target, (member) => reply(MemberResponse, { member: memberOf(approveMember(members, member)) }))
  const block = Effect.map(target, (member) => reply(MemberResponse, { member: memberOf(blockMember(members, refreshTokens, member)) }))

  return [
    route("GET", MembersPaths.members, list),
    route("POST", MembersPaths.query, query),
    route("GET", "/members/v1/members/:id", get),
    route("POST", "/members/v1/members/:id/approve", approve),
    route("POST", "/members/v1/members/:id/block", block)
  ]
}))

// ---- the actions the admin API and the dev endpoints share ----------------------------------------------

/**
 * Approving lets a member in: the owner's approval is no longer awaited, and a pending member with
 * nothing else outstanding, or a blocked one, becomes active (the platform's approve also unblocks).
 */
export const approvalChanges = (member: MemberRecord): MemberChanges => {
  const reasons = member.reasons.filter((r) => r !== "PENDING_ADMIN_APPROVAL_REQUIRED")
  const waiting = member.status === "PENDING" || member.status === "BLOCKED"
  return { reasons, ...(waiting ? { status: reasons.length === 0 ? "ACTIVE" as const : "PENDING" as const } : {}) }
}

export const approveMember = (members: MemberStore["Service"], member: MemberRecord): MemberRecord =>
  members.update(member.id, approvalChanges(member))

/** Blocks a member and revokes their refresh tokens, so no session of theirs outlives the block. */
export const blockMember = (members: MemberStore["Service"], refreshTokens: RefreshTokens["Service"], member: MemberRecord): MemberRecord => {
  const blocked = members.update(member.id, { status: "BLOCKED" })
  refreshTokens.revoke("member", member.id)
  return blocked
}

// ---- fieldsets --------------------------------------------------------------------------------------------

const checkFieldsets = (fieldsets: ReadonlyArray<Fieldset> | undefined): Reject | undefined =>
  fieldsets !== undefined && fieldsets.length > MAX_FIELDSETS
    ? invalidField("fieldsets", `fieldsets names at most ${MAX_FIELDSETS} sets`, "MAX_SIZE", { max: MAX_FIELDSETS })
    : undefined

/** The part of a member the fieldsets give: the widest set named wins. */
const project = (member: Member, fieldsets: ReadonlyArray<Fieldset> | undefined): Member => {
  const sets = fieldsets ?? []
  if (sets.includes("FULL")) return member
  const extended = sets.includes("EXTENDED")
  return {
    id: member.id,
    ...(extended && member.loginEmail !== undefined ? { loginEmail: member.loginEmail } : {}),
    status: extended ? member.status ?? "UNKNOWN" : "UNKNOWN",
    ...(member.contactId === undefined ? {} : { contactId: member.contactId }),
    ...(member.profile === undefined ? {} : { profile: member.profile }),
    privacyStatus: extended ? member.privacyStatus ?? "UNKNOWN" : "UNKNOWN",
    activityStatus: extended ? member.activityStatus ?? "UNKNOWN" : "UNKNOWN",
    ...(member.createdDate === undefined ? {} : { createdDate: member.createdDate }),
    ...(member.updatedDate === undefined ? {} : { updatedDate: member.updatedDate })
  }
}

// ---- filters, search, sorting, paging ------------------------------------------------------------------------

/** Fields a query may filter and sort on. */
const FIELDS = new Set([
  "id",
  "loginEmail",
  "status",
  "contactId",
  "privacyStatus",
  "activityStatus",
  "createdDate",
  "updatedDate",
  "lastLoginDate",
  "profile.nickname",
  "profile.slug",
  "profile.title",
  "contact.firstName",
  "contact.lastName"
])

const SEARCH_FIELDS = new Set(["loginEmail", "contact.firstName", "contact.lastName", "profile.title", "profile.nickname", "profile.slug"])

const MAX_SEARCH_FIELDS = 4

const MAX_SEARCH_LENGTH = 100

/** A refusal met while reading a filter (thrown inside the synchronous walk, caught by {@link attempt}). */
class Refused {
  readonly reject: Reject
  constructor(reject: Reject) {
    this.reject = reject
  }
}

const refuse = (field: string, description: string, rule = "FORMAT"): never => {
  throw new Refused(invalidField(field, description, rule))
}

const attempt = <A>(f: () => A): Effect.Effect<A, Reject> =>
  Effect.suspend(() => {
    try {
      return Effect.succeed(f())
    } catch (e) {
      if (e instanceof Refused) return Effect.fail(e.reject)
      throw e
    }
  })

const valueAt = (member: Member, path: string): unknown => {
  let current: unknown = member
  for (const key of path.split(".")) {
    if (typeof current !== "object" || current === null) return undefined
    current = (current as Record<string, unknown>)[key]
  }
  return current ?? undefined
}

/** Login e-mails match whatever their case, as the platform keeps them unique. */
const norm = (field: string, v: unknown): unknown => (field === "loginEmail" && typeof v === "string" ? v.toLowerCase() : v ?? null)

/**
 * The platform's `$nin`, which the data engine's language lacks, in that language's words:
 * `{f: {$nin: xs}}` is `{$not: {f: {$in: xs}}}`. Only renames: every check stays the engine's.
 */
const ninAsNotIn = (filter: unknown): unknown => {
  if (Array.isArray(filter)) return filter.map(ninAsNotIn)
  if (!isObject(filter)) return filter
  const kept: Record<string, unknown> = {}
  const notIn: Array<unknown> = []
  for (const [key, value] of Object.entries(filter)) {
    if (key.startsWith("$")) kept[key] = ninAsNotIn(value)
    else if (isObject(value) && "$nin" in value) {
      const { $nin, ...rest } = value
      notIn.push({ $not: { [key]: { $in: $nin } } })
      if (Object.keys(rest).length > 0) kept[key] = rest
    } else kept[key] = value
  }
  return notIn.length === 0 ? kept : { $and: [kept, ...notIn] }
}

/**
 * An operand as the member documents hold values: dates are ISO text there (a `{"$date"}` operand
 * becomes its normalized text, so both forms compare), login e-mails lower case; objects and lists
 * name no member value.
 */
const operand = (field: string, v: unknown, at: string): Comparable | null => {
  if (isDateValue(v)) return normalizeIso(v.$date)
  if (v === null || typeof v === "string" || typeof v === "boolean" || typeof v === "number") return norm(field, v) as Comparable | null
  return refuse(at, `${at} must be a string, a number, a boolean or null`)
}

const notAnOperator = (op: string, at: string): never => refuse(at, `${op} is not a filter operator of this call`)

/**
 * The parsed filter, held to what this call takes: the fields of {@link FIELDS}; `$eq`, `$ne`, `$gt`,
 * `$gte`, `$lt`, `$lte`, `$in`, `$hasSome`, `$nin` (as `$not`/`$in`), `$exists` and `$startsWith`
 * under `$and`, `$or` and `$not`; the data language's other operators are refused.
 */
const forMembers = (node: FilterNode, at: string): FilterNode => {
  switch (node._tag) {
    case "And":
    case "Or":
      return { _tag: node._tag, nodes: node.nodes.map((n) => forMembers(n, at)) }
    case "Not":
      return { _tag: "Not", node: forMembers(node.node, at) }
  }
  const here = `${at}.${node.field}`
  if (!FIELDS.has(node.field)) return refuse(here, `${node.field} cannot be filtered on`, "OTHER")
  switch (node._tag) {
    case "Compare":
      return { ...node, value: operand(node.field, node.value, `${here}.${node.op}`) } as FilterNode
    case "Set":
      if (node.op === "$hasAll") return notAnOperator(node.op, `${here}.${node.op}`)
      // the engine's parser takes no null in a list, so every operand here comes back a value
      return { ...node, values: node.values.map((v, i) => operand(node.field, v, `${here}.${node.op}[${i}]`) as Comparable) }
    case "Text":
      return node.op === "$startsWith" ? node : notAnOperator(node.op, `${here}.${node.op}`)
    case "Exists":
      return node
    case "Matches":
      return notAnOperator("$matches", `${here}.$matches`)
  }
}

/** A filter in the platform's query language over the member fields a query may name, read by the data engine. */
const memberFilter = (filter: unknown, at: string): FilterNode => {
  try {
    return forMembers(checkFilter(ninAsNotIn(filter), at), at)
  } catch (e) {
    if (e instanceof EngineFailure) throw new Refused(toViolation(e, at))
    throw e
  }
}

/** The search as a filter: any of its fields contains the expression, without case. */
const searchFilter = (search: QueryMembersRequest["search"]): FilterNode | undefined => {
  const expression = search?.expression
  if (search === undefined || expression == null) return undefined
  if (expression.length < 1 || expression.length > MAX_SEARCH_LENGTH) {
    return refuse("search.expression", `search.expression must be 1 to ${MAX_SEARCH_LENGTH} characters`, "MAX_LENGTH")
  }
  const fields = search.fields === undefined || search.fields.length === 0 ? ["profile.nickname"] : search.fields
  if (fields.length > MAX_SEARCH_FIELDS) return refuse("search.fields", `search.fields names at most ${MAX_SEARCH_FIELDS} fields`, "MAX_SIZE")
  fields.forEach((f, i) => {
    if (!SEARCH_FIELDS.has(f)) refuse(`search.fields[${i}]`, `${f} cannot be searched`, "OTHER")
  })
  return { _tag: "Or", nodes: fields.map((field) => ({ _tag: "Text", field, op: "$contains", value: expression })) }
}

/** A member as the filter reads it: login e-mail in lower case, empty (null) values absent, as `$exists` sees them. */
const filterDocument = (member: Member): string =>
  JSON.stringify({ ...member, loginEmail: member.loginEmail?.toLowerCase() }, (_, v: unknown) => (v === null ? undefined : v))

const sortBy = (sorting: ReadonlyArray<Sorting>, at: string): ((a: Member, b: Member) => number) | undefined => {
  if (sorting.length === 0) return undefined
  const keys = sorting.map((s, i) => {
    if (s.fieldName === undefined || !FIELDS.has(s.fieldName)) {
      return refuse(`${at}[${i}].fieldName`, `${s.fieldName ?? "(no field)"} cannot be sorted on`, "OTHER")
    }
    return { field: s.fieldName, sign: s.order === "DESC" ? -1 : 1 }
  })
  return (a, b) => {
    for (const { field, sign } of keys) {
      const x = norm(field, valueAt(a, field))
      const y = norm(field, valueAt(b, field))
      if (x === y) continue
      // absent values first, as in ascending order on the platform
      if (x === null) return -sign
      if (y === null) return sign
      return (String(x) < String(y) ? -1 : 1) * sign
    }
    return 0
  }
}

const pagingNumber = (value: number | null | undefined, field: string, fallback: number, min: number, max: number): number => {
  if (value == null) return fallback
  if (!Number.isSafeInteger(value) || value < min || value > max) {
    return refuse(field, `${field} must be a whole number from ${min} to ${max}`, value < min ? "MIN" : "MAX")
  }
  return value
}

const pageOf = (paging: Paging | undefined, at: string) => ({
  limit: pagingNumber(paging?.limit, `${at}limit`, DEFAULT_MEMBERS_PAGE, 1, MAX_MEMBERS_PAGE),
  offset: pagingNumber(paging?.offset, `${at}offset`, 0, 0, Number.MAX_SAFE_INTEGER)
})

// ---- routes ------------------------------------------------------------------------------------------------
