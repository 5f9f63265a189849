/**
 * Ready atoms for a visitor/member session, built on an atom runtime of a Site layer:
 * the session state (live), sign-in with email and password, and sign-out.
 */
import * as Effect from "effect/Effect"
import { type Atom } from "effect/reactivity"
import * as Stream from "effect/Stream"
import type { LoginResult } from "../session/LoginResult.ts"
import { type Secret, Session } from "../session/Session.ts"

export interface SignInInput {
  readonly email: string
  readonly password: Secret
}

/**
 * Atoms of one session. `runtime` comes from `Atom.runtime(Site.layer(...))`.
 *
 * @example
 * const runtime = Atom.runtime(Site.layer({ clientId, baseUrl }))
 * export const session = sessionAtoms(runtime)
 * // in a component: const state = useAtomValue(session.state)
 */
export const sessionAtoms = <R, ER>(runtime: Atom.AtomRuntime<R | Session, ER>) => ({
  /** The current session state, then every change (login, logout, visitor fallback). */
  state: runtime.atom(Stream.unwrap(Session.useSync((s) => s.changes))),
  /** Logs in and, on SUCCESS, completes the direct login; the result says what happened. */
  signIn: runtime.fn((input: SignInInput) =>
    Effect.gen(function*() {
      const session = yield* Session
      const result: LoginResult = yield* session.login(input)
      if (result.loginState === "SUCCESS") yield* session.completeDirectLogin(result.data.sessionToken)
      return result
    })
  ),
  /** Logs out; the result carries the logout page URL to send the browser to. */
  signOut: runtime.fn((postFlowUrl: string) => Session.use((s) => s.logout({ postFlowUrl })))
})
