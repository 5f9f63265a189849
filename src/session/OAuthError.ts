/**
 * Errors of the OAuth flows: an `OAuthError` whose `reason` is one of the tagged classes here, so
 * `Effect.catchReason("OAuthError", "InvalidState", ...)` handles one. The messages are the ones the
 * platform's own client uses, so code ported from it keeps matching on them.
 */
import * as Data from "effect/Data"

/** The callback URL has no `code` or no `state`. */
export class MissingCodeOrState extends Data.TaggedClass("MissingCodeOrState")<{ readonly message: string }> {}

/** The callback's `state` is not the one this session sent. */
export class InvalidState extends Data.TaggedClass("InvalidState")<{ readonly message: string }> {}

/** The authorize page answered with `error` (e.g. `login_required`, `access_denied`), or could not be reached. */
export class AuthorizationFailed extends Data.TaggedClass("AuthorizationFailed")<{
  readonly message: string
  /** The `error` the authorize page returned. */
  readonly error?: string
  /** The `error_description` the authorize page returned. */
  readonly errorDescription?: string
}> {}

/** No login is in progress: `completeRedirect` without a stored `loginUrl` call. */
export class NoLoginInProgress extends Data.TaggedClass("NoLoginInProgress")<{ readonly message: string }> {}

/** The hidden-iframe login got no answer within its timeout. */
export class TimedOut extends Data.TaggedClass("TimedOut")<{ readonly message: string }> {}

/** The token endpoint refused the exchange (the PlatformError is the OAuthError's `cause`). */
export class TokenRequestFailed extends Data.TaggedClass("TokenRequestFailed")<{ readonly message: string }> {}

/** A browser-only call ran without a browser window. */
export class NoBrowser extends Data.TaggedClass("NoBrowser")<{ readonly message: string }> {}

/** Why an OAuth flow failed. */
export type OAuthErrorReason =
  | MissingCodeOrState
  | InvalidState
  | AuthorizationFailed
  | NoLoginInProgress
  | TimedOut
  | TokenRequestFailed
  | NoBrowser

/** The tags of every reason an OAuth flow can fail for. */
export const OAuthErrorReasons = [
  "MissingCodeOrState",
  "InvalidState",
  "AuthorizationFailed",
  "NoLoginInProgress",
  "TimedOut",
  "TokenRequestFailed",
  "NoBrowser"
] as const satisfies ReadonlyArray<OAuthErrorReason["_tag"]>

/**
 * A redirect, silent or external login that could not complete; `reason` says why.
 *
 * @example
 * declare const completing: Effect.Effect<{ readonly originalUri: string }, OAuthError> // completeRedirect's
 * // a callback that is not this login's (another tab, a stale link) starts a new login; any other failure stays
 * const next = completing.pipe(
 *   Effect.map(({ originalUri }) => originalUri),
 *   Effect.catchReason("OAuthError", "InvalidState", () => Effect.succeed("/login"))
 * )
 */
export class OAuthError extends Data.TaggedError("OAuthError")<{
  /** Why the flow failed. */
  readonly reason: OAuthErrorReason
  readonly cause?: unknown
}> {
  /** The platform's own client's wording, for code ported from it. */
  override get message(): string {
    return this.reason.message
  }

  // only AuthorizationFailed has these; every other reason reads undefined (and a page carries no test for it)

  /** The `error` the authorize page returned. */
  get error(): string | undefined {
    return (this.reason as AuthorizationFailed).error
  }

  /** The `error_description` the authorize page returned. */
  get errorDescription(): string | undefined {
    return (this.reason as AuthorizationFailed).errorDescription
  }
}

export const missingCodeOrState = () => new OAuthError({ reason: new MissingCodeOrState({ message: "Missing code or _state" }) })
export const invalidState = () => new OAuthError({ reason: new InvalidState({ message: "Invalid _state" }) })
export const timedOut = () => new OAuthError({ reason: new TimedOut({ message: "OAuth flow timed out" }) })
