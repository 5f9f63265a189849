/**
 * Errors of the OAuth flows. The messages are the ones the platform's own client uses, so code
 * ported from it keeps matching on them.
 */
import * as Data from "effect/Data"

/** Every reason an OAuth flow can fail for, each with what it means. */
export const OAuthErrorReasons = [
  /** The callback URL has no `code` or no `state`. */
  "MissingCodeOrState",
  /** The callback's `state` is not the one this session sent. */
  "InvalidState",
  /** The authorize page answered with `error` (e.g. `login_required`, `access_denied`). */
  "AuthorizationFailed",
  /** No login is in progress: `completeRedirect` without a stored `loginUrl` call. */
  "NoLoginInProgress",
  /** The hidden-iframe login got no answer within its timeout. */
  "TimedOut",
  /** The token endpoint refused the exchange. */
  "TokenRequestFailed",
  /** A browser-only call ran without a browser window. */
  "NoBrowser"
] as const
/** Why an OAuth flow failed: one of `OAuthErrorReasons`. */
export type OAuthErrorReason = typeof OAuthErrorReasons[number]

/** A redirect, silent or external login that could not complete; `reason` says why. */
export class OAuthError extends Data.TaggedError("OAuthError")<{
  /** Why the flow failed. */
  readonly reason: OAuthErrorReason
  /** The platform's own client's wording, for code ported from it. */
  readonly message: string
  /** The `error` / `error_description` the authorize page returned. */
  readonly error?: string
  readonly errorDescription?: string
  readonly cause?: unknown
}> {}

export const missingCodeOrState = () => new OAuthError({ reason: "MissingCodeOrState", message: "Missing code or _state" })
export const invalidState = () => new OAuthError({ reason: "InvalidState", message: "Invalid _state" })
export const timedOut = () => new OAuthError({ reason: "TimedOut", message: "OAuth flow timed out" })
