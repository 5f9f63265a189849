/**
 * The token service of a visitor's or member's session: the current tokens and where they are kept (a
 * TokenStore), anonymous visitor tokens when none are usable, a refresh when the access token is missing
 * or expired, fresh visitor tokens when a refresh is refused, one refresh in flight however many
 * callers, and a refresh-and-retry when a call answers 401 (it provides PlatformAuth). The OAuth and
 * member flows (OAuthFlows, MemberFlows) build on it; a page that only reads the session needs nothing
 * else.
 */
import * as Context from "effect/Context"
import * as Deferred from "effect/Deferred"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Redacted from "effect/Redacted"
import { catchFailure } from "../http/catchFailure.ts"
import { PlatformAuth, type PlatformAuthShape } from "../http/PlatformAuth.ts"
import type { PlatformError } from "../http/PlatformError.ts"
import { EMPTY_TOKENS, isExpired, tokensFrom } from "./storedSession.ts"
import { nowSeconds, TokenEndpoint } from "./tokenEndpoint.ts"
import { TokenStore } from "./TokenStore.ts"
import type { TokenRole, Tokens } from "./wire/tokens.ts"

/** Who the session is now: the refresh token's role, and whether that is a signed-in member. */
export interface SessionState {
  /** `none` before the first call, `visitor`, or `member`. */
  readonly role: TokenRole
  /** True when a member is signed in. */
  readonly loggedIn: boolean
}

/** What `Session.layer` takes: the client id, when not the configuration's. */
export interface SessionOptions {
  /** The headless app's client id; defaults to PlatformConfig's (`SITEFX_CLIENT_ID`). */
  readonly clientId?: string | undefined
}

/** What the token service offers: the tokens, a usable access token, the session's state and its changes. */
export interface SessionTokensShape {
  /** The headless app's client id the tokens are issued to. */
  readonly clientId: string
  /** The stored tokens as they are (no refresh). */
  readonly tokens: Effect.Effect<Tokens>
  /** Replaces the stored tokens (e.g. tokens restored from a cookie, or a login's). */
  readonly setTokens: (tokens: Tokens) => Effect.Effect<void>
  /** A usable token set: refreshed or renewed first when needed (one refresh in flight at a time). */
  readonly ensureTokens: Effect.Effect<Tokens, PlatformError>
  /** The `Authorization` value of the next call. */
  readonly accessToken: Effect.Effect<Redacted.Redacted<string>, PlatformError>
  /** Forces a refresh (the access token was rejected or the role changed on the server). */
  readonly refresh: Effect.Effect<Tokens, PlatformError>
  /** True only when the refresh token's role is `member`. */
  readonly loggedIn: Effect.Effect<boolean>
  /** The role and whether a member is signed in, as stored (no refresh). */
  readonly state: Effect.Effect<SessionState>
  /** Calls `listener` with every change of state (login, logout, fallback to a visitor) until the returned function is called. */
  readonly subscribe: (listener: (state: SessionState) => void) => () => void
  /** Forgets both tokens here (the next call gets fresh visitor tokens); `OAuthFlows.logout` also ends the platform's session. */
  readonly clear: Effect.Effect<void>
}

/** The state of a token set: its role, and whether that is a member's. */
export const stateOf = (tokens: Tokens): SessionState => ({
  role: tokens.refreshToken.role,
  loggedIn: tokens.refreshToken.role === "member"
})

