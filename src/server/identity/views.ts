/**
 * How member records look on the wire: the identity service's `Identity` and the members service's
 * `Member`, both typed by the shared session wire schemas.
 */
import type { Identity, Member, MemberStatus } from "../../session/wire/index.ts"
import { isoDate } from "../platform/ServerClock.ts"
import type { FactorRecord, MemberRecord } from "../accounts/MemberStore.ts"

export const identityOf = (member: MemberRecord, factors: ReadonlyArray<FactorRecord>): Identity => ({
  id: member.id,
  revision: String(member.revision),
  createdDate: isoDate(member.createdAt),
  updatedDate: isoDate(member.updatedAt),
  identityProfile: member.profile,
  email: { address: member.email, isVerified: member.emailVerified },
  status: { name: member.status, reasons: member.reasons },
  factors: factors.map((f) => ({ factorId: f.id, type: f.type, status: "ACTIVE" as const }))
})

const memberStatus = (member: MemberRecord): MemberStatus => {
  switch (member.status) {
    case "ACTIVE":
      return "APPROVED"
    case "PENDING":
      return "PENDING"
    case "BLOCKED":
      return "BLOCKED"
    case "OFFLINE":
      return "OFFLINE"
    default:
      return "UNKNOWN"
  }
}

const slugOf = (text: string): string =>
  text.toLowerCase().replace(/[^a-z0-9]+/g, "-").replace(/^-+|-+$/g, "") || "member"

export const memberOf = (member: MemberRecord): Member => {
  const profile = member.profile
  const nickname = profile.nickname ?? member.email.split("@")[0] ?? member.email
  return {
    id: member.id,
    loginEmail: member.email,
    loginEmailVerified: member.emailVerified,
    status: memberStatus(member),
    contactId: member.contactId,
    contact: {
      ...(profile.firstName === undefined ? {} : { firstName: profile.firstName }),
      ...(profile.lastName === undefined ? {} : { lastName: profile.lastName }),
      ...(profile.phones === undefined ? {} : { phones: profile.phones }),
      emails: [member.email],
      ...(profile.addresses === undefined ? {} : { addresses: profile.addresses })
    },
    profile: {
      nickname,
      slug: slugOf(nickname),
      ...(profile.picture === undefined || profile.picture === null ? {} : { photo: { url: profile.picture } })
    },
    privacyStatus: profile.privacyStatus ?? "PRIVATE",
    activityStatus: "ACTIVE",
    createdDate: isoDate(member.createdAt),
    updatedDate: isoDate(member.updatedAt),
    ...(member.lastLoginAt === undefined ? {} : { lastLoginDate: isoDate(member.lastLoginAt) })
  }
}
