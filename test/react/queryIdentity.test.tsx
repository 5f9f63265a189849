// @vitest-environment jsdom
/**
 * Query atoms follow the session, against the local platform over real HTTP: a members-only collection's
 * query refuses a visitor, answers the items once a member signs in and refuses again after the sign-out,
 * the same atom throughout, with no key from the caller; a token refresh of the same member asks
 * nothing again; another member signing in in another tab (a storage event) loads the query again as
 * them; a cached query is not shown to the next identity, nor a server's seed; an API-key runtime has one
 * identity for good.
 */
import { assert, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import { AsyncResult, Atom, AtomRegistry } from "effect/reactivity"
import type { Item } from "../../src/data/calls.ts"
import * as DataItems from "../../src/data/DataItems.ts"
import { hydrate, type QueryAtom, queryAtoms, QueryKeys, sessionAtoms, sessionIdentity } from "../../src/react/index.ts"
import { AuthorizeAgent } from "../../src/session/AuthorizeAgent.ts"
import { SessionTokens } from "../../src/session/SessionTokens.ts"
import { siteSession } from "../../src/session/SiteSession.ts"
import { TokenStore } from "../../src/session/TokenStore.ts"
import { Site } from "../../src/Site.ts"
import { asAdmin, freshCollection } from "../data/support.ts"
import { LocalPlatform, uniqueEmail } from "../support/platform.ts"

const waitFor = (check: () => boolean, what: string) =>
  Effect.promise(async () => {
    for (let i = 0; i < 400; i++) {
      if (check()) return
      await new Promise((r) => setTimeout(r, 10))
    }
    throw new Error(`timed out waiting for ${what}`)
  })

/** Calls an atom function and waits for its result (a Success or a Failure, no longer waiting). */
const call = <Arg, A, E>(registry: AtomRegistry.AtomRegistry, fn: Atom.AtomResultFn<Arg, A, E>, arg: Arg) =>
  Effect.promise(() =>
    new Promise<AsyncResult.AsyncResult<A, E>>((resolve) => {
      registry.set(fn, arg)
      let done = false
      const unsubscribe = registry.subscribe(fn, (result) => {
        if (!done && result._tag !== "Initial" && !result.waiting) {
          done = true
          queueMicrotask(() => unsubscribe())
          resolve(result)
        }
      }, { immediate: true })
    })
  )

const success = <A, E>(result: AsyncResult.AsyncResult<A, E>): A => {
  if (!AsyncResult.isSuccess(result)) assert.fail(`expected a success, got ${result._tag}: ${String(AsyncResult.isFailure(result) ? result.cause : "")}`)
  return result.value
}

/** A session's runtime on the platform, its flows, and a way to run an effect in it. */
const sessionOn = (platform: LocalPlatform["Service"], tokens: "memory" | ReturnType<typeof TokenStore.localStorage> = "memory") => {
  const runtime = Atom.runtime(siteSession({ baseUrl: platform.url, clientId: platform.clientId, authorizeAgent: AuthorizeAgent.http(), tokens }))
  return {
    runtime,
    session: sessionAtoms(runtime),
    /** Adds an item as whoever is signed in. */
    insert: runtime.fn((input: { readonly collection: string; readonly title: string }) => DataItems.insert(input.collection, { title: input.title })),
    /** The stored tokens, and a forced refresh of them. */
    tokens: runtime.fn((_: void) => SessionTokens.use((tokens) => tokens.tokens)),
    refresh: runtime.fn((_: void) => SessionTokens.use((tokens) => tokens.refresh))
  }
}

/** What a query atom shows: `loading`, `refused`, or its items' titles. */
const shown = (registry: AtomRegistry.AtomRegistry, query: QueryAtom<any, unknown>): string => {
  const result = registry.get(query)
  if (result._tag === "Initial") return "loading"
  if (result._tag === "Failure") return result.previousSuccess._tag === "Some" ? `refused after ${titles(result.previousSuccess.value.value.items)}` : "refused"
  return titles(result.value.items)
}
const titles = (items: ReadonlyArray<Item>) => items.map((item) => String(item["title"])).join(",") || "none"

const password = "a long enough password 1"

it.layer(LocalPlatform.layer({ seed: "demo" }), { excludeTestServices: true })("query atoms follow the session", (it) => {
  it.effect("a members-only query refuses a visitor, answers the member after a sign-in and refuses again after the sign-out; a token refresh asks nothing again", () =>
    Effect.gen(function*() {
      const platform = yield* LocalPlatform
      const demo = platform.demoMember!
      const collection = yield* freshCollection("members", { permissions: { read: "SITE_MEMBER", insert: "ADMIN", update: "ADMIN", remove: "ADMIN" } })
      yield* asAdmin(DataItems.bulkInsert(collection, [{ _id: "a", title: "first" }, { _id: "b", title: "second" }])).pipe(Effect.orDie)
      const tab = sessionOn(platform)
      const { runtime, session } = tab
      const queries = queryAtoms(runtime)
      let runs = 0
      const query = DataItems.query(collection).ascending("_id")
      const notes = queries.of({
        key: "members-only notes",
        keys: [QueryKeys.data(collection)],
        first: Effect.andThen(Effect.sync(() => void runs++), query.find),
        idOf: (item) => (item as Item)._id
      })
      const registry = AtomRegistry.make()
      const seen: Array<string> = []
      const stop = registry.subscribe(notes, () => seen.push(shown(registry, notes)), { immediate: true })

      yield* waitFor(() => shown(registry, notes) === "refused", "the visitor's refusal")
      assert.strictEqual(runs, 1)
      assert.strictEqual(registry.get(sessionIdentity(runtime)), "visitor")

      assert.strictEqual(success(yield* call(registry, session.signIn, { email: demo.email, password: demo.password })).loginState, "SUCCESS")
      yield* waitFor(() => shown(registry, notes) === "first,second", "the member's answer")
      assert.strictEqual(runs, 2)
      // the visitor's refusal was not shown to the member while the query loaded again
      assert.strictEqual(seen.slice(seen.lastIndexOf("refused") + 1)[0], "loading")
      const member = registry.get(sessionIdentity(runtime))
      assert.match(member ?? "", /^member /)

      // a token refresh keeps the member: the query is not asked again
      const before = success(yield* call(registry, tab.tokens, undefined))
      success(yield* call(registry, tab.refresh, undefined))
      const after = success(yield* call(registry, tab.tokens, undefined))
      assert.notStrictEqual(after.accessToken.value, before.accessToken.value)
      yield* Effect.sleep("100 millis")
      assert.strictEqual(runs, 2)
      assert.strictEqual(registry.get(sessionIdentity(runtime)), member)
      assert.strictEqual(shown(registry, notes), "first,second")

      const mark = seen.length
      success(yield* call(registry, session.signOut, platform.url))
      yield* waitFor(() => shown(registry, notes) === "refused", "the refusal after the sign-out")
      assert.strictEqual(runs, 3)
      // the member's items went at once: never shown again, nor kept beside the refusal
      assert.deepStrictEqual(seen.slice(mark).filter((s) => s !== "first,second"), ["loading", "refused"])
      stop()
      registry.dispose()
    }))

  it.effect("another member signing in in another tab loads a mounted query again as them; a cached query is not shown to the next identity", () =>
    Effect.gen(function*() {
      const platform = yield* LocalPlatform
      const demo = platform.demoMember!
      const collection = yield* freshCollection("own", { permissions: { read: "SITE_MEMBER_AUTHOR", insert: "SITE_MEMBER_AUTHOR", update: "SITE_MEMBER_AUTHOR", remove: "SITE_MEMBER_AUTHOR" } })
      // two tabs: one localStorage, one key
      const store = () => TokenStore.localStorage({ key: `sitefx.identity.${collection}` })
      const tabA = sessionOn(platform, store())
      const tabB = sessionOn(platform, store())
      const registry = AtomRegistry.make()
      const registryB = AtomRegistry.make()

      // tab A: the demo member keeps a note
      success(yield* call(registry, tabA.session.signIn, { email: demo.email, password: demo.password }))
      success(yield* call(registry, tabA.insert, { collection, title: "demo's note" }))

      // tab B shares the session: its query shows the demo member's note
      const queriesB = queryAtoms(tabB.runtime)
      const notes = queriesB.items(DataItems.query(collection))
      const cached = queriesB.items(DataItems.query(collection).limit(1))
      const stopCached = registryB.mount(cached)
      const stop = registryB.mount(notes)
      yield* waitFor(() => shown(registryB, notes) === "demo's note" && shown(registryB, cached) === "demo's note", "the demo member's note in tab B")
      // one query is left, still cached (the default idle time is a minute)
      stopCached()

      // tab A: another member signs in and keeps a note of their own
      const email = uniqueEmail("identity")
      assert.strictEqual(success(yield* call(registry, tabA.session.register, { email, password })).loginState, "SUCCESS")
      success(yield* call(registry, tabA.insert, { collection, title: "other's note" }))
      // what the browser tells tab B when tab A changes the shared storage
      window.dispatchEvent(new StorageEvent("storage", { key: `sitefx.identity.${collection}` }))
      yield* waitFor(() => shown(registryB, notes) === "other's note", "the other member's note in tab B")
      // the cached query, read again, is not the previous member's answer
      const first = shown(registryB, cached)
      assert.notInclude(first, "demo's note")
      const stopAgain = registryB.mount(cached)
      yield* waitFor(() => shown(registryB, cached) === "other's note", "the cached query as the other member")
      stopAgain()
      stop()
      registry.dispose()
      registryB.dispose()
    }))

  it.effect("a server's seed answers for the page's identity: once someone else signs in, a query not yet shown asks the platform", () =>
    Effect.gen(function*() {
      const platform = yield* LocalPlatform
      const demo = platform.demoMember!
      const collection = yield* freshCollection("seeded", { permissions: { read: "SITE_MEMBER", insert: "ADMIN", update: "ADMIN", remove: "ADMIN" } })
      yield* asAdmin(DataItems.insert(collection, { _id: "real", title: "the platform's" })).pipe(Effect.orDie)
      const { runtime, session } = sessionOn(platform)
      const queries = queryAtoms(runtime)
      const shownFirst = queries.items(DataItems.query(collection).limit(1))
      const later = queries.items(DataItems.query(collection).limit(2))
      const registry = AtomRegistry.make()
      const seed = { items: [{ _id: "seed", title: "the server's" }], hasMore: false, pages: 1 }
      hydrate(registry, { sitefxQueries: 1, queries: { [shownFirst.key]: seed, [later.key]: seed } })

      // the page's first query takes its seed as the visitor the page was rendered for
      const stop = registry.mount(shownFirst)
      assert.strictEqual(shown(registry, shownFirst), "the server's")
      yield* waitFor(() => registry.get(sessionIdentity(runtime)) === "visitor", "the visitor")
      yield* Effect.sleep("50 millis")
      assert.strictEqual(shown(registry, shownFirst), "the server's")

      success(yield* call(registry, session.signIn, { email: demo.email, password: demo.password }))
      yield* waitFor(() => shown(registry, shownFirst) === "the platform's", "the member's answer")
      // the other seed was the visitor's: the member's query asks the platform
      const stopLater = registry.mount(later)
      assert.notStrictEqual(shown(registry, later), "the server's")
      yield* waitFor(() => shown(registry, later) === "the platform's", "the later query's answer")
      stopLater()
      stop()
      registry.dispose()
    }))

  it.effect("a runtime without a session (an API key) has one identity, and its queries answer", () =>
    Effect.gen(function*() {
      const platform = yield* LocalPlatform
      const collection = yield* freshCollection("keyed")
      yield* asAdmin(DataItems.insert(collection, { _id: "k", title: "kept" })).pipe(Effect.orDie)
      const runtime = Atom.runtime(Site.apiKey({ baseUrl: platform.url, apiKey: platform.apiKey, siteId: platform.siteId }))
      const queries = queryAtoms(runtime)
      const items = queries.items(DataItems.query(collection))
      const registry = AtomRegistry.make()
      const stop = registry.mount(items)
      yield* waitFor(() => shown(registry, items) === "kept", "the answer")
      assert.strictEqual(registry.get(sessionIdentity(runtime)), "site")
      stop()
      registry.dispose()
    }))
})
