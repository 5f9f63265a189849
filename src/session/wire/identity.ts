/** Identity: the member flows' requests (register, login, verification, MFA, recovery) and the state they answer. */
import * as Schema from "effect/Schema"
import { FACTOR_STATUSES, FACTOR_TYPES, IDENTITY_STATUS_NAMES, IDENTITY_STATUS_REASONS, STATE_TYPES } from "../protocol.ts"

/** Who a register, login or sign-on call is for: the member's email. */
export const LoginId = Schema.Struct({ email: Schema.String })

/** A custom field's value as the identity service sends it: a string, number, date, list or map. */
const CustomValue: Schema.Codec<CustomValue> = Schema.Struct({
  strValue: Schema.optionalKey(Schema.String),
  numValue: Schema.optionalKey(Schema.Number),
  dateValue: Schema.optionalKey(Schema.String),
  listValue: Schema.optionalKey(Schema.Struct({ value: Schema.Array(Schema.suspend(() => CustomValue)) })),
  mapValue: Schema.optionalKey(Schema.Struct({
    value: Schema.Record(Schema.String, Schema.suspend(() => CustomValue))
  }))
})
/** A custom field's value as the identity service sends it: a string, number, date, list or map. */
export interface CustomValue {
  readonly strValue?: string
  readonly numValue?: number
  readonly dateValue?: string
  readonly listValue?: { readonly value: ReadonlyArray<CustomValue> }
  readonly mapValue?: { readonly value: { readonly [k: string]: CustomValue } }
}
/** The Schema of a CustomValue (recursive, so typed by hand). */
export { CustomValue as CustomValueSchema }

/** A custom field of an identity's profile: its name and value. */
export const CustomField = Schema.Struct({ name: Schema.String, value: CustomValue })

/** A postal address in an identity's profile or a member's contact. */
export const Address = Schema.Struct({
  country: Schema.optionalKey(Schema.String),
  subdivision: Schema.optionalKey(Schema.String),
  city: Schema.optionalKey(Schema.String),
  postalCode: Schema.optionalKey(Schema.String),
  addressLine: Schema.optionalKey(Schema.String),
  addressLine2: Schema.optionalKey(Schema.String)
})
/** An address in a profile's list, with its tag (home, work...) and id. */
export const AddressWrapper = Schema.Struct({
  tag: Schema.optionalKey(Schema.String),
  address: Schema.optionalKey(Address),
  id: Schema.optionalKey(Schema.String)
})

const NullableString = Schema.optionalKey(Schema.NullOr(Schema.String))

/** A member's profile, sent by register and sign-on and answered in the identity: names, emails, phones, custom fields, addresses. */
export const IdentityProfile = Schema.Struct({
  firstName: NullableString,
  lastName: NullableString,
  nickname: NullableString,
  picture: NullableString,
  emails: Schema.optionalKey(Schema.Array(Schema.String)),
  phones: Schema.optionalKey(Schema.Array(Schema.String)),
  labels: Schema.optionalKey(Schema.Array(Schema.String)),
  language: NullableString,
  privacyStatus: Schema.optionalKey(Schema.String),
  customFields: Schema.optionalKey(Schema.Array(CustomField)),
  addresses: Schema.optionalKey(Schema.Array(AddressWrapper))
})
/** A member's profile, sent by register and sign-on and answered in the identity: names, emails, phones, custom fields, addresses. */
export type IdentityProfile = typeof IdentityProfile.Type

/** Where an identity stands: pending, active, deleted, blocked or offline. */
export const IdentityStatusName = Schema.Literals(IDENTITY_STATUS_NAMES)
/** Where an identity stands: pending, active, deleted, blocked or offline. */
export type IdentityStatusName = typeof IdentityStatusName.Type

/** Why an identity is pending: owner approval, email verification, or missing fields. */
export const IdentityStatusReason = Schema.Literals(IDENTITY_STATUS_REASONS)

