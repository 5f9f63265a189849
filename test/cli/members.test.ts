/**
 * `sitefx members ...` as an admin's script runs it: a process against a local platform, judged by its
 * exit code, its output and what the platform does afterwards (a member approved may log in, a member
 * blocked loses their session).
 */
import { describe, expect, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Redacted from "effect/Redacted"
import type { PlatformClient } from "../../src/http/PlatformClient.ts"
import { matching } from "../../src/cli/members.ts"
import * as Members from "../../src/members/Members.ts"
import { DEMO_MEMBER_EMAIL } from "../../src/server/accounts/seed.ts"
import { Site } from "../../src/Site.ts"
import { codeOf, login, post, registerMember, uniqueEmail, visitor, withSettings } from "../server/support.ts"
import { LocalPlatform } from "../support/platform.ts"
import { cli } from "./support.ts"

const PASSWORD = "secret-pass-1"
const REGISTER = "/_api/iam/authentication/v2/register"
const LOGIN = "/_api/iam/authentication/v2/login"

const run = (args: ReadonlyArray<string>, options: Parameters<typeof cli>[1] = {}) =>
  Effect.gen(function*() {
    const platform = yield* LocalPlatform
    return yield* Effect.promise(() => cli([...args, "--base-url", platform.url], options))
  })

interface ListedMember {
  readonly id: string
  readonly loginEmail?: string
  readonly status?: string
  readonly profile?: { readonly nickname?: string }
  readonly createdDate?: string
}

const listed = (stdout: string) => JSON.parse(stdout) as { members: ReadonlyArray<ListedMember>; total: number }

/** The table's row of a member: its cells, split on the column gaps. */
const rowOf = (stdout: string, id: string) => stdout.split("\n").find((line) => line.startsWith(id))?.split(/\s{2,}/)

/** The effect with the platform's API-key client, as the command runs it. */
const asAdmin = <A, E>(effect: Effect.Effect<A, E, PlatformClient>) =>
  Effect.gen(function*() {
    const platform = yield* LocalPlatform
    return yield* Effect.provide(effect, Layer.fresh(Site.apiKey({ apiKey: Redacted.value(platform.apiKey), baseUrl: platform.url })), { local: true })
  })

const asVisitor = (path: string, body: unknown) => Effect.flatMap(visitor, (guest) => post(path, body, guest.access_token))

describe("sitefx members", () => {
  it.layer(LocalPlatform.layer({ seed: "demo" }), { excludeTestServices: true })((it) => {
    it.effect("list: the site's members as a table, or one JSON object with --json", () =>
      Effect.gen(function*() {
        const text = yield* run(["members", "list"])
        expect(text.stderr).not.toMatch(/sitefx:|Error/)
        expect(text.code).toBe(0)
        expect(text.stdout.split("\n")[0]).toMatch(/^id\s+login email\s+status\s+nickname\s+created$/)
        const json = yield* run(["members", "list", "--json"])
        expect(json.code).toBe(0)
        const { members, total } = listed(json.stdout)
        const demo = members.find((m) => m.loginEmail === DEMO_MEMBER_EMAIL)
        expect(demo).toMatchObject({ status: "APPROVED", profile: { nickname: "demo" } })
        expect(total).toBe(members.length)
        const row = rowOf(text.stdout, demo!.id)
        expect(row?.slice(0, 4)).toEqual([demo!.id, DEMO_MEMBER_EMAIL, "APPROVED", "demo"])
        expect(Date.parse(row![4]!)).toBe(Date.parse(demo!.createdDate!.replace(/\.\d+Z$/, "Z")))
      }))

    it.effect("list: every page without --limit; --limit, --email and --status narrow it, total tells how many match", () =>
      Effect.gen(function*() {
        const made: Array<{ email: string; id: string }> = []
        for (let i = 0; i < 3; i++) made.push(yield* registerMember(PASSWORD))
        const all = listed((yield* run(["members", "list", "--json"])).stdout)
        expect(all.members.map((m) => m.id)).toEqual(expect.arrayContaining(made.map((m) => m.id)))

        const two = yield* run(["members", "list", "--limit", "2", "--json"])
        expect(two.code).toBe(0)
        expect(listed(two.stdout)).toEqual({ members: all.members.slice(0, 2), total: all.total })
        const twoText = yield* run(["members", "list", "-n", "2"])
        expect(twoText.stdout.trim().split("\n")).toHaveLength(3)
        expect(twoText.stderr).toContain(`2 of ${all.total} members`)

        const one = yield* run(["members", "list", "--email", made[1]!.email.toUpperCase(), "--json"])
        expect(listed(one.stdout)).toMatchObject({ members: [{ id: made[1]!.id, loginEmail: made[1]!.email }], total: 1 })
        const approved = listed((yield* run(["members", "list", "--status", "APPROVED", "--json"])).stdout)
        expect(approved.members.every((m) => m.status === "APPROVED")).toBe(true)
        expect(approved.members.map((m) => m.id)).toEqual(expect.arrayContaining(made.map((m) => m.id)))

        const none = yield* run(["members", "list", "--email", "nobody@example.com"])
        expect(none.code).toBe(0)
        expect(none.stdout).toBe("")
        expect(none.stderr).toContain("no member with login email nobody@example.com")

        const badLimit = yield* run(["members", "list", "--limit", "0"])
        expect(badLimit.code).toBe(2)
        expect(badLimit.stderr.trim()).toBe("sitefx: --limit must be at least 1")
        const badStatus = yield* run(["members", "list", "--status", "ACTIVE"])
        expect(badStatus.code).toBe(2)
      }))

    it.effect("list pages: every page in order, --limit across pages, a filter across pages, the total of the matches", () =>
      Effect.gen(function*() {
        for (let i = 0; i < 4; i++) yield* registerMember(PASSWORD)
        const everyone = yield* asAdmin(Members.list({ limit: 1000 }))
        const ids = everyone.members.map((m) => m.id)
        const none = { status: undefined, email: undefined, limit: undefined }
        const paged = yield* asAdmin(matching({ ...none, pageSize: 2 }))
        expect(paged.members.map((m) => m.id)).toEqual(ids)
        expect(paged.total).toBe(everyone.total)
        const three = yield* asAdmin(matching({ ...none, limit: 3, pageSize: 2 }))
        expect({ ids: three.members.map((m) => m.id), total: three.total }).toEqual({ ids: ids.slice(0, 3), total: everyone.total })
        const approved = yield* asAdmin(matching({ ...none, status: "APPROVED", pageSize: 2 }))
        expect(approved.members.map((m) => m.id)).toEqual(everyone.members.filter((m) => m.status === "APPROVED").map((m) => m.id))
        expect(approved.total).toBe(approved.members.length)
      }))

    it.effect("approve: a member waiting for approval is PENDING in the list; approved by e-mail, they may log in", () =>
      withSettings({ ownerApproval: true }, Effect.gen(function*() {
        const email = uniqueEmail("pending")
        const registered = yield* asVisitor(REGISTER, { loginId: { email }, password: PASSWORD })
        expect(registered.body.state).toBe("REQUIRE_OWNER_APPROVAL")
        const id = registered.body.identity.id as string

        const pending = yield* run(["members", "list", "--status", "PENDING"])
        expect(pending.code).toBe(0)
        expect(rowOf(pending.stdout, id)?.slice(0, 3)).toEqual([id, email, "PENDING"])
        expect((yield* asVisitor(LOGIN, { loginId: { email }, password: PASSWORD })).body.state).toBe("REQUIRE_OWNER_APPROVAL")

        const approved = yield* run(["members", "approve", email])
        expect(approved.stderr).toBe("")
        expect(approved.code).toBe(0)
        expect(approved.stdout).toBe(`approved ${email} (${id})\n`)
        const tokens = yield* login(email, PASSWORD)
        expect(tokens.identity.id).toBe(id)
        expect(listed((yield* run(["members", "list", "--email", email, "--json"])).stdout).members[0]?.status).toBe("APPROVED")
      })))

    it.effect("block: by id; the member's refresh token stops working and they cannot log in; approve unblocks", () =>
      Effect.gen(function*() {
        const member = yield* registerMember(PASSWORD)
        const tokens = yield* login(member.email, PASSWORD)
        const platform = yield* LocalPlatform
        const refresh = () => post("/oauth2/token", { clientId: platform.clientId, grantType: "refresh_token", refreshToken: tokens.refresh_token })
        expect((yield* refresh()).status).toBe(200)

        const blocked = yield* run(["members", "block", member.id])
        expect(blocked.stderr).toBe("")
        expect(blocked.code).toBe(0)
        expect(blocked.stdout).toBe(`blocked ${member.email} (${member.id})\n`)
        const refused = yield* refresh()
        expect(refused.status).toBe(400)
        expect(codeOf(refused)).toBe("invalid_grant")
        const again = yield* asVisitor(LOGIN, { loginId: { email: member.email }, password: PASSWORD })
        expect(codeOf(again)).toBe("MEMBER_BLOCKED")
        expect(listed((yield* run(["members", "list", "--status", "BLOCKED", "--json"])).stdout).members.map((m) => m.id)).toContain(member.id)

        const unblocked = yield* run(["members", "approve", member.id, "--json"])
        expect(unblocked.code).toBe(0)
        expect(JSON.parse(unblocked.stdout)).toMatchObject({ approved: [{ id: member.id, status: "APPROVED" }], failed: [] })
        expect((yield* login(member.email, PASSWORD)).identity.id).toBe(member.id)
      }))

    it.effect("an unknown id or e-mail is reported and exits 1, while the known members of the same call are done", () =>
      Effect.gen(function*() {
        const a = yield* registerMember(PASSWORD)
        const b = yield* registerMember(PASSWORD)
        const result = yield* run(["members", "block", "no-such-member", a.email, "nobody@example.com", b.id])
        expect(result.code).toBe(1)
        expect(result.stdout).toBe(`blocked ${a.email} (${a.id})\nblocked ${b.email} (${b.id})\n`)
        expect(result.stderr.trim().split("\n")).toEqual([
          "cannot block no-such-member: no member has the id no-such-member",
          "cannot block nobody@example.com: no member has the login email nobody@example.com",
          "sitefx: 2 of 4 members not blocked"
        ])
        const statuses = listed((yield* run(["members", "list", "--status", "BLOCKED", "--json"])).stdout).members.map((m) => m.id)
        expect(statuses).toEqual(expect.arrayContaining([a.id, b.id]))

        const json = yield* run(["members", "approve", a.id, "no-such-member", "--json"])
        expect(json.code).toBe(1)
        const report = JSON.parse(json.stdout)
        expect(report.approved.map((m: ListedMember) => m.id)).toEqual([a.id])
        expect(report.failed).toEqual([{ member: "no-such-member", code: "MEMBER_NOT_FOUND", message: "no member has the id no-such-member" }])
        expect(json.stderr.trim()).toBe("sitefx: 1 of 2 members not approved: no-such-member")

        const none = yield* run(["members", "approve"])
        expect(none.code).toBe(2)
      }))

    it.effect("a member's token or a wrong key as --api-key is refused with one line and exit 2, and nothing changes", () =>
      Effect.gen(function*() {
        const member = yield* registerMember(PASSWORD)
        const tokens = yield* login(member.email, PASSWORD)
        for (const key of [tokens.access_token, "sfx_key_not-a-key"]) {
          for (const args of [["members", "list"], ["members", "block", member.id]]) {
            const refused = yield* run([...args, "--api-key", key])
            expect(refused.code).toBe(2)
            expect(refused.stdout).toBe("")
            const lines = refused.stderr.trim().split("\n")
            expect(lines).toHaveLength(1)
            expect(lines[0]).toMatch(/^sitefx: http:\/\/127\.0\.0\.1:\d+ refused the API key \(40[13]\): .*; pass an admin key with --api-key or SITEFX_API_KEY$/)
          }
        }
        const still = listed((yield* run(["members", "list", "--email", member.email, "--json"])).stdout)
        expect(still.members[0]?.status).toBe("APPROVED")
      }))

    it.effect("--help documents the command, its subcommands and their flags", () =>
      Effect.gen(function*() {
        const help = yield* run(["members", "--help"])
        expect(help.code).toBe(0)
        for (const sub of ["list", "approve", "block"]) expect(help.stdout).toMatch(new RegExp(`^\\s+${sub}\\s+\\S`, "m"))
        const listHelp = yield* run(["members", "list", "--help"])
        for (const flag of ["--status", "--email", "--limit", "--json", "--api-key", "--base-url"]) expect(listHelp.stdout).toMatch(new RegExp(`${flag}\\b.*\\s{2}\\S`))
      }))
  })
})
