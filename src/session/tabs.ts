/**
 * Several tabs, one session. Tabs of a site share the localStorage token store, so a member signed in
 * in one tab is signed in in all of them; this module makes that sharing safe and visible:
 *
 * - `tabTokenStore()`: the localStorage store whose token refreshes run in one tab at a time (Web Locks
 *   where the browser has them, a lock kept in the storage itself where not). A tab that waited finds
 *   the tokens the other tab got and refreshes nothing.
 * - `followTabs()`: a login or logout in another tab (a `storage` event on the store's key) reaches
 *   this tab's session, so its state, and every atom reading it, follow.
 *
 * Both do nothing where there is no storage (a page rendered on a server).
 *
 * @example
 * import { Atom } from "effect/reactivity"
 *
 * const runtime = Atom.runtime(siteSession({ clientId: "my-client-id", tokens: tabTokenStore() }))
 */
import * as Clock from "effect/Clock"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Queue from "effect/Queue"
import type * as Scope from "effect/Scope"
import * as Stream from "effect/Stream"
import { SESSION_KEY } from "./protocol.ts"
import { SessionTokens } from "./SessionTokens.ts"
import { LOCK_HOLD_MILLIS, refreshLockName } from "./storedSession.ts"
import { TokenStore } from "./TokenStore.ts"

export { SESSION_KEY }

/** Runs an effect while holding a lock. */
export type Exclusive = <A, E, R>(effect: Effect.Effect<A, E, R>) => Effect.Effect<A, E, R>

/** The part of the Web Locks API (`navigator.locks`) the tab lock uses. */
export interface LockManagerLike {
  request(name: string, callback: (lock: unknown) => Promise<void>): Promise<unknown>
}

/** The part of `Storage` the storage lock and the store use. */
export type StorageLike = Pick<Storage, "getItem" | "setItem" | "removeItem">

/**
 * A lock shared by every tab of the origin, with the Web Locks API: granted to one holder at a time,
 * released when the effect ends (or the tab closes). The lock is kept `holdMillis` (100 ms) after the
 * effect, without making the effect wait: a browser passes a tab's storage writes to its other tabs a
 * little later, and the next holder must see the tokens this one saved.
 */
export const webLock = (locks: LockManagerLike, name: string, options: { readonly holdMillis?: number } = {}): Exclusive => {
  const hold = options.holdMillis ?? LOCK_HOLD_MILLIS
  return (effect) =>
    Effect.acquireUseRelease(
      Effect.callback<() => void>((resume) => {
        void locks.request(name, () => new Promise<void>((release) => resume(Effect.succeed(() => release()))))
      }),
      () => effect,
      (release) => Effect.sync(() => void setTimeout(release, hold))
    )
}

/** How the storage lock takes turns: how long a claim holds, waits for rivals, and polls. */
export interface StorageLockOptions {
  /** How long a holder keeps the lock at most (a tab closed mid-refresh leaves it to expire). Default 10 s. */
  readonly leaseMillis?: number
  /**
   * How long a claim waits for rival claims to land before checking it won. Default 100 ms: browsers
   * pass a tab's storage writes to the other tabs a little later, later still on a busy machine.
   */
  readonly settleMillis?: number
  /** How often a waiting tab looks again. Default 25 ms. */
  readonly pollMillis?: number
}

interface Claim {
  readonly id: string
  readonly until: number
}

const readClaim = (storage: StorageLike, name: string): Claim | undefined => {
  try {
    const claim = JSON.parse(storage.getItem(name) ?? "null") as Partial<Claim> | null
    return typeof claim?.id === "string" && typeof claim.until === "number" ? { id: claim.id, until: claim.until } : undefined
  } catch {
    return undefined
  }
}

let claims = 0
const claimId = () => `${Date.now().toString(36)}.${Math.random().toString(36).slice(2)}.${++claims}`

/**
 * A lock kept in the storage itself, for browsers without Web Locks: a tab writes its claim when the
 * lock is free or its lease ran out, waits for rival claims to land, and holds the lock if the claim
 * it reads back is still its own. Releasing removes the claim (only the holder's own).
 */
export const storageLock = (storage: StorageLike, name: string, options: StorageLockOptions = {}): Exclusive => {
  const lease = options.leaseMillis ?? 10_000
  const settle = options.settleMillis ?? 100
  const poll = options.pollMillis ?? 25
  return (effect) => {
    const id = claimId()
    const claim: Effect.Effect<void> = Effect.gen(function*() {
      const held = readClaim(storage, name)
      const now = yield* Clock.currentTimeMillis
      if (held !== undefined && held.id !== id && held.until > now) {
        yield* Effect.sleep(poll)
        return yield* claim
      }
      storage.setItem(name, JSON.stringify({ id, until: now + lease }))
      yield* Effect.sleep(settle)
      if (readClaim(storage, name)?.id !== id) return yield* claim
    })
    return Effect.acquireUseRelease(
      claim,
      () => effect,
      () =>
        Effect.sync(() => {
          if (readClaim(storage, name)?.id === id) storage.removeItem(name)
        })
    )
  }
}

