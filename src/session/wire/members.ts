/** The member's own record (`GET /members/v1/members/my`). */
import * as Schema from "effect/Schema"
import { MEMBER_STATUSES } from "../protocol.ts"
import { AddressWrapper } from "./identity.ts"

/** Where a member's account stands: pending approval, approved, blocked or offline. */
export const MemberStatus = Schema.Literals(MEMBER_STATUSES)
/** Where a member's account stands: pending approval, approved, blocked or offline. */
export type MemberStatus = typeof MemberStatus.Type

/** A member's contact details in their record: names, phones, emails and addresses. */
export const MemberContact = Schema.Struct({
  firstName: Schema.optionalKey(Schema.NullOr(Schema.String)),
  lastName: Schema.optionalKey(Schema.NullOr(Schema.String)),
  phones: Schema.optionalKey(Schema.Array(Schema.String)),
  emails: Schema.optionalKey(Schema.Array(Schema.String)),
  addresses: Schema.optionalKey(Schema.Array(AddressWrapper))
})

/** A member's public profile in their record: nickname, slug, photo and title. */
export const MemberProfile = Schema.Struct({
  nickname: Schema.optionalKey(Schema.NullOr(Schema.String)),
  slug: Schema.optionalKey(Schema.NullOr(Schema.String)),
  photo: Schema.optionalKey(Schema.Struct({ url: Schema.optionalKey(Schema.String) })),
  title: Schema.optionalKey(Schema.NullOr(Schema.String))
})

/** The signed-in member's own record, as `GET /members/v1/members/my` answers it: login email, status, contact and profile. */
export const Member = Schema.Struct({
  id: Schema.String,
  loginEmail: Schema.optionalKey(Schema.String),
  loginEmailVerified: Schema.optionalKey(Schema.Boolean),
  status: Schema.optionalKey(MemberStatus),
  contactId: Schema.optionalKey(Schema.String),
  contact: Schema.optionalKey(MemberContact),
  profile: Schema.optionalKey(MemberProfile),
  privacyStatus: Schema.optionalKey(Schema.String),
  activityStatus: Schema.optionalKey(Schema.String),
  createdDate: Schema.optionalKey(Schema.String),
  updatedDate: Schema.optionalKey(Schema.String),
  lastLoginDate: Schema.optionalKey(Schema.String)
})
/** The signed-in member's own record, as `GET /members/v1/members/my` answers it: login email, status, contact and profile. */
export type Member = typeof Member.Type

/** What `GET /members/v1/members/my` answers (the member atom of `sitefx/react` reads it): the signed-in member's record. */
export const MyMemberResponse = Schema.Struct({ member: Member })
/** What `GET /members/v1/members/my` answers (the member atom of `sitefx/react` reads it): the signed-in member's record. */
export type MyMemberResponse = typeof MyMemberResponse.Type
