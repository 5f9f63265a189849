/** sitefx/dev's member administration against a real platform: list, approve, block, require a reset, factors. */
import { assert, describe, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import { Members, Settings } from "../../src/dev/index.ts"
import { LocalPlatform } from "../../src/server/index.ts"
import { login, post, registerMember, uniqueEmail, visitor } from "../server/support.ts"
import { onDev } from "./support.ts"

/** Logs in and gives the platform's answer as it is (state, or the refusal's code). */
const tryLogin = (email: string, password: string) =>
  Effect.gen(function*() {
    const guest = yield* visitor
    const res = yield* post("/_api/iam/authentication/v2/login", { loginId: { email }, password }, guest.access_token)
    return res.status === 200 ? res.body.state as string : res.body.details.applicationError.code as string
  })

describe("sitefx/dev Members", () => {
  it.layer(LocalPlatform.layer({ seed: "demo" }), { excludeTestServices: true })((it) => {
    it.effect("lists every member or the one with an email; a member waiting for approval is approved", () =>
      onDev(Effect.gen(function*() {
        yield* Settings.update({ ownerApproval: true })
        const email = uniqueEmail("pending")
        const guest = yield* visitor
        const registered = yield* post("/_api/iam/authentication/v2/register", { loginId: { email }, password: "secret-pass-1" }, guest.access_token)
        assert.strictEqual(registered.body.state, "REQUIRE_OWNER_APPROVAL")
        yield* Settings.update({ ownerApproval: false })
        const [pending] = yield* Members.list({ email })
        assert.strictEqual(pending?.status?.name, "PENDING")
        assert.isTrue((yield* Members.list()).some((m) => m.id === pending!.id))
        const approved = yield* Members.approve(pending!.id)
        assert.strictEqual(approved.id, pending!.id)
        assert.strictEqual(approved.status?.name, "ACTIVE")
        assert.strictEqual(yield* tryLogin(email, "secret-pass-1"), "SUCCESS")
      })))

    it.effect("a blocked member cannot log in; one who must reset their password cannot either", () =>
      onDev(Effect.gen(function*() {
        const blocked = yield* registerMember()
        assert.strictEqual((yield* Members.block(blocked.id)).status?.name, "BLOCKED")
        assert.strictEqual(yield* tryLogin(blocked.email, blocked.password), "MEMBER_BLOCKED")
        const resetting = yield* registerMember()
        yield* login(resetting.email, resetting.password)
        assert.strictEqual((yield* Members.requireReset(resetting.id)).id, resetting.id)
        assert.notStrictEqual(yield* tryLogin(resetting.email, resetting.password), "SUCCESS")
      })))

    it.effect("factors are enrolled (a TOTP secret comes back) and removed; an SMS factor needs a phone", () =>
      onDev(Effect.gen(function*() {
        const member = yield* registerMember()
        const totp = yield* Members.enrollFactor(member.id, { type: "TOTP" })
        assert.match(totp.secret ?? "", /^[A-Z2-7]+=*$/)
        const sms = yield* Members.enrollFactor(member.id, { type: "SMS", phone: " +15550100 " })
        assert.isUndefined(sms.secret)
        const [enrolled] = yield* Members.list({ email: member.email })
        assert.sameMembers(enrolled!.factors!.map((f) => `${f.factorId}:${f.type}`), [`${totp.factorId}:TOTP`, `${sms.factorId}:SMS`])
        const noPhone = yield* Effect.flip(Members.enrollFactor(member.id, { type: "SMS", phone: " " }))
        assert.strictEqual(noPhone.status, 400)
        yield* Members.removeFactor(member.id, totp.factorId)
        const [after] = yield* Members.list({ email: member.email })
        assert.deepStrictEqual(after!.factors!.map((f) => f.factorId), [sms.factorId])
        const again = yield* Effect.flip(Members.removeFactor(member.id, totp.factorId))
        assert.strictEqual(again.status, 404)
      })))

    it.effect("an unknown member is a 404 MEMBER_NOT_FOUND, whatever the call", () =>
      onDev(Effect.gen(function*() {
        const calls = [
          Effect.asVoid(Members.approve("nobody")),
          Effect.asVoid(Members.block("nobody")),
          Effect.asVoid(Members.requireReset("nobody")),
          Effect.asVoid(Members.enrollFactor("nobody", { type: "EMAIL" }))
        ]
        for (const call of calls) {
          const error = yield* Effect.flip(call)
          assert.strictEqual(error.status, 404)
          assert.strictEqual(error.code, "MEMBER_NOT_FOUND")
        }
        assert.deepStrictEqual(yield* Members.list({ email: "nobody@example.com" }), [])
      })))
  })
})
