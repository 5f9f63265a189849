/**
 * Members as the site's owner administers them on the local platform, without an API key: list them,
 * approve a pending one, block one (their sessions end), make one reset their password, and enroll or
 * remove their MFA factors (a TOTP factor's secret comes back, to compute codes with).
 *
 * @example
 * import { Members } from "sitefx/dev"
 * for (const pending of yield* Members.list({ email: "new@example.com" })) yield* Members.approve(pending.id)
 */
import * as Effect from "effect/Effect"
import type { PlatformError } from "../http/PlatformError.ts"
import type { PlatformHttp } from "../http/PlatformHttp.ts"
import { EnrollFactorResponse, IdentitiesResponse, IdentityResponse } from "./guards/members.ts"
import type { Identity } from "../session/wire/identity.ts"
import { DEV_PREFIX, devCall, devSend, segment } from "./call.ts"

export type { Identity }

/** A factor to enroll: TOTP (a secret is made), EMAIL, or SMS to a phone number. */
export type FactorInput =
  | { readonly type: "TOTP" }
  | { readonly type: "EMAIL" }
  | { readonly type: "SMS"; readonly phone: string }

/** An enrolled factor's id, and a TOTP factor's secret (base32). */
export interface EnrolledFactor {
  readonly factorId: string
  readonly secret?: string
}

const PATH = `${DEV_PREFIX}/members`
const member = (id: string, rest = "") => `${PATH}/${segment(id)}${rest}`

const change = (id: string, action: string): Effect.Effect<Identity, PlatformError, PlatformHttp> =>
  Effect.map(devCall({ method: "POST", path: member(id, `/${action}`) }, IdentityResponse), (r) => r.identity)

/** The site's members' identities (status, email, factors), or the one with this email. */
export const list = (options: { readonly email?: string | undefined } = {}): Effect.Effect<ReadonlyArray<Identity>, PlatformError, PlatformHttp> =>
  Effect.map(
    devCall({ method: "GET", path: PATH, ...(options.email === undefined ? {} : { payload: { email: options.email } }) }, IdentitiesResponse),
    (r) => r.identities
  )

/** Approves a member waiting for the owner's approval; their identity as it is now. */
export const approve = (id: string): Effect.Effect<Identity, PlatformError, PlatformHttp> => change(id, "approve")

/** Blocks a member: they can no longer log in, and their refresh tokens stop working. */
export const block = (id: string): Effect.Effect<Identity, PlatformError, PlatformHttp> => change(id, "block")

/** Makes a member reset their password before they can log in again. */
export const requireReset = (id: string): Effect.Effect<Identity, PlatformError, PlatformHttp> => change(id, "require-reset")

/** Enrolls an MFA factor for a member; a TOTP factor's secret comes back. */
export const enrollFactor = (id: string, factor: FactorInput): Effect.Effect<EnrolledFactor, PlatformError, PlatformHttp> =>
  devCall({ method: "POST", path: member(id, "/factors"), payload: { ...factor } }, EnrollFactorResponse)

/** Removes one of a member's factors (404 when they have no such factor). */
export const removeFactor = (id: string, factorId: string): Effect.Effect<void, PlatformError, PlatformHttp> =>
  devSend({ method: "DELETE", path: member(id, `/factors/${segment(factorId)}`) })
