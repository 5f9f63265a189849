/** Guards of the identity service's answers: the state of a member flow, the identity, sign-on and verification. */
import * as G from "../../http/guard.ts"
import { FACTOR_STATUSES, FACTOR_TYPES, IDENTITY_STATUS_NAMES, IDENTITY_STATUS_REASONS, STATE_TYPES } from "../protocol.ts"

const str = G.string
const opt = G.optional
const optStr = opt(str)
const nullableStr = opt(G.nullOr(str))
const strings = opt(G.array(str))

export interface CustomValue {
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
export const AddressWrapper = G.struct({ tag: optStr, address: opt(Address), id: optStr })

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
