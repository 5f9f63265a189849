/**
 * What the session client needs of the wire at run time, without Schema: the paths, the empty token
 * set, the identity codes, the enumerations, and guards for every answer it reads. The Schemas of the
 * same shapes live in wire.ts (the local platform decodes requests with them); the types come from there
 * and test/http/guards.test.ts keeps each guard's type equal to its Schema's.
 */
import * as G from "../http/guard.ts"
import type * as Wire from "./wire.ts"

export const TOKEN_ROLES = ["none", "visitor", "member"] as const
export const RESPONSE_MODES = ["fragment", "query", "web_message"] as const
export const PROMPTS = ["login", "none", "consent", "select_account"] as const
export const FACTOR_TYPES = ["PASSWORD", "SMS", "CALL", "EMAIL", "TOTP", "PUSH", "WEBAUTHN", "RECOVERY_CODE"] as const
export const FACTOR_STATUSES = ["INACTIVE", "ACTIVE", "REQUIRE_REENROLL"] as const
export const IDENTITY_STATUS_NAMES = ["UNKNOWN_STATUS", "PENDING", "ACTIVE", "DELETED", "BLOCKED", "OFFLINE"] as const
export const IDENTITY_STATUS_REASONS = [
  "UNKNOWN_REASON",
  "PENDING_ADMIN_APPROVAL_REQUIRED",
  "PENDING_EMAIL_VERIFICATION_REQUIRED",
  "PENDING_REQUIRED_FIELDS_MISSING"
] as const
export const STATE_TYPES = [
  "UNKNOWN_STATE",
  "SUCCESS",
  "REQUIRE_OWNER_APPROVAL",
  "REQUIRE_EMAIL_VERIFICATION",
  "REQUIRE_MFA",
  "MFA_CHALLENGE",
  "STATUS_CHECK",
  "REQUIRE_MISSING_FIELDS"
] as const
export const MEMBER_STATUSES = ["UNKNOWN", "PENDING", "APPROVED", "BLOCKED", "OFFLINE"] as const

export const EMPTY_TOKENS: Wire.Tokens = {
  accessToken: { value: "", expiresAt: 0 },
  refreshToken: { value: "", role: "none" }
}

/** Identity error codes the official client maps to login error codes. */
export const IdentityCodes = {
  missingCaptchaToken: "-19971",
  invalidCaptchaToken: "-19970",
  invalidPassword: "-19976",
  resetPassword: "-19973",
  emailAlreadyExists: "-19995"
} as const

/** Paths, relative to the API host. */
export const Paths = {
  token: "/oauth2/token",
  redirectSession: "/_api/redirects-api/v1/redirect-session",
  register: "/_api/iam/authentication/v2/register",
  login: "/_api/iam/authentication/v2/login",
  signOn: "/_api/iam/authentication/v2/sign-on",
  changePassword: "/_api/iam/authentication/v2/change-password",
  logout: "/_api/iam/authentication/v1/logout",
  verifyFactor: (factorType: Wire.FactorType) => `/_api/iam/authentication/v2/${factorType}/verify`,
  verifyDuringAuth: "/_api/iam/verification/v1/auth/verify",
  startVerification: "/_api/iam/verification/v1/start",
  sendRecoveryEmail: "/_api/iam/recovery/v1/send-email",
  activationEmail: "/_api/iam/recovery/v1/activation-email",
  recover: "/_api/iam/recovery/v1/recover",
  myMember: "/members/v1/members/my"
} as const

// ---- guards of the answers ---------------------------------------------------------------------------

const str = G.string
const opt = G.optional
const optStr = opt(str)
const nullableStr = opt(G.nullOr(str))

export const Tokens = G.struct({
  accessToken: G.struct({ value: str, expiresAt: G.number }),
  refreshToken: G.struct({ value: str, role: G.literals(TOKEN_ROLES) })
})

export const OAuthData = G.struct({ state: str, codeVerifier: str, codeChallenge: str, redirectUri: str, originalUri: str })
export const StoredSession = G.struct({ tokens: Tokens, oauthData: opt(OAuthData) })

export const TokenResponse = G.struct({
  access_token: str,
  expires_in: G.number,
  refresh_token: str,
  token_type: str,
  scope: optStr
})

export const RedirectSessionResponse = G.struct({
  redirectSession: G.struct({
    id: str,
    fullUrl: str,
    urlDetails: G.struct({ endpoint: str, searchParams: G.record(str) }),
    sessionToken: optStr
  })
})

export const AuthorizeMessage = G.struct({ state: str, code: optStr, error: optStr, error_description: optStr })

interface CustomValue {
  readonly strValue?: string
  readonly numValue?: number
  readonly dateValue?: string
  readonly listValue?: { readonly value: ReadonlyArray<CustomValue> }
  readonly mapValue?: { readonly value: { readonly [k: string]: CustomValue } }
}
const CustomValue: G.Guard<CustomValue> = G.struct({
  strValue: optStr,
  numValue: opt(G.number),
  dateValue: optStr,
  listValue: opt(G.struct({ value: G.array(G.lazy(() => CustomValue)) })),
  mapValue: opt(G.struct({ value: G.record(G.lazy(() => CustomValue)) }))
})

const Address = G.struct({
  country: optStr,
  subdivision: optStr,
  city: optStr,
  postalCode: optStr,
  addressLine: optStr,
  addressLine2: optStr
})
const AddressWrapper = G.struct({ tag: optStr, address: opt(Address), id: optStr })
const strings = opt(G.array(str))

export const IdentityProfile = G.struct({
  firstName: nullableStr,
  lastName: nullableStr,
  nickname: nullableStr,
  picture: nullableStr,
  emails: strings,
  phones: strings,
  labels: strings,
  language: nullableStr,
  privacyStatus: optStr,
  customFields: opt(G.array(G.struct({ name: str, value: CustomValue }))),
  addresses: opt(G.array(AddressWrapper))
})

const FactorType = G.literals(FACTOR_TYPES)

export const Identity = G.struct({
  id: str,
  revision: optStr,
  createdDate: optStr,
  updatedDate: optStr,
  identityProfile: opt(IdentityProfile),
  email: opt(G.struct({ address: str, isVerified: G.boolean })),
  status: opt(G.struct({ name: G.literals(IDENTITY_STATUS_NAMES), reasons: opt(G.array(G.literals(IDENTITY_STATUS_REASONS))) })),
  factors: opt(G.array(G.struct({ factorId: str, type: FactorType, status: G.literals(FACTOR_STATUSES) })))
})

const AvailableFactor = G.struct({ factorType: FactorType, factorStatus: optStr })

export const StateMachineResponse = G.struct({
  state: G.literals(STATE_TYPES),
  sessionToken: nullableStr,
  stateToken: nullableStr,
  identity: opt(Identity),
  additionalData: opt(G.record(CustomValue)),
  requireMfaData: opt(G.struct({ availableFactors: G.array(AvailableFactor), reason: optStr })),
  mfaChallengeData: opt(G.struct({
    factorType: FactorType,
    availableFactors: opt(G.array(AvailableFactor)),
    verificationChallengeData: opt(G.struct({ hint: optStr }))
  }))
})

export const SignOnResponse = G.struct({ sessionToken: str, identity: Identity })
export const StartVerificationResponse = G.struct({ verificationId: str })

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
