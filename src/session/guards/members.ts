/** Guards of the member's own record. */
import * as G from "../../http/guard.ts"
import { MEMBER_STATUSES } from "../protocol.ts"
import { AddressWrapper } from "./identity.ts"

const str = G.string
const opt = G.optional
const optStr = opt(str)
const nullableStr = opt(G.nullOr(str))
const strings = opt(G.array(str))

const MemberContact = G.struct({ firstName: nullableStr, lastName: nullableStr, phones: strings, emails: strings, addresses: opt(G.array(AddressWrapper)) })
const MemberProfile = G.struct({ nickname: nullableStr, slug: nullableStr, photo: opt(G.struct({ url: optStr })), title: nullableStr })

/** A member as the members API answers it (`members/my`, and the admin calls of `sitefx/members`). */
export const Member = G.struct({
  id: str,
  loginEmail: optStr,
  loginEmailVerified: opt(G.boolean),
  status: opt(G.literals(MEMBER_STATUSES)),
  contactId: optStr,
  contact: opt(MemberContact),
  profile: opt(MemberProfile),
  privacyStatus: optStr,
  activityStatus: optStr,
  createdDate: optStr,
  updatedDate: optStr,
  lastLoginDate: optStr
})

export const MyMemberResponse = G.struct({ member: Member })
