/**
 * Application error codes of the identity service. The first group is what the platform's clients map
 * to login and register error codes; the rest name local refusals clients pass through as messages.
 */
import { IdentityCodes } from "../../session/wire/index.ts"

export const Codes = {
  ...IdentityCodes,
  /** Login with an e-mail no member has (clients read any unmapped code as "invalid e-mail"). */
  emailNotFound: "-19999",
  memberBlocked: "MEMBER_BLOCKED",
  invalidCode: "INVALID_VERIFICATION_CODE",
  invalidStateToken: "INVALID_STATE_TOKEN",
  invalidRecoveryToken: "INVALID_RECOVERY_TOKEN",
  factorNotAvailable: "FACTOR_NOT_AVAILABLE",
  memberNotFound: "MEMBER_NOT_FOUND"
} as const