/** An MFA factor kind (SMS, TOTP, email...): an MFA_REQUIRED login lists them, `verifyFactor` takes one. */
export const FactorType = Schema.Literals(FACTOR_TYPES)
/** An MFA factor kind (SMS, TOTP, email...): an MFA_REQUIRED login lists them, `verifyFactor` takes one. */
export type FactorType = typeof FactorType.Type

/** An MFA factor an identity has enrolled, and its status. */
export const Factor = Schema.Struct({
  factorId: Schema.String,
  type: FactorType,
  status: Schema.Literals(FACTOR_STATUSES)
})

/** The member's identity as the member flows' answers carry it: profile, email and whether it is verified, status, factors. */
export const Identity = Schema.Struct({
  id: Schema.String,
  revision: Schema.optionalKey(Schema.String),
  createdDate: Schema.optionalKey(Schema.String),
  updatedDate: Schema.optionalKey(Schema.String),
  identityProfile: Schema.optionalKey(IdentityProfile),
  email: Schema.optionalKey(Schema.Struct({ address: Schema.String, isVerified: Schema.Boolean })),
  status: Schema.optionalKey(Schema.Struct({
    name: IdentityStatusName,
    reasons: Schema.optionalKey(Schema.Array(IdentityStatusReason))
  })),
  factors: Schema.optionalKey(Schema.Array(Factor))
})
/** The member's identity as the member flows' answers carry it: profile, email and whether it is verified, status, factors. */
export type Identity = typeof Identity.Type

/** A captcha answer sent with a register or login call, by captcha kind. */
export const CaptchaToken = Schema.Struct({
  Recaptcha: Schema.optionalKey(Schema.String),
  InvisibleRecaptcha: Schema.optionalKey(Schema.String),
  NoCaptcha: Schema.optionalKey(Schema.String)
})
/** A captcha answer sent with a register or login call, by captcha kind. */
export type CaptchaToken = typeof CaptchaToken.Type

/** The step a member flow reached, as the identity service names it (SUCCESS, REQUIRE_EMAIL_VERIFICATION, REQUIRE_MFA...). */
export const StateType = Schema.Literals(STATE_TYPES)
/** The step a member flow reached, as the identity service names it (SUCCESS, REQUIRE_EMAIL_VERIFICATION, REQUIRE_MFA...). */
export type StateType = typeof StateType.Type

/** A factor the member may verify an MFA step with. */
export const AvailableFactor = Schema.Struct({
  factorType: FactorType,
  factorStatus: Schema.optionalKey(Schema.String)
})

/** The identity service answers every step of a flow with the next state. */
export const StateMachineResponse = Schema.Struct({
  state: StateType,
  sessionToken: Schema.optionalKey(Schema.NullOr(Schema.String)),
  stateToken: Schema.optionalKey(Schema.NullOr(Schema.String)),
  identity: Schema.optionalKey(Identity),
  additionalData: Schema.optionalKey(Schema.Record(Schema.String, CustomValue)),
  requireMfaData: Schema.optionalKey(Schema.Struct({
    availableFactors: Schema.Array(AvailableFactor),
    reason: Schema.optionalKey(Schema.String)
  })),
  mfaChallengeData: Schema.optionalKey(Schema.Struct({
    factorType: FactorType,
    availableFactors: Schema.optionalKey(Schema.Array(AvailableFactor)),
    verificationChallengeData: Schema.optionalKey(Schema.Struct({ hint: Schema.optionalKey(Schema.String) }))
  }))
})
/** The identity service answers every step of a flow with the next state. */
export type StateMachineResponse = typeof StateMachineResponse.Type

/** The body of the register call (`POST /_api/iam/authentication/v2/register`), answered with the flow's state. */
export const RegisterRequest = Schema.Struct({
  loginId: LoginId,
  password: Schema.optionalKey(Schema.String),
  profile: Schema.optionalKey(IdentityProfile),
  captchaTokens: Schema.optionalKey(Schema.Array(CaptchaToken))
})
/** The body of the register call (`POST /_api/iam/authentication/v2/register`), answered with the flow's state. */
export type RegisterRequest = typeof RegisterRequest.Type