/** The store the site's tabs share and how they take turns refreshing, for `tabTokenStore` and `tabLock`. */
export interface TabOptions {
  /** The store's key; `sitefx.session` by default. */
  readonly key?: string
  /** The storage the tabs share; `localStorage` by default. */
  readonly storage?: StorageLike
  /** The Web Locks API; `navigator.locks` by default. `null` uses the storage lock even where Web Locks exist. */
  readonly locks?: LockManagerLike | null
  /** The storage lock's timings, where it is used. */
  readonly storageLock?: StorageLockOptions
}

const defaultStorage = (): StorageLike | undefined => {
  try {
    return (globalThis as { localStorage?: StorageLike }).localStorage
  } catch {
    // a sandboxed frame may refuse storage
    return undefined
  }
}

const defaultLocks = (): LockManagerLike | undefined => (globalThis as { navigator?: { locks?: LockManagerLike } }).navigator?.locks

/** The lock that keeps the tabs sharing a store from refreshing at once: Web Locks where present, the storage lock where not. */
export const tabLock = (options: TabOptions = {}): Exclusive | undefined => {
  const storage = options.storage ?? defaultStorage()
  if (storage === undefined) return undefined
  const name = refreshLockName(options.key ?? SESSION_KEY)
  const locks = options.locks === null ? undefined : options.locks ?? defaultLocks()
  return locks === undefined ? storageLock(storage, name, options.storageLock) : webLock(locks, name)
}

/**
 * The localStorage token store, shared by the site's tabs, whose refreshes run in one tab at a time.
 * Where there is no storage it is the memory store of a single render.
 */
export const tabTokenStore = (options: TabOptions = {}): Layer.Layer<TokenStore> => {
  const storage = options.storage ?? defaultStorage()
  const key = options.key ?? SESSION_KEY
  const exclusive = tabLock(options)
  const base = TokenStore.localStorage({ key, ...(storage === undefined ? {} : { storage: storage as Storage }) })
  if (exclusive === undefined) return base
  return Layer.effect(
    TokenStore,
    Effect.gen(function*() {
      const store = yield* TokenStore
      return TokenStore.of({ ...store, exclusive })
    })
  ).pipe(Layer.provide(base))
}

/** What `followTabs` listens to: a window's `storage` events. */
export interface StorageEventTarget {
  addEventListener(type: "storage", listener: (event: { readonly key: string | null }) => void): void
  removeEventListener(type: "storage", listener: (event: { readonly key: string | null }) => void): void
}

/**
 * While the scope lasts, a change another tab makes to the shared session (a login, a logout, another
 * member) reaches this tab's token service (SessionTokens): its state and `changes` follow. Token refreshes in other tabs
 * change nothing here (the next call reads the new tokens from the store anyway).
 */
export const followTabs = (
  options: { readonly key?: string; readonly events?: StorageEventTarget } = {}
): Effect.Effect<void, never, SessionTokens | Scope.Scope> =>
  Effect.gen(function*() {
    const events = options.events ?? (globalThis as { window?: StorageEventTarget }).window
    if (events === undefined) return
    const key = options.key ?? SESSION_KEY
    const session = yield* SessionTokens
    let seen = (yield* session.tokens).refreshToken.value
    const changed = Stream.callback<void>((queue) =>
      Effect.acquireRelease(
        Effect.sync(() => {
          const listener = (event: { readonly key: string | null }) => {
            // a null key: the whole storage was cleared
            if (event.key === null || event.key === key) Queue.offerUnsafe(queue, undefined)
          }
          events.addEventListener("storage", listener)
          return listener
        }),
        (listener) => Effect.sync(() => events.removeEventListener("storage", listener))
      ), { strategy: "sliding", bufferSize: 1 })
    yield* changed.pipe(
      Stream.runForEach(() =>
        Effect.gen(function*() {
          const tokens = yield* session.tokens
          if (tokens.refreshToken.value === seen) return
          seen = tokens.refreshToken.value
          // the same tokens again: the store is unchanged, the session's state is told
          yield* session.setTokens(tokens)
        })
      ),
      Effect.forkScoped
    )
  })
