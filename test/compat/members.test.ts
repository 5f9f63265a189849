/**
 * The platform's official `members` module of `@wix/members`, unchanged, on `@wix/sdk` with an API key,
 * against the local platform (its fixed host rewritten to it for this file): listMembers, queryMembers,
 * getMember, approveMember and blockMember work, and each of sitefx's Members functions sends what the
 * official one sends for the same call (method, path, query parameters with `.r` as the JSON it holds,
 * JSON body; key order aside).
 */
import { assert, describe, it } from "@effect/vitest"
import { members } from "@wix/members"
import * as Members from "../../src/members/Members.ts"
import { officialClient, rejection } from "../support/store.ts"
import { wireOnLocalPlatform } from "../support/wire.ts"

const { compare, raw } = wireOnLocalPlatform({ members })

/** The global fetch of this file reaches the local platform through the official host. */
const HOST = "https://www.wixapis.com"
const PASSWORD = "secret-pass-1"

const json = async (res: Response): Promise<any> => {
  const text = await res.text()
  assert.strictEqual(res.status, 200, text)
  return JSON.parse(text)
}

const site = async (): Promise<{ clientId: string; siteId: string; apiKey: string }> => json(await raw("GET", "/_sitefx/site"))

const visitorToken = async (): Promise<string> => {
  const { clientId } = await site()
  const tokens = await json(await fetch(`${HOST}/oauth2/token`, { method: "POST", body: JSON.stringify({ clientId, grantType: "anonymous" }) }))
  return tokens.access_token
}

const identityCall = async (path: string, body: unknown): Promise<any> =>
  (await fetch(`${HOST}/_api/iam/authentication/v2/${path}`, {
    method: "POST",
    headers: { authorization: await visitorToken(), "content-type": "application/json" },
    body: JSON.stringify(body)
  })).json()

let counter = 0
/** Registers a member (waiting for the owner's approval when `pending`); its e-mail and id. */
const register = async (pending = false): Promise<{ email: string; id: string }> => {
  if (pending) await json(await raw("PATCH", "/_sitefx/settings", { ownerApproval: true }))
  try {
    const email = `official-${Date.now().toString(36)}-${counter++}@example.com`
    const answer = await identityCall("register", { loginId: { email }, password: PASSWORD })
    assert.strictEqual(answer.state, pending ? "REQUIRE_OWNER_APPROVAL" : "SUCCESS", JSON.stringify(answer))
    return { email, id: answer.identity.id }
  } finally {
    if (pending) await json(await raw("PATCH", "/_sitefx/settings", { ownerApproval: false }))
  }
}

const loginState = async (email: string): Promise<string> => (await identityCall("login", { loginId: { email }, password: PASSWORD })).state

