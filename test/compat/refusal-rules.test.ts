/**
 * The rule a refusal names (`details.rule`) is for sitefx and people: the official clients, unchanged,
 * see their usual errors, the rule a key beside the ones they read. A visitor's insert into a members-only collection, made by the
 * official `@wix/data` client and by sitefx against one local platform: the official error is the
 * WDE0027 application error it always was, and sitefx's DataError exposes the rule typed, with the
 * collection, the operation, the role it requires and the caller's.
 */
import { assert, describe, it } from "@effect/vitest"
import { items } from "@wix/data"
import { createClient, OAuthStrategy } from "@wix/sdk"
import * as Effect from "effect/Effect"
import type { DataError } from "../../src/data/DataError.ts"
import * as DataItems from "../../src/data/DataItems.ts"
import { officialClientsOnLocalPlatform } from "../support/official.ts"
import { asVisitor, freshCollection } from "../data/support.ts"

const onLocal = officialClientsOnLocalPlatform()

const MEMBERS_ONLY = { read: "ANYONE", insert: "SITE_MEMBER", update: "SITE_MEMBER", remove: "SITE_MEMBER" } as const

describe("a refusal's rule beside the official clients' error shapes", () => {
  it("a visitor's insert into a members-only collection: the official client sees WDE0027 as always, sitefx sees the rule", async () => {
    const c = await onLocal.run(freshCollection("MembersOnly", { permissions: MEMBERS_ONLY }))

    const official = createClient({ modules: { items }, auth: OAuthStrategy({ clientId: onLocal.platform.clientId }) }).items
    const error: any = await official.insert(c, { title: "hello" }).then(
      (value) => assert.fail(`expected a refusal, got ${JSON.stringify(value)}`),
      (e: unknown) => e
    )
    assert.strictEqual(error.details.applicationError.code, "WDE0027")
    assert.match(error.details.applicationError.description, /^WDE0027: The current user does not have permissions to insert on the /)
    // its message and application error are what they always were; the rule rides along beside them, untouched
    assert.strictEqual(error.message, error.details.applicationError.description)
    assert.deepStrictEqual(Object.keys(error.details.applicationError).sort(), ["code", "description"])
    assert.deepStrictEqual(Object.keys(error.details).sort(), ["applicationError", "rule"])

    const refused = await onLocal.run(asVisitor(Effect.flip(DataItems.insert(c, { title: "hello" })))) as DataError
    assert.strictEqual(refused._tag, "DataError")
    assert.strictEqual(refused.code, "WDE0027")
    const rule = refused.rule
    assert.isDefined(rule)
    if (rule?.kind !== "permission") return assert.fail(`expected a permission rule, got ${JSON.stringify(rule)}`)
    assert.strictEqual(rule.id, "data.permission")
    assert.strictEqual(rule.collection, c)
    assert.strictEqual(rule.operation, "insert")
    assert.strictEqual(rule.required, "SITE_MEMBER")
    assert.strictEqual(rule.caller, "visitor")
    assert.strictEqual(rule.message, `insert on the ${c} collection requires SITE_MEMBER; the caller is a visitor`)
  })
})
