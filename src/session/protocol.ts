/**
 * The session's protocol facts: paths, enumerations, the identity codes and the empty token set. Plain
 * values (no Schema, no guards), so a browser page carries them for free. The Schemas of the wire shapes
 * are in wire/, the guards of the answers the client reads in guards/.
 */

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

/** Identity error codes the official client maps to login error codes. */
export const IdentityCodes = {
  missingCaptchaToken: "-19971",
  invalidCaptchaToken: "-19970",
  invalidPassword: "-19976",
  resetPassword: "-19973",
  emailAlreadyExists: "-19995"
} as const

/** The key a browser's session is stored under (the localStorage store's default, shared by the tabs). */
export const SESSION_KEY = "sitefx.session"

/** The token endpoint's path, apart from the others: the only one a page that only reads the session carries. */
export const TOKEN_PATH = "/oauth2/token"

/**
 * The redirect URI a direct login sends where there is no page to load the authorize page in (scripts,
 * servers, tests), its code read from the redirect: `AuthorizeAgent.http`'s default, which writes it
 * inline (a constant from here costs the pages on the member flows a few bytes).
 */
export const HTTP_CALLBACK_URI = "http://127.0.0.1/sitefx/callback"

/** Paths, relative to the API host. */
export const Paths = {
  token: TOKEN_PATH,
  redirectSession: "/_api/redirects-api/v1/redirect-session",
  register: "/_api/iam/authentication/v2/register",
  login: "/_api/iam/authentication/v2/login",
  signOn: "/_api/iam/authentication/v2/sign-on",
  changePassword: "/_api/iam/authentication/v2/change-password",
  logout: "/_api/iam/authentication/v1/logout",
  verifyFactor: (factorType: typeof FACTOR_TYPES[number]) => `/_api/iam/authentication/v2/${factorType}/verify`,
  verifyDuringAuth: "/_api/iam/verification/v1/auth/verify",
  startVerification: "/_api/iam/verification/v1/start",
  sendRecoveryEmail: "/_api/iam/recovery/v1/send-email",
  activationEmail: "/_api/iam/recovery/v1/activation-email",
  recover: "/_api/iam/recovery/v1/recover",
  myMember: "/members/v1/members/my"
} as const