const make = Effect.gen(function*() {
  const endpoint = yield* TokenEndpoint
  const store = yield* TokenStore
  const { clientId } = endpoint

  // the state and whoever follows its changes (a Set of listeners: lighter in a browser than a PubSub)
  let state = stateOf((yield* store.load).tokens)
  const listeners = new Set<(state: SessionState) => void>()
  // across everyone sharing the store (tabs), when the store can tell
  const exclusive = store.exclusive ?? (<A, E, R>(effect: Effect.Effect<A, E, R>) => effect)

  const loadTokens = Effect.map(store.load, (s) => s.tokens)
  const saveTokens = (tokens: Tokens) =>
    store.load.pipe(
      Effect.flatMap((s) => store.save({ ...s, tokens })),
      Effect.andThen(Effect.sync(() => {
        state = stateOf(tokens)
        for (const listener of listeners) listener(state)
      }))
    )

  const anonymous = Effect.flatMap(
    endpoint.grant({ clientId, grantType: "anonymous" }),
    (response) => Effect.map(nowSeconds, (now) => tokensFrom(response, "visitor", now))
  )

  const renew = (refreshToken: Tokens["refreshToken"]) =>
    Effect.flatMap(
      endpoint.grant({ clientId, refreshToken: refreshToken.value, grantType: "refresh_token" }),
      (response) => Effect.map(nowSeconds, (now) => tokensFrom(response, refreshToken.role, now, refreshToken.value))
    )

  // A refused refresh (revoked, unknown) falls back to a fresh visitor; a refresh that never got a
  // verdict (network, 5xx after retries) fails instead, so a blip does not sign a member out.
  const renewOrAnonymous = (tokens: Tokens) =>
    store.renew !== undefined
      ? store.renew(tokens)
      : tokens.refreshToken.value === ""
      ? anonymous
      : catchFailure(
        renew(tokens.refreshToken),
        (e) => e.status !== undefined && e.status >= 400 && e.status < 500,
        () => anonymous
      )

  // The refresh in flight, if any: callers who find stale tokens while it runs wait for it and look
  // again, so concurrent callers at expiry share a single token request.
  let flight: Deferred.Deferred<Tokens, PlatformError> | undefined

  /**
   * Usable tokens. The fast path waits for nothing; otherwise one caller at a time re-checks and
   * refreshes. `rejected` is an access token the platform refused: it counts as expired, unless
   * someone already replaced it.
   */
  const ensure = (rejected?: string): Effect.Effect<Tokens, PlatformError> =>
    Effect.gen(function*() {
      while (true) {
        const now = yield* nowSeconds
        const stale = (t: Tokens) => isExpired(t, now) || (rejected !== undefined && t.accessToken.value === rejected)
        const current = yield* loadTokens
        if (!stale(current)) return current
        if (flight !== undefined) {
          // whatever came of it (even an interruption), look again
          yield* Effect.exit(Deferred.await(flight))
          continue
        }
        const mine = Deferred.makeUnsafe<Tokens, PlatformError>()
        flight = mine
        const refreshed = Effect.gen(function*() {
          const latest = yield* loadTokens
          if (!stale(latest)) return latest
          const fresh = yield* renewOrAnonymous(latest)
          // tokens stored while the refresh was out (a login, a logout, another tab's) win over it
          const stored = yield* loadTokens
          if (stored.refreshToken.value !== latest.refreshToken.value) return stored
          yield* saveTokens(fresh)
          return fresh
        })
        return yield* exclusive(refreshed).pipe(Effect.onExit((exit) =>
          Effect.sync(() => {
            if (flight === mine) flight = undefined
            Deferred.doneUnsafe(mine, exit)
          })
        ))
      }
    })

  const auth: PlatformAuthShape = {
    headers: Effect.map(ensure(), (t) => ({ Authorization: t.accessToken.value })),
    unauthorized: (rejected) => Effect.asVoid(ensure(rejected["Authorization"] ?? "")),
    host: "module"
  }

  const service: SessionTokensShape = {
    clientId,
    tokens: loadTokens,
    setTokens: saveTokens,
    ensureTokens: ensure(),
    accessToken: Effect.map(ensure(), (t) => Redacted.make(t.accessToken.value, { label: "access token" })),
    refresh: Effect.flatMap(loadTokens, (t) => ensure(t.accessToken.value === "" ? "\u0000" : t.accessToken.value)),
    loggedIn: Effect.map(loadTokens, (t) => t.refreshToken.role === "member"),
    state: Effect.sync(() => state),
    subscribe: (listener) => {
      listeners.add(listener)
      return () => void listeners.delete(listener)
    },
    clear: saveTokens(EMPTY_TOKENS)
  }
  return { service, auth }
})

/**
 * The session's tokens as a service: a usable access token for every call, refreshed as needed, and who
 * is signed in.
 *
 * @example
 * const tokens = yield* SessionTokens
 * const { role, loggedIn } = yield* tokens.state
 * // the `Authorization` value of a call made by hand, kept Redacted
 * const authorization = yield* tokens.accessToken
 * const unsubscribe = tokens.subscribe((state) => console.log("signed in:", state.loggedIn))
 */
export class SessionTokens extends Context.Service<SessionTokens, SessionTokensShape>()("sitefx/SessionTokens") {
  /**
   * The token service and the PlatformAuth every platform call of the session uses. Needs a token
   * endpoint (`wireTokenEndpoint` over the platform's wire, or `fetchTokenEndpoint`) and a TokenStore;
   * `siteTokens` in `sitefx/session` builds it all.
   */
  static readonly layer: Layer.Layer<SessionTokens | PlatformAuth, never, TokenEndpoint | TokenStore> = Layer.effectContext(
    Effect.map(make, ({ auth, service }) => Context.make(SessionTokens, service).pipe(Context.add(PlatformAuth, auth)))
  )
}
