/**
 * Errors of the OAuth flows. The messages are the ones the platform's own client uses, so code
 * ported from it keeps matching on them.
 */
import * as Schema from "effect/Schema"

export const OAuthErrorReason = Schema.Literals([
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
])
export type OAuthErrorReason = typeof OAuthErrorReason.Type

export class OAuthError extends Schema.TaggedError<OAuthError>()("OAuthError", {
  reason: OAuthErrorReason,
  message: Schema.String,
  /** The `error` / `error_description` the authorize page returned. */
  error: Schema.optionalKey(Schema.String),
  errorDescription: Schema.optionalKey(Schema.String),
  cause: Schema.optionalKey(Schema.Defect())
}) {}

export const missingCodeOrState = () => new OAuthError({ reason: "MissingCodeOrState", message: "Missing code or _state" })
export const invalidState = () => new OAuthError({ reason: "InvalidState", message: "Invalid _state" })
export const timedOut = () => new OAuthError({ reason: "TimedOut", message: "OAuth flow timed out" })
