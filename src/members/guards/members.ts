/**
 * Guards of the members admin answers the client reads, without Schema. The Schemas of the same shapes
 * are in `../wire/members.ts`; test/members/guards.test.ts keeps each guard's type equal to its Schema's.
 */
import * as G from "../../http/guard.ts"
import { Member as SessionMember } from "../../session/guards/members.ts"

const opt = G.optional

/** The member: the same object `members/my` answers. */
export const Member = SessionMember

export const PagingMetadata = G.struct({
  count: opt(G.number),
  offset: opt(G.number),
  total: opt(G.number),
  tooManyToCount: opt(G.boolean)
})

/** `{member}`: get, approve, block. */
export const MemberResponse = G.struct({ member: Member })

/** `{members, metadata}`: list and query (an empty page may leave `members` out). */
export const MembersPageResponse = G.struct({ members: opt(G.array(Member)), metadata: opt(PagingMetadata) })