describe("official @wix/members members module against the local platform", () => {
  it("listMembers: paging as .r, fieldsets as a plain parameter; _id and Dates on the way back", async () => {
    const made = [await register(), await register(), await register()]
    let everyone: members.ListMembersResponse = {}
    await compare(
      "list, FULL, no paging",
      async (o) => (everyone = await o.members.listMembers({ fieldsets: ["FULL"] })),
      Members.list()
    )
    const ids = (everyone.members ?? []).map((m) => m._id)
    const at = ids.indexOf(made[0]!.id)
    assert.isAtLeast(at, 0)
    assert.deepStrictEqual(ids.slice(at, at + 3), made.map((m) => m.id))
    assert.strictEqual(everyone.metadata?.total, ids.length)

    let page: members.ListMembersResponse = {}
    const sent = await compare(
      "list, FULL, limit and offset",
      async (o) => (page = await o.members.listMembers({ paging: { limit: 2, offset: at + 1 }, fieldsets: ["FULL"] })),
      Members.list({ limit: 2, offset: at + 1 })
    )
    assert.deepStrictEqual(sent.map((r) => [r.method, r.path, Object.keys(r.query)]), [["GET", "/members/v1/members", [".r"]]])
    assert.deepStrictEqual(page.members?.map((m) => m._id), [made[1]!.id, made[2]!.id])
    const member = page.members![0]!
    assert.strictEqual(member.loginEmail, made[1]!.email)
    assert.strictEqual(member.status, "APPROVED")
    assert.instanceOf(member._createdDate, Date)
    assert.deepStrictEqual(page.metadata, { count: 2, offset: at + 1, total: ids.length })

    // the official default: PUBLIC, without e-mail and with the statuses UNKNOWN
    const { siteId, apiKey } = await site()
    const plain = await officialClient({ members }, { apiKey, siteId }).members.listMembers({ paging: { limit: 1, offset: at } })
    assert.strictEqual(plain.members?.[0]?._id, made[0]!.id)
    assert.isUndefined(plain.members?.[0]?.loginEmail)
    assert.strictEqual(plain.members?.[0]?.status, "UNKNOWN")
  })

  it("queryMembers: the builder's filter and paging; the typed query", async () => {
    const made = await register()
    let found: Array<members.Member> = []
    const sent = await compare(
      "query by status and e-mail",
      async (o) => {
        const result = await o.members.queryMembers({ fieldsets: ["FULL"] }).eq("status", "APPROVED").eq("loginEmail", made.email).limit(100).find()
        found = result.items
      },
      Members.query({ status: "APPROVED", loginEmail: made.email })
    )
    assert.deepStrictEqual(sent.map((r) => [r.method, r.path]), [["POST", "/members/v1/members/query"]])
    assert.deepStrictEqual(found.map((m) => m._id), [made.id])

    const { siteId, apiKey } = await site()
    const typed = await officialClient({ members }, { apiKey, siteId }).members.queryMembers(
      { filter: { loginEmail: made.email }, paging: { limit: 10, offset: 0 } },
      { fieldsets: ["EXTENDED"] }
    )
    assert.deepStrictEqual(typed.members?.map((m) => [m._id, m.loginEmail]), [[made.id, made.email]])
  })

  it("getMember: by id, with fieldsets; an unknown id is MEMBER_NOT_FOUND", async () => {
    const made = await register()
    let got: members.Member | undefined
    const sent = await compare("get, FULL", async (o) => (got = await o.members.getMember(made.id, { fieldsets: ["FULL"] })), Members.get(made.id))
    assert.deepStrictEqual(sent.map((r) => [r.method, r.path, r.query]), [["GET", `/members/v1/members/${made.id}`, { id: made.id, fieldsets: "FULL" }]])
    assert.strictEqual(got?._id, made.id)
    assert.strictEqual(got?.loginEmail, made.email)
    assert.deepStrictEqual(got?.contact?.emails, [made.email])

    const { siteId, apiKey } = await site()
    const missing = await rejection(officialClient({ members }, { apiKey, siteId }).members.getMember("no-such-member"))
    assert.strictEqual(missing.details?.applicationError?.code, "MEMBER_NOT_FOUND")
  })

  it("approveMember lets a pending member in; blockMember shuts them out; approveMember unblocks", async () => {
    const made = await register(true)
    assert.strictEqual(await loginState(made.email), "REQUIRE_OWNER_APPROVAL")

    let approved: members.ApproveMemberResponse = {}
    const sent = await compare("approve", async (o) => (approved = await o.members.approveMember(made.id)), Members.approve(made.id))
    assert.deepStrictEqual(sent.map((r) => [r.method, r.path, r.body]), [["POST", `/members/v1/members/${made.id}/approve`, { id: made.id }]])
    assert.strictEqual(approved.member?._id, made.id)
    assert.strictEqual(approved.member?.status, "APPROVED")
    assert.instanceOf(approved.member?._updatedDate, Date)
    assert.strictEqual(await loginState(made.email), "SUCCESS")

    let blocked: members.BlockMemberResponse = {}
    await compare("block", async (o) => (blocked = await o.members.blockMember(made.id)), Members.block(made.id))
    assert.strictEqual(blocked.member?.status, "BLOCKED")
    const refused = await identityCall("login", { loginId: { email: made.email }, password: PASSWORD })
    assert.strictEqual(refused.details?.applicationError?.code, "MEMBER_BLOCKED")

    await compare("unblock", (o) => o.members.approveMember(made.id), Members.approve(made.id))
    assert.strictEqual(await loginState(made.email), "SUCCESS")
  })
})
