/**
 * The client's guards of the members admin answers have exactly the types of the wire Schemas the local
 * platform answers with (checked by the compiler), and agree with them on what they refuse.
 */
import { assert, describe, it } from "@effect/vitest"
import * as Schema from "effect/Schema"
import * as G from "../../src/members/guards/members.ts"
import type { TypeOf } from "../../src/http/guard.ts"
import * as W from "../../src/members/wire/index.ts"
import { sameType } from "../support/types.ts"

describe("members admin answer guards", () => {
  it("have their Schemas' types", () => {
    sameType<TypeOf<typeof G.Member>, typeof W.Member.Type>(true)
    sameType<TypeOf<typeof G.PagingMetadata>, typeof W.PagingMetadata.Type>(true)
    sameType<TypeOf<typeof G.MemberResponse>, typeof W.MemberResponse.Type>(true)
    sameType<TypeOf<typeof G.MembersPageResponse>, typeof W.MembersPageResponse.Type>(true)
  })

  it("agree with their Schemas on answers and on broken ones", () => {
    const cases: ReadonlyArray<unknown> = [
      { members: [{ id: "m", loginEmail: "a@b.c", status: "APPROVED" }], metadata: { count: 1, offset: 0, total: 1 } },
      {},
      { members: [{ id: 7 }] },
      { members: [{ id: "m", status: "SLEEPING" }] },
      { metadata: { total: "1" } },
      { members: "none" }
    ]
    const schemaSays = Schema.is(W.MembersPageResponse)
    for (const value of cases) assert.strictEqual(G.MembersPageResponse(value) === undefined, schemaSays(value), JSON.stringify(value))
  })
})
