/**
 * The members admin query's filter, read and run by the data engine's filter compiler: every operator
 * the call takes (with `$nin` and `$hasSome`, which the members API names, and login e-mails without
 * case), nesting under `$and`, `$or` and `$not`, dates as `$date` or as text, a search beside a
 * filter; and the refusals: the data language's operators this call does not take, fields it does not
 * filter on (nested too), operands of the wrong type, filters too deep. A refusal is a 400 naming the
 * filter, never a 5xx.
 */
import { assert, describe, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as Redacted from "effect/Redacted"
import { MembersPaths } from "../../src/members/protocol.ts"
import { LocalPlatform } from "../support/platform.ts"
import { type Answer, call, post, registerMember, uniqueEmail, visitor } from "./support.ts"

const PASSWORD = "secret-pass-1"

const query = (body: unknown) =>
  Effect.gen(function*() {
    const key = Redacted.value((yield* LocalPlatform).apiKey)
    return yield* call("POST", MembersPaths.query, { body, auth: key })
  })

/** An active member with a first name (the others made by registerMember have none). */
const registerNamed = (firstName: string) =>
  Effect.gen(function*() {
    const email = uniqueEmail()
    const guest = yield* visitor
    const res = yield* post("/_api/iam/authentication/v2/register", { loginId: { email }, password: PASSWORD, profile: { firstName } }, guest.access_token)
    assert.strictEqual(res.status, 200, res.text)
    return { email, id: res.body.identity.id as string }
  })

const expectStatus = (answer: Answer, status: number, what: string) => assert.strictEqual(answer.status, status, `${what}: ${answer.text}`)

describe("members admin query filter", () => {
  it.layer(LocalPlatform.layer({}), { excludeTestServices: true })((it) => {
    it.effect("every operator the call takes, nested, finds the members it should", () =>
      Effect.gen(function*() {
        const a = yield* registerNamed("Ada")
        const b = yield* registerMember(PASSWORD)
        const c = yield* registerMember(PASSWORD)
        const key = Redacted.value((yield* LocalPlatform).apiKey)
        expectStatus(yield* call("POST", MembersPaths.block(b.id), { body: { id: b.id }, auth: key }), 200, "block")
        const ids = [a.id, b.id, c.id]
        const upper = (email: string) => email.toUpperCase()
        const prefix = a.email.slice(0, a.email.lastIndexOf("-") + 1)

        // each filter is asked about the three members only; the answer is oldest first
        const cases: ReadonlyArray<readonly [Record<string, unknown>, ReadonlyArray<string>]> = [
          [{ id: a.id }, [a.id]],
          [{ id: { $eq: c.id } }, [c.id]],
          [{ id: 5 }, []],
          [{ loginEmail: upper(a.email) }, [a.id]],
          [{ loginEmail: { $eq: upper(b.email) } }, [b.id]],
          [{ loginEmail: { $ne: upper(b.email) } }, [a.id, c.id]],
          [{ loginEmail: { $in: [upper(b.email), "nobody@example.com"] } }, [b.id]],
          [{ loginEmail: { $hasSome: [c.email] } }, [c.id]],
          [{ loginEmail: { $nin: [upper(a.email)] } }, [b.id, c.id]],
          [{ status: { $nin: ["BLOCKED"] }, loginEmail: { $nin: [c.email] } }, [a.id]],
          [{ status: { $in: ["APPROVED", "BLOCKED"], $nin: ["BLOCKED"] } }, [a.id, c.id]],
          [{ $or: [{ id: { $nin: [a.id, b.id] } }, { id: a.id }] }, [a.id, c.id]],
          [{ status: "BLOCKED" }, [b.id]],
          [{ status: { $ne: "BLOCKED" } }, [a.id, c.id]],
          [{ "contact.firstName": { $exists: true } }, [a.id]],
          [{ "contact.firstName": { $exists: false } }, [b.id, c.id]],
          [{ "contact.firstName": null }, [b.id, c.id]],
          [{ "contact.firstName": { $ne: null } }, [a.id]],
          [{ "contact.firstName": { $gte: "Ad", $lt: "Ae" } }, [a.id]],
          [{ "contact.lastName": { $exists: true } }, []],
          [{ loginEmail: { $startsWith: upper(prefix) } }, ids],
          [{ loginEmail: { $startsWith: "nobody" } }, []],
          [{ createdDate: { $gte: { $date: "2000-01-01T00:00:00Z" } } }, ids],
          [{ createdDate: { $lt: { $date: "2000-01-01T00:00:00.000Z" } } }, []],
          [{ createdDate: { $gt: "2000", $lte: "2999" } }, ids],
          [{ createdDate: { $gt: 2000 } }, []],
          [{ $and: [] }, ids],
          [{ $or: [] }, []],
          [{ $not: { id: { $in: [a.id, b.id] } } }, [c.id]],
          [{ $and: [{ id: { $ne: c.id } }, { $or: [{ status: "BLOCKED" }, { "contact.firstName": { $exists: true } }] }] }, [a.id, b.id]],
          [{ $or: [{ $and: [{ id: a.id }, { status: "APPROVED" }] }, { $not: { $or: [{ id: a.id }, { status: "APPROVED" }] } }] }, [a.id, b.id]],
          // the data language's forms: $not on a field, $not holding a one-filter list, text tests without case
          [{ status: { $not: { $eq: "BLOCKED" } } }, [a.id, c.id]],
          [{ $not: [{ status: "BLOCKED" }] }, [a.id, c.id]],
          [{ "contact.firstName": { $startsWith: "aD" } }, [a.id]]
        ]
        for (const [filter, expected] of cases) {
          const answer = yield* query({ fieldsets: ["FULL"], query: { filter: { $and: [{ id: { $in: ids } }, filter] }, paging: { limit: 50 } } })
          expectStatus(answer, 200, JSON.stringify(filter))
          assert.deepStrictEqual(answer.body.members.map((m: { id: string }) => m.id), expected, JSON.stringify(filter))
          assert.strictEqual(answer.body.metadata.total, expected.length, JSON.stringify(filter))
        }

        // a search and a filter both hold
        const nickname = b.email.split("@")[0]!
        const searched = yield* query({ search: { expression: nickname.toUpperCase() }, query: { filter: { id: { $in: ids } } } })
        expectStatus(searched, 200, "search")
        assert.deepStrictEqual(searched.body.members.map((m: { id: string }) => m.id), [b.id])
        const none = yield* query({ search: { expression: nickname }, query: { filter: { id: a.id } } })
        assert.deepStrictEqual(none.body.members, [])
      }))

    it.effect("a filter the call does not take is a 400 naming the filter, never a 5xx", () =>
      Effect.gen(function*() {
        let nested: Record<string, unknown> = { id: "x" }
        for (let i = 0; i < 60; i++) nested = { $and: [nested] }
        const bad: ReadonlyArray<readonly [string, unknown]> = [
          ["$hasAll", { loginEmail: { $hasAll: ["a@example.com"] } }],
          ["$contains", { loginEmail: { $contains: "example" } }],
          ["$endsWith", { loginEmail: { $endsWith: ".com" } }],
          ["$matches", { loginEmail: { $matches: { ignoreCase: true, spec: [{ type: "literal", value: "a" }] } } }],
          ["$regex", { loginEmail: { $regex: "a.*" } }],
          ["an unknown operator", { loginEmail: { $like: "a%" } }],
          ["an unknown top-level operator", { $nor: [{ id: "x" }] }],
          ["an unknown field", { passwordHash: "x" }],
          ["an unknown field under $or", { $or: [{ id: "x" }, { passwordHash: "x" }] }],
          ["an unknown field under $not", { $not: { "profile.secret": { $exists: true } } }],
          ["$in without a list", { id: { $in: "x" } }],
          ["$nin without a list", { id: { $nin: "x" } }],
          ["$hasSome without a list", { id: { $hasSome: 1 } }],
          ["a list of objects", { id: { $in: [{ a: 1 }] } }],
          ["an object to compare", { createdDate: { $gt: { a: 1 } } }],
          ["an object to equal", { loginEmail: { $eq: { a: 1 } } }],
          ["a list to equal", { id: [1, 2] }],
          ["an empty condition", { loginEmail: {} }],
          ["$exists not true or false", { lastLoginDate: { $exists: "yes" } }],
          ["$startsWith not text", { loginEmail: { $startsWith: 5 } }],
          ["$and not a list", { $and: { id: "x" } }],
          ["$or not a list", { $or: "x" }],
          ["a filter that is a list", []],
          ["a filter that is text", "id = 1"],
          ["a filter nested too deep", nested],
          // the data language's rules: no null to order by or to list
          ["null to compare", { createdDate: { $gt: null } }],
          ["null in a list", { id: { $in: ["x", null] } }],
          ["$not of an empty list", { $not: [] }]
        ]
        for (const [what, filter] of bad) {
          const answer = yield* query({ query: { filter } })
          expectStatus(answer, 400, what)
          assert.isString(answer.body?.message, what)
          const field = answer.body?.details?.validationError?.fieldViolations?.[0]?.field
          assert.isTrue(typeof field === "string" && field.startsWith("query.filter"), `${what}: ${answer.text}`)
        }
      }))
  })
})
