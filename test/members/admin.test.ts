/**
 * Members administration with an API key: sitefx's Members module against the local platform's
 * members admin API over HTTP. Listing a page at a time and as a Stream, queries by status and login
 * e-mail, reading one member, approving a pending member (who may then log in), blocking (their
 * refresh token stops working, their access token is refused) and unblocking; who may call (an API
 * key; not a member, not a visitor, not nobody); unknown ids; and bad input, which gets a 400 and
 * never a 5xx.
 */
import { assert, describe, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Redacted from "effect/Redacted"
import * as Stream from "effect/Stream"
import type { PlatformClient } from "../../src/http/PlatformClient.ts"
import { base64url } from "../../src/http/codec.ts"
import * as Members from "../../src/members/Members.ts"
import { MembersError } from "../../src/members/MembersError.ts"
import { MembersPaths } from "../../src/members/protocol.ts"
import { Site } from "../../src/Site.ts"
import { LocalPlatform } from "../support/platform.ts"
import { asMember } from "../support/store.ts"
import { type Answer, call, codeOf, get, login, post, registerMember, uniqueEmail, visitor, withSettings } from "../server/support.ts"


/** The effect with an API-key client of the local platform, as `sitefx members` runs it. */
const asAdmin = <A, E>(effect: Effect.Effect<A, E, PlatformClient>) =>
  Effect.gen(function*() {
    const platform = yield* LocalPlatform
    const site = Site.apiKey({ apiKey: Redacted.value(platform.apiKey), baseUrl: platform.url, siteId: platform.siteId })
    return yield* Effect.provide(effect, Layer.fresh(site), { local: true })
  })

/** The MembersError an effect failed with (fails the test on success or on any other error). */
const failure = <A, R>(effect: Effect.Effect<A, unknown, R>) =>
  Effect.map(Effect.flip(effect), (e) => {
    assert.instanceOf(e, MembersError, String(e))
    return e as MembersError
  })

const REGISTER = "/_api/iam/authentication/v2/register"
const LOGIN = "/_api/iam/authentication/v2/login"
const PASSWORD = "secret-pass-1"

const asVisitor = (path: string, body: unknown) => Effect.flatMap(visitor, (guest) => post(path, body, guest.access_token))

/** Every admin route, with a request that would be valid from an API key. */
const adminCalls = (id: string): ReadonlyArray<readonly [string, string, unknown]> => [
  ["GET", MembersPaths.members, undefined],
  ["POST", MembersPaths.query, { query: { filter: { status: "APPROVED" } } }],
  ["GET", MembersPaths.member(id), undefined],
  ["POST", MembersPaths.approve(id), { id }],
  ["POST", MembersPaths.block(id), { id }]
]

const send = (method: string, path: string, body: unknown, auth?: string) =>
  call(method, path, { ...(body === undefined ? {} : { body }), ...(auth === undefined ? {} : { auth }) })

/** The status of an answer, with its text when it is not the one expected. */
const expectStatus = (answer: Answer, status: number, what: string) => assert.strictEqual(answer.status, status, `${what}: ${answer.text}`)

describe("members admin", () => {
  it.effect("arguments are checked before anything is sent", () =>
    Effect.gen(function*() {
      // nothing listens on port 9: a request would fail as a transport error, not with INVALID_ARGUMENT
      const nowhere = Site.apiKey({ apiKey: "sfx_key_unused", baseUrl: "http://127.0.0.1:9" })
      const refused = (effect: Effect.Effect<unknown, unknown, PlatformClient>) => failure(Effect.provide(effect, nowhere))
      const cases: ReadonlyArray<readonly [Effect.Effect<unknown, unknown, PlatformClient>, string]> = [
        [Members.get(""), "id"],
        [Members.approve("   "), "id"],
        [Members.block(42 as unknown as string), "id"],
        [Members.list({ limit: 0 }), "limit"],
        [Members.list({ limit: 1001 }), "limit"],
        [Members.list({ limit: 2.5 }), "limit"],
        [Members.list({ offset: -1 }), "offset"],
        [Members.query({ status: "ACTIVE" as never }), "status"],
        [Members.query({ loginEmail: "" }), "loginEmail"],
        [Members.stream({ pageSize: 0 }).pipe(Stream.runCollect), "pageSize"]
      ]
      for (const [effect, field] of cases) {
        const e = yield* refused(effect)
        assert.strictEqual(e.code, "INVALID_ARGUMENT", e.message)
        assert.strictEqual(e.field, field)
      }
    }))

  it.layer(LocalPlatform.layer({}), { excludeTestServices: true })((it) => {
    it.effect("list: a page at a time, oldest first, with the total; FULL members with e-mail and status", () =>
      Effect.gen(function*() {
        const made: Array<{ email: string; id: string }> = []
        for (let i = 0; i < 5; i++) made.push(yield* registerMember(PASSWORD))
        const everyone = yield* asAdmin(Members.list({ limit: 1000 }))
        assert.strictEqual(everyone.total, everyone.members.length)
        const at = everyone.members.findIndex((m) => m.id === made[0]!.id)
        assert.isAtLeast(at, 0)
        assert.deepStrictEqual(everyone.members.slice(at, at + 5).map((m) => m.id), made.map((m) => m.id))

        const page = yield* asAdmin(Members.list({ limit: 2, offset: at + 1 }))
        assert.deepStrictEqual(page.members.map((m) => m.id), [made[1]!.id, made[2]!.id])
        assert.strictEqual(page.total, everyone.total)
        const member = page.members[0]!
        assert.strictEqual(member.loginEmail, made[1]!.email)
        assert.strictEqual(member.status, "APPROVED")
        assert.isString(member.contactId)
        assert.strictEqual(member.profile?.nickname, made[1]!.email.split("@")[0])
        assert.isFalse(Number.isNaN(Date.parse(member.createdDate ?? "")))

        // no paging: the platform's default page (100)
        const first = yield* asAdmin(Members.list())
        assert.deepStrictEqual(first.members, everyone.members.slice(0, 100))
        const past = yield* asAdmin(Members.list({ offset: everyone.total! + 10 }))
        assert.deepStrictEqual(past.members, [])
      }))

    it.effect("stream: every member once, in order, however small the pages", () =>
      Effect.gen(function*() {
        for (let i = 0; i < 3; i++) yield* registerMember(PASSWORD)
        const everyone = yield* asAdmin(Members.list({ limit: 1000 }))
        const streamed = yield* asAdmin(Members.stream({ pageSize: 2 }).pipe(Stream.runCollect))
        assert.deepStrictEqual(streamed.map((m) => m.id), everyone.members.map((m) => m.id))
        const byDefault = yield* asAdmin(Members.stream().pipe(Stream.runCollect))
        assert.deepStrictEqual(byDefault.map((m) => m.id), everyone.members.map((m) => m.id))
        // taking a few asks for no more pages than it needs
        const three = yield* asAdmin(Members.stream({ pageSize: 1 }).pipe(Stream.take(3), Stream.runCollect))
        assert.deepStrictEqual(three.map((m) => m.id), everyone.members.slice(0, 3).map((m) => m.id))
      }))

    it.effect("get: one member by id; an unknown id is MEMBER_NOT_FOUND (404)", () =>
      Effect.gen(function*() {
        const made = yield* registerMember(PASSWORD)
        const member = yield* asAdmin(Members.get(made.id))
        assert.strictEqual(member.id, made.id)
        assert.strictEqual(member.loginEmail, made.email)
        assert.strictEqual(member.status, "APPROVED")
        assert.deepStrictEqual(member.contact?.emails, [made.email])

        for (const effect of [Members.get("no-such-member"), Members.approve("no-such-member"), Members.block("no-such-member")]) {
          const e = yield* failure(asAdmin(effect))
          assert.strictEqual(e.code, "MEMBER_NOT_FOUND")
          assert.strictEqual(e.status, 404)
          assert.include(e.message, "no-such-member")
          assert.isString(e.requestId)
        }
      }))

    it.effect("query: by status and by login e-mail (any case)", () =>
      Effect.gen(function*() {
        const made = yield* registerMember(PASSWORD)
        const byEmail = yield* asAdmin(Members.query({ loginEmail: made.email.toUpperCase() }))
        assert.deepStrictEqual(byEmail.members.map((m) => m.id), [made.id])
        assert.strictEqual(byEmail.total, 1)
        const both = yield* asAdmin(Members.query({ loginEmail: made.email, status: "APPROVED" }))
        assert.deepStrictEqual(both.members.map((m) => m.id), [made.id])
        assert.deepStrictEqual((yield* asAdmin(Members.query({ loginEmail: made.email, status: "BLOCKED" }))).members, [])
        const approved = yield* asAdmin(Members.query({ status: "APPROVED", limit: 1000 }))
        assert.isTrue(approved.members.every((m) => m.status === "APPROVED"))
        assert.include(approved.members.map((m) => m.id), made.id)
      }))

    it.effect("approve: a member waiting for the owner's approval may log in once approved", () =>
      withSettings({ ownerApproval: true }, Effect.gen(function*() {
        const email = uniqueEmail("pending")
        const registered = yield* asVisitor(REGISTER, { loginId: { email }, password: PASSWORD })
        expectStatus(registered, 200, "register")
        assert.strictEqual(registered.body.state, "REQUIRE_OWNER_APPROVAL")
        const id = registered.body.identity.id as string

        assert.strictEqual((yield* asAdmin(Members.get(id))).status, "PENDING")
        const pending = yield* asAdmin(Members.query({ status: "PENDING", limit: 1000 }))
        assert.include(pending.members.map((m) => m.id), id)
        assert.strictEqual((yield* asVisitor(LOGIN, { loginId: { email }, password: PASSWORD })).body.state, "REQUIRE_OWNER_APPROVAL")

        const approved = yield* asAdmin(Members.approve(id))
        assert.strictEqual(approved.id, id)
        assert.strictEqual(approved.status, "APPROVED")
        const tokens = yield* login(email, PASSWORD)
        assert.strictEqual(tokens.identity.id, id)
        expectStatus(yield* get("/members/v1/members/my", tokens.access_token), 200, "the member reads their record")
        // approving again changes nothing
        assert.strictEqual((yield* asAdmin(Members.approve(id))).status, "APPROVED")
      })))

    it.effect("block: the member's refresh token stops working, their access token is refused; approve unblocks", () =>
      Effect.gen(function*() {
        const member = yield* registerMember(PASSWORD)
        const tokens = yield* login(member.email, PASSWORD)
        const platform = yield* LocalPlatform
        const refresh = () => post("/oauth2/token", { clientId: platform.clientId, grantType: "refresh_token", refreshToken: tokens.refresh_token })
        expectStatus(yield* refresh(), 200, "refresh before the block")

        const blocked = yield* asAdmin(Members.block(member.id))
        assert.strictEqual(blocked.status, "BLOCKED")
        assert.strictEqual((yield* asAdmin(Members.get(member.id))).status, "BLOCKED")

        const refused = yield* refresh()
        expectStatus(refused, 400, "refresh after the block")
        assert.strictEqual(codeOf(refused), "invalid_grant")
        const mine = yield* get("/members/v1/members/my", tokens.access_token)
        expectStatus(mine, 403, "the blocked member's access token")
        const again = yield* asVisitor(LOGIN, { loginId: { email: member.email }, password: PASSWORD })
        expectStatus(again, 403, "login while blocked")
        assert.strictEqual(codeOf(again), "MEMBER_BLOCKED")

        const unblocked = yield* asAdmin(Members.approve(member.id))
        assert.strictEqual(unblocked.status, "APPROVED")
        const back = yield* login(member.email, PASSWORD)
        expectStatus(yield* get("/members/v1/members/my", back.access_token), 200, "after unblocking")
      }))

    it.effect("only an API key may administer members: 403 for a member or a visitor, 401 for nobody or a wrong key", () =>
      Effect.gen(function*() {
        const member = yield* registerMember(PASSWORD)
        const tokens = yield* login(member.email, PASSWORD)
        const guest = yield* visitor
        for (const [method, path, body] of adminCalls(member.id)) {
          const what = `${method} ${path}`
          const asNobody = yield* send(method, path, body)
          expectStatus(asNobody, 401, `${what} without credentials`)
          assert.strictEqual(codeOf(asNobody), "UNAUTHENTICATED")
          expectStatus(yield* send(method, path, body, "sfx_key_not-a-key"), 401, `${what} with a wrong key`)
          expectStatus(yield* send(method, path, body, tokens.access_token), 403, `${what} as a member`)
          expectStatus(yield* send(method, path, body, guest.access_token), 403, `${what} as a visitor`)
        }
        // nothing changed
        assert.strictEqual((yield* asAdmin(Members.get(member.id))).status, "APPROVED")

        // through sitefx: a member's session, and a key the platform does not know
        const denied = yield* failure(asMember(Members.list()))
        assert.strictEqual(denied.code, "PERMISSION_DENIED")
        assert.strictEqual(denied.status, 403)
        const platform = yield* LocalPlatform
        const wrongKey = Site.apiKey({ apiKey: "sfx_key_wrong", baseUrl: platform.url })
        const unknown = yield* failure(Effect.provide(Members.block(member.id), wrongKey))
        // an unknown key reads as an access token that is not valid
        assert.strictEqual(unknown.status, 401)
        assert.strictEqual(unknown.code, "INVALID_TOKEN")
      }))

    it.effect("fieldsets: PUBLIC by default hides e-mail and statuses; EXTENDED shows them; FULL adds the contact", () =>
      Effect.gen(function*() {
        const made = yield* registerMember(PASSWORD)
        const key = Redacted.value((yield* LocalPlatform).apiKey)
        const read = (query: string) =>
          Effect.map(get(`${MembersPaths.member(made.id)}${query}`, key), (a) => {
            expectStatus(a, 200, query)
            return a.body.member
          })
        const plain = yield* read("")
        assert.strictEqual(plain.id, made.id)
        assert.isUndefined(plain.loginEmail)
        assert.isUndefined(plain.contact)
        assert.deepStrictEqual([plain.status, plain.privacyStatus, plain.activityStatus], ["UNKNOWN", "UNKNOWN", "UNKNOWN"])
        assert.isString(plain.profile.nickname)
        const extended = yield* read(`?id=${made.id}&fieldsets=EXTENDED`)
        assert.strictEqual(extended.loginEmail, made.email)
        assert.strictEqual(extended.status, "APPROVED")
        assert.isUndefined(extended.contact)
        const full = yield* read(`?fieldsets=PUBLIC&fieldsets=FULL`)
        assert.deepStrictEqual(full.contact.emails, [made.email])
        const page = yield* get(`${MembersPaths.members}?fieldsets=EXTENDED`, key)
        expectStatus(page, 200, "list with a plain fieldsets parameter")
        assert.isTrue(page.body.members.every((m: { loginEmail?: string }) => typeof m.loginEmail === "string"))
        assert.strictEqual(page.body.metadata.offset, 0)
        assert.strictEqual(page.body.metadata.count, page.body.members.length)
      }))

    it.effect("bad input is a 400 naming what is wrong, never a 5xx", () =>
      Effect.gen(function*() {
        const made = yield* registerMember(PASSWORD)
        const key = Redacted.value((yield* LocalPlatform).apiKey)
        const r = (payload: unknown) => `.r=${base64url(JSON.stringify(payload))}`
        const list = (query: string) => get(`${MembersPaths.members}?${query}`, key)
        const queryWith = (body: unknown) => send("POST", MembersPaths.query, body, key)
        const bad: ReadonlyArray<readonly [string, Effect.Effect<Answer, never, LocalPlatform>]> = [
          ["limit 0", list(r({ paging: { limit: 0 } }))],
          ["limit over 1000", list(r({ paging: { limit: 1001 } }))],
          ["a fractional limit", list(r({ paging: { limit: 1.5 } }))],
          ["a negative offset", list("paging.offset=-1")],
          ["a limit that is no number", list("paging.limit=ten")],
          ["an unknown fieldset", list("fieldsets=EVERYTHING")],
          ["four fieldsets", list("fieldsets=FULL&fieldsets=FULL&fieldsets=FULL&fieldsets=FULL")],
          [".r that is not JSON", list(".r=bm90IGpzb24")],
          [".r that is a list", list(r([1, 2]))],
          ["sorting by an unknown field", list(r({ sorting: [{ fieldName: "password", order: "ASC" }] }))],
          ["a malformed escape", list("fieldsets=%E0%A4%A")],
          ["get: an unknown fieldset", get(`${MembersPaths.member(made.id)}?fieldsets=nope`, key)],
          ["query: a filter on an unknown field", queryWith({ query: { filter: { passwordHash: "x" } } })],
          ["query: an unknown operator", queryWith({ query: { filter: { status: { $regex: "A.*" } } } })],
          ["query: $in without a list", queryWith({ query: { filter: { status: { $in: "APPROVED" } } } })],
          ["query: a filter that is a list", queryWith({ query: { filter: [] } })],
          ["query: $and without a list", queryWith({ query: { filter: { $and: { status: "PENDING" } } } })],
          ["query: an object operand", queryWith({ query: { filter: { loginEmail: { $eq: { a: 1 } } } } })],
          ["query: an empty condition", queryWith({ query: { filter: { loginEmail: {} } } })],
          ["query: paging of the wrong type", queryWith({ query: { paging: { limit: "5" } } })],
          ["query: a search too long", queryWith({ search: { expression: "x".repeat(101) } })],
          ["query: a search on an unknown field", queryWith({ search: { expression: "x", fields: ["password"] } })],
          ["query: a body that is not JSON", send("POST", MembersPaths.query, "{not json", key)],
          ["approve: another id in the body", send("POST", MembersPaths.approve(made.id), { id: "someone-else" }, key)],
          ["block: a body that is not an object", send("POST", MembersPaths.block(made.id), [made.id], key)]
        ]
        for (const [what, request] of bad) {
          const answer = yield* request
          expectStatus(answer, 400, what)
          assert.isString(answer.body?.message, what)
        }
        // none of it touched the member
        assert.strictEqual((yield* asAdmin(Members.get(made.id))).status, "APPROVED")
        // the filter operators a query does take
        const email = made.email
        const ok: ReadonlyArray<Record<string, unknown>> = [
          { loginEmail: { $in: [email, "nobody@example.com"] } },
          { loginEmail: { $startsWith: email.slice(0, 12).toUpperCase() }, id: made.id },
          { $or: [{ id: made.id }, { id: "nobody" }] },
          { $and: [{ id: { $ne: "nobody" } }, { id: made.id }, { contactId: { $exists: true } }] },
          { id: made.id, $not: { status: "BLOCKED" } },
          { id: made.id, createdDate: { $gte: { $date: "2000-01-01T00:00:00.000Z" } } }
        ]
        for (const filter of ok) {
          const answer = yield* queryWith({ fieldsets: ["FULL"], query: { filter, paging: { offset: 0, limit: 50 } } })
          expectStatus(answer, 200, JSON.stringify(filter))
          assert.deepStrictEqual(answer.body.members.map((m: { id: string }) => m.id), [made.id], JSON.stringify(filter))
        }
      }))
  })
})