/** The body of the login call (`POST /_api/iam/authentication/v2/login`), answered with the flow's state. */
export const LoginRequest = Schema.Struct({
  loginId: LoginId,
  password: Schema.optionalKey(Schema.String),
  captchaTokens: Schema.optionalKey(Schema.Array(CaptchaToken))
})
/** The body of the login call (`POST /_api/iam/authentication/v2/login`), answered with the flow's state. */
export type LoginRequest = typeof LoginRequest.Type

/** The body of the sign-on call (`POST /_api/iam/authentication/v2/sign-on`) an API-key login by email sends first. */
export const SignOnRequest = Schema.Struct({
  loginId: LoginId,
  profile: Schema.optionalKey(IdentityProfile),
  verifyEmail: Schema.optionalKey(Schema.Boolean),
  mergeExistingContact: Schema.optionalKey(Schema.Boolean)
})
/** What the sign-on call answers: the session token the token endpoint takes next, and the identity. */
export const SignOnResponse = Schema.Struct({ sessionToken: Schema.String, identity: Identity })

/** The body of the change-password call (`POST /_api/iam/authentication/v2/change-password`), answered with `{}`. */
export const ChangePasswordRequest = Schema.Struct({ newPassword: Schema.String })

const CodeData = Schema.Struct({ code: Schema.optionalKey(Schema.String) })

/** `POST /_api/iam/authentication/v2/{factorType}/verify` */
export const VerifyFactorRequest = Schema.Struct({
  stateToken: Schema.String,
  rememberThisDevice: Schema.optionalKey(Schema.Boolean),
  factorType: Schema.optionalKey(FactorType),
  smsData: Schema.optionalKey(CodeData),
  callData: Schema.optionalKey(CodeData),
  emailData: Schema.optionalKey(CodeData),
  totpData: Schema.optionalKey(CodeData),
  recoveryCodeData: Schema.optionalKey(CodeData),
  pushData: Schema.optionalKey(Schema.Struct({ transactionId: Schema.optionalKey(Schema.String) })),
  webauthnData: Schema.optionalKey(Schema.Struct({
    challengeId: Schema.optionalKey(Schema.String),
    credential: Schema.optionalKey(Schema.String)
  })),
  passwordData: Schema.optionalKey(Schema.Struct({ password: Schema.optionalKey(Schema.String) }))
})
/** `POST /_api/iam/authentication/v2/{factorType}/verify` */
export type VerifyFactorRequest = typeof VerifyFactorRequest.Type

/** `POST /_api/iam/verification/v1/auth/verify` */
export const VerifyDuringAuthRequest = Schema.Struct({ code: Schema.String, stateToken: Schema.String })

/** `POST /_api/iam/verification/v1/start` */
export const StartVerificationRequest = Schema.Struct({
  identityId: Schema.optionalKey(Schema.String),
  target: Schema.optionalKey(Schema.Literals(["UNKNOWN_TARGET", "EMAIL", "SMS"]))
})
/** What the start-verification call (`POST /_api/iam/verification/v1/start`) answers: the id of the code it sent. */
export const StartVerificationResponse = Schema.Struct({ verificationId: Schema.String })

/** `POST /_api/iam/recovery/v1/send-email` */
export const SendRecoveryEmailRequest = Schema.Struct({
  email: Schema.String,
  language: Schema.optionalKey(Schema.String),
  redirect: Schema.optionalKey(Schema.Struct({
    url: Schema.optionalKey(Schema.String),
    clientId: Schema.optionalKey(Schema.String)
  }))
})

/** `POST /_api/iam/recovery/v1/activation-email` */
export const ActivationEmailRequest = Schema.Struct({
  identityId: Schema.String,
  emailOptions: Schema.optionalKey(Schema.Struct({
    language: Schema.optionalKey(Schema.String),
    redirect: Schema.optionalKey(Schema.Struct({
      url: Schema.optionalKey(Schema.String),
      clientId: Schema.optionalKey(Schema.String)
    }))
  }))
})

/** `POST /_api/iam/recovery/v1/recover` */
export const RecoverRequest = Schema.Struct({ recoveryToken: Schema.String, password: Schema.optionalKey(Schema.String) })
