/**
 * The light half of the session's atoms: who is signed in (following the other tabs and keeping the
 * tokens fresh while watched) and the member's own record. They need only the token service and a
 * platform client, so a page's header can show the session on every screen without the sign-in flows'
 * code (`sessionAtoms` adds those, and reuses these when given them).
 */
import type { NoSuchElementError } from "effect/Cause"
import * as Clock from "effect/Clock"
import * as Effect from "effect/Effect"
import type { AsyncResult } from "effect/reactivity"
import { Atom } from "effect/reactivity"
import * as Stream from "effect/Stream"
import { PlatformAuth, type PlatformAuthShape, PlatformClient } from "../http/PlatformClient.ts"
import type { PlatformError } from "../http/PlatformError.ts"
import { MyMemberResponse } from "../session/guards/members.ts"
import { Paths } from "../session/protocol.ts"
import { stateChanges } from "../session/stateChanges.ts"
import { type SessionState, SessionTokens, type SessionTokensShape } from "../session/SessionTokens.ts"
import { followTabs } from "../session/tabs.ts"
import type { Member } from "../session/wire/index.ts"
import { knownRuntime } from "./hydration.ts"

/** What `sessionStateAtoms` takes: following other tabs and keeping the access token fresh. */
export interface SessionStateOptions {
  /**
   * Follow logins and logouts made in other tabs (storage events on the store's key) while the state is
   * watched. On by default where there is a window; `{ key }` names the store's key if not the default.
   */
  readonly tabs?: boolean | { readonly key?: string } | undefined
  /** Renew the access token shortly before it expires while the state is watched, so calls never meet an expired one. On by default. */
  readonly keepFresh?: boolean | undefined
}

/** How long to wait before looking again when a keep-fresh refresh could not be made (offline, platform down). */
const RETRY_MILLIS = 30_000

/** How long before its expiry an access token is renewed: a quarter of its life, at most 30 s, in whole seconds. */
const MAX_MARGIN_SECONDS = 30

/**
 * Renews the access token a little before it expires, again and again, so calls never meet an expired
 * token, and looks again whenever the session changes (a login here or in another tab brings new
 * tokens). The renewal names the token it replaces: a tab that wakes after another tab renewed it finds
 * the new tokens in the shared store and refreshes nothing.
 */
const keepFresh = (session: SessionTokensShape, auth: PlatformAuthShape): Effect.Effect<never> => {
  // the stream gives the current state first: the next one is a change
  const changed = stateChanges(session).pipe(Stream.drop(1), Stream.take(1), Stream.runDrain)
  const until = (millis: number) => Effect.race(Effect.sleep(Math.min(millis, 2 ** 31 - 1)), changed)
  let seen = ""
  let seenAt = 0
  return Effect.gen(function*() {
    const tokens = yield* session.tokens
    const now = yield* Clock.currentTimeMillis
    if (tokens.refreshToken.value === "") return yield* until(RETRY_MILLIS)
    if (tokens.accessToken.value !== seen) {
      seen = tokens.accessToken.value
      seenAt = now
    }
    const expiry = tokens.accessToken.expiresAt * 1000
    // whole seconds, so tabs that saw the token a moment apart wake together (and one of them renews it)
    const margin = Math.min(MAX_MARGIN_SECONDS, Math.round((expiry - seenAt) / 4000)) * 1000
    const wait = expiry - margin - now
    if (wait > 0) return yield* until(wait)
    yield* auth.unauthorized({ Authorization: tokens.accessToken.value }).pipe(Effect.catch(() => until(RETRY_MILLIS)))
  }).pipe(Effect.forever)
}

/**
 * Who is signed in and their record, on an atom runtime whose layer has the token service and a
 * platform client (`Site.layer`, `siteSession`, or `siteTokens` with a client). Mount `state` once
 * app-wide (a header) and every tab follows the others and keeps its tokens fresh wherever it is.
 *
 * @example
 * import { siteSession, tabTokenStore } from "sitefx/session"
 *
 * const runtime = Atom.runtime(siteSession({ clientId: "my-client-id", baseUrl: "http://127.0.0.1:8787", tokens: tabTokenStore() }))
 * export const who = sessionStateAtoms(runtime)
 * export const session = sessionAtoms(runtime, { state: who })   // the flows change the header's atoms
 * // in the header:
 * const member = useAtomValue(who.member)   // AsyncResult<Member | undefined>
 */
export const sessionStateAtoms = <R, ER>(
  runtime: Atom.AtomRuntime<R | SessionTokens | PlatformAuth | PlatformClient, ER>,
  options: SessionStateOptions = {}
): SessionStateAtoms<ER> => {
  knownRuntime(runtime)
  const tabs = options.tabs ?? true
  /** The current session state (role, loggedIn), then every change. */
  const state = runtime.atom(Stream.unwrap(Effect.gen(function*() {
    const session = yield* SessionTokens
    if (tabs !== false) yield* followTabs(typeof tabs === "object" && tabs.key !== undefined ? { key: tabs.key } : {})
    if (options.keepFresh !== false) yield* Effect.forkScoped(keepFresh(session, yield* PlatformAuth))
    return stateChanges(session)
  })))

  /** The signed-in member's own record (`undefined` for a visitor), read again whenever the session changes. */
  const member = runtime.atom((get) =>
    Effect.gen(function*() {
      const current = yield* get.result(state)
      if (!current.loggedIn) return undefined
      const client = yield* PlatformClient
      const answer = yield* client.json({ method: "GET", path: Paths.myMember }, MyMemberResponse)
      return answer.member as Member
    })
  )
  return { state, member }
}

/** The atoms `sessionStateAtoms` builds, on a runtime whose layer fails with `ER`. */
export interface SessionStateAtoms<ER = never> {
  /** The current session state (role, loggedIn), then every change. */
  readonly state: Atom.Atom<AsyncResult.AsyncResult<SessionState, ER | NoSuchElementError>>
  /** The signed-in member's own record, `undefined` for a visitor. */
  readonly member: Atom.Atom<AsyncResult.AsyncResult<Member | undefined, ER | NoSuchElementError | PlatformError>>
}
