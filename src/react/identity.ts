/**
 * Who a runtime's calls are made as, as an atom the query atoms read: an answer belongs to the identity
 * that asked, so a change of identity (a sign-in, a sign-out, another member signed in in another tab)
 * loads every mounted query again and keeps cached ones from being shown to the new identity.
 *
 * The identity comes from the session's tokens (SessionTokens, when the runtime's layer provides it):
 * a visitor (no session yet counts as one), or a member, told apart by their refresh token, which a
 * token refresh keeps and a sign-in replaces. Only a hash of it is kept, never the token. A runtime
 * without a session (an API key's) has one identity for good.
 *
 * Nothing here touches `window` until the atom is read: the atoms stay safe to build on a server.
 */
import * as Effect from "effect/Effect"
import * as Hash from "effect/Hash"
import { AsyncResult, Atom } from "effect/reactivity"
import type * as Scope from "effect/Scope"
import { SessionTokens, type SessionTokensShape } from "../session/SessionTokens.ts"
import type { Tokens } from "../session/wire/tokens.ts"
import { dropSeeds, knownRuntime } from "./hydration.ts"

/** What a window offers for following other tabs: its `storage` events. */
interface StorageEvents {
  addEventListener(type: "storage", listener: () => void): void
  removeEventListener(type: "storage", listener: () => void): void
}

/** The identity of a token set: `visitor`, or `member <hash of the refresh token>`. */
export const identityOfTokens = (tokens: Tokens): string =>
  tokens.refreshToken.role === "member" ? `member ${(Hash.string(tokens.refreshToken.value) >>> 0).toString(36)}` : "visitor"

/**
 * Asks `again` at each change of the session here and at each storage event (another tab sharing the
 * store signed in or out), so the identity follows the other tabs even where nothing else does.
 */
const following = (session: SessionTokensShape, again: () => void): Effect.Effect<void, never, Scope.Scope> =>
  Effect.acquireRelease(
    Effect.sync(() => {
      const events = (globalThis as { window?: StorageEvents }).window
      let open = true
      // later, not while the session tells its listeners (asking again subscribes anew)
      const poke = () => queueMicrotask(() => open && again())
      const unsubscribe = session.subscribe(poke)
      events?.addEventListener("storage", poke)
      return () => {
        open = false
        unsubscribe()
        events?.removeEventListener("storage", poke)
      }
    }),
    (stop) => Effect.sync(stop)
  )

/** The identity a registry's page was rendered (and hydrated) for: the first one its queries saw. */
const rendered = new WeakMap<object, string>()

const byRuntime = new WeakMap<object, Atom.Atom<string | undefined>>()

/**
 * Who the runtime's calls are made as: `visitor`, `member <hash>` (a new one at each sign-in; a token
 * refresh keeps it), or `site` for a runtime without a session (an API key's); `undefined` while the
 * runtime is being built. One atom per runtime; the query atoms of `queryAtoms` read it, and any atom of
 * the app that should be asked again for a new identity can read it too.
 *
 * @example
 * import { DataItems, Site } from "sitefx"
 *
 * const runtime = Atom.runtime(Site.layer({ clientId: "my-client-id", tokens: "localStorage" }))
 * const identity = sessionIdentity(runtime)
 * // a collection's description, asked again whenever someone else signs in
 * const described = (id: string) => runtime.atom((get) => (get(identity), DataItems.collections.get(id)))
 */
export const sessionIdentity = <R, ER>(runtime: Atom.AtomRuntime<R, ER>): Atom.Atom<string | undefined> => {
  knownRuntime(runtime)
  const known = byRuntime.get(runtime)
  if (known !== undefined) return known
  // the session's identity, looked at again whenever the session may have changed
  const changes = runtime.atom((get) =>
    Effect.gen(function*() {
      const session = yield* Effect.serviceOption(SessionTokens)
      if (session._tag === "None") return "site"
      yield* following(session.value, () => get.refreshSelf())
      return identityOfTokens(yield* session.value.tokens)
    })
  )
  const atom = Atom.make((get): string | undefined => {
    const result = get(changes)
    if (!AsyncResult.isSuccess(result)) return undefined
    const identity = result.value
    // the queries a server rendered the page with answered for the page's identity, and for no other
    const first = rendered.get(get.registry)
    if (first === undefined) rendered.set(get.registry, identity)
    else if (first !== identity) dropSeeds(get.registry)
    return identity
  })
  byRuntime.set(runtime, atom)
  return atom
}
