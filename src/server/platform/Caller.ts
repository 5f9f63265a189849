/**
 * Who made a request, as every module reads it: nobody, a visitor or member session, or an admin (an
 * API key, maybe acting for a session). The kernel keeps these types because the request's note and the
 * request log carry a caller; the accounts' `Callers` service resolves one from the `Authorization` header.
 */
export interface SessionCaller {
  readonly kind: "visitor" | "member"
  readonly id: string
  readonly clientId: string
  /** The access token's `jti`. */
  readonly tokenId: string
}

export interface MemberCaller extends SessionCaller {
  readonly kind: "member"
}

export interface AdminCaller {
  readonly kind: "admin"
  readonly keyId: string
  /** The visitor or member session sent along with the key, when it is valid. */
  readonly session: SessionCaller | undefined
}

export interface NoCaller {
  readonly kind: "none"
}

/** Who made a request: nobody (`none`), a visitor or member session, or an admin (an API key, maybe with a session). */
export type Caller = NoCaller | SessionCaller | AdminCaller
