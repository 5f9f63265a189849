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
} from "../../members/wire.ts"
import { getPayload } from "../data/requests.ts"
import { Callers } from "../oauth/Callers.ts"
import { RefreshTokens } from "../oauth/RefreshTokens.ts"
import { invalidField, notFound, type Reject, reply } from "../platform/responses.ts"
import { body, pathParam, route } from "../platform/routing.ts"
import { Codes } from "./codes.ts"
import { type MemberChanges, type MemberRecord, MemberStore } from "./MemberStore.ts"
import { memberOf } from "./views.ts"
import { isObject } from "../data/values.ts"

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

type Scalar = string | number | boolean | null

/** A filter operand: a scalar, or a date as `{"$date": iso}`. */
const scalar = (v: unknown, at: string): Scalar => {
  if (v === null || typeof v === "string" || typeof v === "boolean" || (typeof v === "number" && Number.isFinite(v))) return v
  if (isObject(v) && Object.keys(v).length === 1 && typeof v["$date"] === "string") return v["$date"]
  return refuse(at, `${at} must be a string, a number, a boolean or null`)
}
const scalars = (v: unknown, at: string): ReadonlyArray<Scalar> =>
  Array.isArray(v) ? v.map((x, i) => scalar(x, `${at}[${i}]`)) : refuse(at, `${at} must be a list`)

/** Login e-mails match whatever their case, as the platform keeps them unique. */
const norm = (field: string, v: unknown): unknown => (field === "loginEmail" && typeof v === "string" ? v.toLowerCase() : v ?? null)
const same = (field: string, a: unknown, b: Scalar) => norm(field, a) === norm(field, b)
const order = (a: unknown, b: Scalar): number | undefined =>
  typeof a === "string" && typeof b === "string" ? (a < b ? -1 : a > b ? 1 : 0) : typeof a === "number" && typeof b === "number" ? a - b : undefined

type Test = (member: Member) => boolean

const condition = (field: string, op: string, operand: unknown, at: string): Test => {
  const get = (m: Member) => valueAt(m, field)
  switch (op) {
    case "$eq": {
      const v = scalar(operand, at)
      return (m) => same(field, get(m), v)
    }
    case "$ne": {
      const v = scalar(operand, at)
      return (m) => !same(field, get(m), v)
    }
    case "$in":
    case "$hasSome": {
      const vs = scalars(operand, at)
      return (m) => vs.some((v) => same(field, get(m), v))
    }
    case "$nin": {
      const vs = scalars(operand, at)
      return (m) => !vs.some((v) => same(field, get(m), v))
    }
    case "$exists": {
      if (typeof operand !== "boolean") return refuse(at, `${at} must be true or false`)
      return (m) => (get(m) !== undefined) === operand
    }
    case "$startsWith": {
      if (typeof operand !== "string") return refuse(at, `${at} must be a string`)
      const prefix = String(norm(field, operand))
      return (m) => {
        const v = norm(field, get(m))
        return typeof v === "string" && v.startsWith(prefix)
      }
    }
    case "$gt":
    case "$gte":
    case "$lt":
    case "$lte": {
      const v = scalar(operand, at)
      return (m) => {
        const c = order(get(m), v)
        if (c === undefined) return false
        return op === "$gt" ? c > 0 : op === "$gte" ? c >= 0 : op === "$lt" ? c < 0 : c <= 0
      }
    }
    default:
      return refuse(at, `${op} is not a filter operator of this call`)
  }
}

/** A filter in the platform's query language over the member fields a query may name. */
const compile = (filter: unknown, at: string): Test => {
  if (!isObject(filter)) return refuse(at, `${at} must be an object`)
  const tests = Object.entries(filter).map(([key, value]): Test => {
    const here = `${at}.${key}`
    switch (key) {
      case "$and":
      case "$or": {
        if (!Array.isArray(value)) return refuse(here, `${here} must be a list of filters`)
        const parts = value.map((f, i) => compile(f, `${here}[${i}]`))
        return key === "$and" ? (m) => parts.every((t) => t(m)) : (m) => parts.some((t) => t(m))
      }
      case "$not": {
        const inner = compile(value, here)
        return (m) => !inner(m)
      }
    }
    if (!FIELDS.has(key)) return refuse(here, `${key} cannot be filtered on`, "OTHER")
    if (isObject(value) && !("$date" in value)) {
      const ops = Object.entries(value)
      if (ops.length === 0) return refuse(here, `${here} names no operator`)
      const parts = ops.map(([op, operand]) => condition(key, op, operand, `${here}.${op}`))
      return (m) => parts.every((t) => t(m))
    }
    return condition(key, "$eq", value, here)
  })
  return (m) => tests.every((t) => t(m))
}

const searchTest = (search: QueryMembersRequest["search"]): Test | undefined => {
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
  const needle = expression.toLowerCase()
  return (m) => fields.some((f) => {
    const v = valueAt(m, f)
    return typeof v === "string" && v.toLowerCase().includes(needle)
  })
}

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

export const adminMemberRoutes = HttpRouter.addAll(Effect.gen(function*() {
  const callers = yield* Callers
  const members = yield* MemberStore
  const refreshTokens = yield* RefreshTokens

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
      const { limit, offset, test, search, compare } = yield* attempt(() => ({
        ...pageOf(options.paging, options.pagingAt),
        test: options.filter == null ? undefined : compile(options.filter, "query.filter"),
        search: searchTest(options.search),
        compare: sortBy(options.sorting, options.sortingAt)
      }))
      let all = members.list().map(memberOf)
      if (test !== undefined) all = all.filter(test)
      if (search !== undefined) all = all.filter(search)
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
