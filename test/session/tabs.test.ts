/**
 * Several tabs, one session: sessions over one shared storage (as tabs over one localStorage) refresh
 * their tokens one at a time, with the storage lock and with Web Locks; without the lock the same race
 * makes two refreshes. A login or logout in one session reaches another that follows the storage's
 * events. Against the local platform, counting its token requests.
 */
import { assert, describe, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as ManagedRuntime from "effect/ManagedRuntime"
import * as Stream from "effect/Stream"
import * as Fiber from "effect/Fiber"
import { type Exclusive, followTabs, type LockManagerLike, SESSION_KEY, storageLock, tabTokenStore, webLock } from "../../src/session/tabs.ts"
import { AuthorizeAgent } from "../../src/session/AuthorizeAgent.ts"
import { Session } from "../../src/session/Session.ts"
import { siteSession } from "../../src/session/SiteSession.ts"
import { TokenStore } from "../../src/session/TokenStore.ts"
import { MemoryStorage } from "../support/firstScreen.ts"
import { LocalPlatform, stats } from "../support/platform.ts"


/** Web Locks as the browser grants them: one holder per name, the others queued in order. */
const fakeLocks = (): LockManagerLike & { readonly requests: () => number } => {
  let tail: Promise<unknown> = Promise.resolve()
  let requests = 0
  return {
    requests: () => requests,
    request: (_name, callback) => {
      requests++
      const run = tail.then(() => callback({}))
      tail = run.catch(() => undefined)
      return run
    }
  }
}

/** A tab: its own session over the shared storage. */
const tab = (platform: LocalPlatform["Service"], tokens: Layer.Layer<TokenStore>) =>
  ManagedRuntime.make(
    siteSession({ baseUrl: platform.url, clientId: platform.clientId, tokens, authorizeAgent: AuthorizeAgent.http() })
  )

type Tab = ReturnType<typeof tab>

const inTab = <A, E>(t: Tab, effect: Effect.Effect<A, E, Session>) => Effect.promise(() => t.runPromise(effect))

const signIn = (t: Tab, demo: NonNullable<LocalPlatform["Service"]["demoMember"]>) =>
  inTab(t, Session.use((s) =>
    Effect.gen(function*() {
      const result = yield* s.login({ email: demo.email, password: demo.password })
      assert.strictEqual(result.loginState, "SUCCESS")
      if (result.loginState === "SUCCESS") yield* s.completeDirectLogin(result.data.sessionToken)
    })
  ))

/** Makes the stored access token expired, as time passing would. */
const expire = (storage: MemoryStorage) => {
  const stored = JSON.parse(storage.getItem(SESSION_KEY)!)
  stored.tokens.accessToken.expiresAt = 0
  storage.setItem(SESSION_KEY, JSON.stringify(stored))
}

const refreshes = Effect.map(stats, (s) => s.tokenRequests.refresh_token)

/** Two tabs at an expiry: both need tokens at once; returns the refresh requests made and the tokens each got. */
const race = (storage: MemoryStorage, store: () => Layer.Layer<TokenStore>, how: "ensure" | "refresh" = "ensure") =>
  Effect.gen(function*() {
    const platform = yield* LocalPlatform
    const [a, b] = [tab(platform, store()), tab(platform, store())]
    yield* signIn(a, platform.demoMember!)
    if (how === "ensure") expire(storage)
    const before = yield* refreshes
    const need = Session.use((s) => (how === "ensure" ? s.ensureTokens : s.refresh))
    const [ta, tb] = yield* Effect.all([inTab(a, need), inTab(b, need)], { concurrency: "unbounded" })
    const made = (yield* refreshes) - before
    yield* Effect.promise(() => Promise.all([a.dispose(), b.dispose()]))
    return { made, same: ta.accessToken.value === tb.accessToken.value, role: ta.refreshToken.role }
  })

it.layer(LocalPlatform.layer({}), { excludeTestServices: true })("tabs sharing a session", (it) => {
  it.effect("without a lock, two tabs at an expiry both refresh (the race the lock is for)", () =>
    Effect.gen(function*() {
      const storage = new MemoryStorage()
      const { made } = yield* race(storage, () => TokenStore.localStorage({ storage: storage as unknown as Storage }))
      assert.strictEqual(made, 2)
    }))

  it.effect("with the storage lock, two tabs at an expiry make one refresh and share its tokens", () =>
    Effect.gen(function*() {
      const storage = new MemoryStorage()
      const { made, same, role } = yield* race(storage, () => tabTokenStore({ storage, locks: null }))
      assert.strictEqual(made, 1)
      assert.isTrue(same)
      assert.strictEqual(role, "member")
      // the lock's claim is gone once the refresh is done
      assert.deepStrictEqual([...storage.items.keys()], [SESSION_KEY])
    }))

  it.effect("with Web Locks, two tabs at an expiry make one refresh", () =>
    Effect.gen(function*() {
      const storage = new MemoryStorage()
      const locks = fakeLocks()
      const { made, same } = yield* race(storage, () => tabTokenStore({ storage, locks }))
      assert.strictEqual(made, 1)
      assert.isTrue(same)
      // both tabs asked for the lock (and tab a once more for its first visitor tokens)
      assert.strictEqual(locks.requests(), 3)
    }))

  it.effect("two tabs refused the same access token (a 401 in each) make one refresh", () =>
    Effect.gen(function*() {
      const storage = new MemoryStorage()
      const { made, same } = yield* race(storage, () => tabTokenStore({ storage, locks: null }), "refresh")
      assert.strictEqual(made, 1)
      assert.isTrue(same)
    }))

  it.effect("a login and a logout in one tab reach a tab that follows the storage's events", () =>
    Effect.gen(function*() {
      const platform = yield* LocalPlatform
      const storage = new MemoryStorage()
      const a = tab(platform, tabTokenStore({ storage, locks: null }))
      const b = tab(platform, tabTokenStore({ storage, locks: null }))
      const listeners = new Set<(event: { readonly key: string | null }) => void>()
      const events = {
        addEventListener: (_: "storage", l: (event: { readonly key: string | null }) => void) => void listeners.add(l),
        removeEventListener: (_: "storage", l: (event: { readonly key: string | null }) => void) => void listeners.delete(l)
      }
      const dispatch = (key: string | null) => listeners.forEach((l) => l({ key }))

      // tab b watches its state and follows the others
      const seen: Array<string> = []
      const watching = yield* Effect.promise(() =>
        b.runPromise(Effect.gen(function*() {
          const session = yield* Session
          yield* session.ensureTokens
          return yield* Effect.forkDetach(Effect.scoped(Effect.gen(function*() {
            yield* followTabs({ events })
            yield* session.changes.pipe(Stream.runForEach((s) => Effect.sync(() => seen.push(s.loggedIn ? "member" : s.role))))
          })))
        }))
      )
      const waitFor = (what: string) =>
        Effect.promise(async () => {
          for (let i = 0; i < 200 && seen[seen.length - 1] !== what; i++) await new Promise((r) => setTimeout(r, 10))
        })
      yield* waitFor("visitor")
      assert.strictEqual(listeners.size, 1)

      yield* signIn(a, platform.demoMember!)
      dispatch("some.other.key")
      dispatch(SESSION_KEY)
      yield* waitFor("member")
      assert.deepStrictEqual(seen, ["visitor", "member"])
      assert.isTrue(yield* inTab(b, Session.use((s) => s.loggedIn)))

      // a refresh in tab a changes who is signed in nowhere: tab b's state stays as it is
      yield* inTab(a, Session.use((s) => s.refresh))
      dispatch(SESSION_KEY)
      yield* Effect.sleep("50 millis")
      assert.deepStrictEqual(seen, ["visitor", "member"])

      yield* inTab(a, Session.use((s) => s.logout({ postFlowUrl: `${platform.url}/` })))
      dispatch(null) // as for a cleared storage
      yield* waitFor("none")
      assert.deepStrictEqual(seen, ["visitor", "member", "none"])

      yield* Effect.promise(() => b.runPromise(Fiber.interrupt(watching)))
      assert.strictEqual(listeners.size, 0)
      yield* Effect.promise(() => Promise.all([a.dispose(), b.dispose()]))
    }))
})

describe("tab locks", () => {
  /** Runs `n` holders at once, each through its own lock over the shared storage; gives the most that ever held it together. */
  const contend = (locks: () => Exclusive, n: number) =>
    Effect.gen(function*() {
      let active = 0
      let most = 0
      let done = 0
      const hold = Effect.gen(function*() {
        active++
        most = Math.max(most, active)
        yield* Effect.sleep("15 millis")
        active--
        done++
      })
      yield* Effect.all(Array.from({ length: n }, () => locks()(hold)), { concurrency: "unbounded" })
      return { most, done }
    })

  it.live("the storage lock lets one holder in at a time", () =>
    Effect.gen(function*() {
      const storage = new MemoryStorage()
      const { most, done } = yield* contend(() => storageLock(storage, "lock", { settleMillis: 5, pollMillis: 5 }), 5)
      assert.strictEqual(done, 5)
      assert.strictEqual(most, 1)
      assert.isNull(storage.getItem("lock"))
    }))

  it.live("Web Locks let one holder in at a time", () =>
    Effect.gen(function*() {
      const locks = fakeLocks()
      const { most, done } = yield* contend(() => webLock(locks, "lock"), 5)
      assert.strictEqual(done, 5)
      assert.strictEqual(most, 1)
    }))

  it.live("a claim whose lease ran out (a tab closed mid-refresh) does not block the others", () =>
    Effect.gen(function*() {
      const storage = new MemoryStorage()
      storage.setItem("lock", JSON.stringify({ id: "closed tab", until: Date.now() - 1 }))
      const ran = yield* storageLock(storage, "lock", { settleMillis: 5 })(Effect.succeed("ran")).pipe(Effect.timeout("1 second"))
      assert.strictEqual(ran, "ran")
      // a live claim is waited for until its lease ends
      storage.setItem("lock", JSON.stringify({ id: "busy tab", until: Date.now() + 150 }))
      const started = Date.now()
      yield* storageLock(storage, "lock", { settleMillis: 5, pollMillis: 10 })(Effect.void)
      assert.isAtLeast(Date.now() - started, 140)
    }))

  it.effect("on a server (no storage, no window) the tab store is a memory store without a lock", () =>
    Effect.gen(function*() {
      assert.isUndefined((globalThis as { localStorage?: unknown }).localStorage)
      const store = yield* Effect.provide(Effect.gen(function*() {
        return yield* TokenStore
      }), tabTokenStore())
      assert.isUndefined(store.exclusive)
      yield* store.save({ tokens: { accessToken: { value: "a", expiresAt: 1 }, refreshToken: { value: "r", role: "visitor" } } })
      assert.strictEqual((yield* store.load).tokens.refreshToken.value, "r")
    }))

  it.live("a failing holder releases the lock", () =>
    Effect.gen(function*() {
      const storage = new MemoryStorage()
      const lock = storageLock(storage, "lock", { settleMillis: 5 })
      const failed = yield* Effect.flip(lock(Effect.fail("refused")))
      assert.strictEqual(failed, "refused")
      assert.isNull(storage.getItem("lock"))
    }))
})
