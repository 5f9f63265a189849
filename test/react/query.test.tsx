// @vitest-environment jsdom
/**
 * Query atoms in React (jsdom) against the local platform over real HTTP: a query renders its first
 * page and loads more; one query asked by two components is one atom and one request; writes through
 * writeAtoms refresh every query of the collection (keeping the pages loaded); a change made by another
 * client reaches the screen through the site's live events; failures show, keep what was shown, and can
 * be tried again; a page with query atoms renders on a server.
 */
import { assert, it } from "@effect/vitest"
import * as Cause from "effect/Cause"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Queue from "effect/Queue"
import { AsyncResult, Atom, AtomRegistry } from "effect/reactivity"
import * as Stream from "effect/Stream"
import { act, type ReactNode } from "react"
import { createRoot } from "react-dom/client"
import { renderToString } from "react-dom/server"
import * as Products from "../../src/catalog/Products.ts"
import * as DataItems from "../../src/data/DataItems.ts"
import { live } from "../../src/events/Live.ts"
import {
  type Change,
  changesOfEvents,
  dataChange,
  type PageLike,
  type QueryAtom,
  queryAtoms,
  QueryKeys,
  type QueryResult,
  RegistryProvider,
  useAtomSet,
  useAtomValue,
  writeAtoms
} from "../../src/react/index.ts"
import { AuthorizeAgent } from "../../src/session/AuthorizeAgent.ts"
import { Site } from "../../src/Site.ts"
import { asAdmin, freshCollection } from "../data/support.ts"
import { LocalPlatform } from "../support/platform.ts"

;(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true

const waitFor = (check: () => boolean, what: string) =>
  Effect.promise(async () => {
    for (let i = 0; i < 400; i++) {
      if (check()) return
      await act(() => new Promise((r) => setTimeout(r, 10)))
    }
    throw new Error(`timed out waiting for ${what}`)
  })

const render = (node: ReactNode, registry: AtomRegistry.AtomRegistry) =>
  Effect.acquireRelease(
    Effect.promise(async () => {
      const el = document.createElement("div")
      document.body.append(el)
      const root = createRoot(el)
      await act(async () => root.render(<RegistryProvider registry={registry}>{node}</RegistryProvider>))
      let mounted = true
      const unmount = async () => {
        if (!mounted) return
        mounted = false
        await act(async () => root.unmount())
        el.remove()
      }
      return {
        el,
        text: (id: string) => el.querySelector(`#${id}`)?.textContent ?? "",
        click: (id: string) => act(async () => (el.querySelector(`#${id}`) as HTMLButtonElement).click()),
        unmount
      }
    }),
    ({ unmount }) => Effect.promise(unmount)
  )

/** A list showing a query atom's state: `state` (loading, failed, ok, ok+waiting), items, total, hasMore. */
function List<A>(props: { readonly query: QueryAtom<A, unknown>; readonly id: string; readonly label: (a: A) => string }) {
  const result = useAtomValue(props.query)
  const loadMore = useAtomSet(props.query.loadMore)
  const reload = useAtomSet(props.query.reload)
  const shown: QueryResult<A> | undefined = result._tag === "Success"
    ? result.value
    : result._tag === "Failure" && result.previousSuccess._tag === "Some"
    ? result.previousSuccess.value.value
    : undefined
  const state = result._tag === "Initial" ? "loading" : result._tag === "Failure" ? "failed" : AsyncResult.isWaiting(result) ? "ok+waiting" : "ok"
  return (
    <section>
      <p id={`${props.id}-state`}>{state}</p>
      <p id={`${props.id}-error`}>{result._tag === "Failure" ? String((Cause.squash(result.cause) as { message?: string } | undefined)?.message ?? "") : ""}</p>
      <p id={`${props.id}-items`}>{shown?.items.map(props.label).join(",") ?? ""}</p>
      <p id={`${props.id}-total`}>{String(shown?.total ?? "")}</p>
      <p id={`${props.id}-more`}>{shown === undefined ? "" : String(shown.hasMore)}</p>
      <button id={`${props.id}-load`} onClick={() => loadMore()}>Load more</button>
      <button id={`${props.id}-reload`} onClick={() => reload()}>Reload</button>
    </section>
  )
}

const visitorRuntime = Effect.map(LocalPlatform.use(Effect.succeed), (platform) =>
  Atom.runtime(Site.layer({ baseUrl: platform.url, clientId: platform.clientId, authorizeAgent: AuthorizeAgent.http() })))

const adminLayer = Effect.map(LocalPlatform.use(Effect.succeed), (platform) => Site.apiKey({ baseUrl: platform.url, apiKey: platform.apiKey, siteId: platform.siteId }))

/** A fresh collection anyone may write, holding `n` items `{_id: "i<k>", title: "t<k>", n: k}`. */
const collectionOf = (prefix: string, n: number) =>
  Effect.gen(function*() {
    const id = yield* freshCollection(prefix)
    if (n > 0) {
      yield* asAdmin(DataItems.bulkInsert(id, Array.from({ length: n }, (_, k) => ({ _id: `i${k}`, title: `t${k}`, n: k }))))
    }
    return id
  }).pipe(Effect.orDie)

const title = (item: { readonly [k: string]: unknown }) => String(item["title"])

it.layer(LocalPlatform.layer({ seed: "demo" }), { excludeTestServices: true })("sitefx/react query atoms", (it) => {
  it.effect("a query renders its first page, loads more pages while the items shown stay, and says when there are no more", () =>
    Effect.gen(function*() {
      const runtime = yield* visitorRuntime
      const queries = queryAtoms(runtime)
      const collection = yield* collectionOf("paged", 5)
      const posts = queries.items(DataItems.query(collection).ascending("n").limit(2).withTotalCount())
      const registry = AtomRegistry.make()
      const seen: Array<string> = []
      registry.subscribe(posts, (r) => seen.push(`${r._tag}${AsyncResult.isWaiting(r) ? "+waiting" : ""}:${AsyncResult.isSuccess(r) ? r.value.items.length : "-"}`))
      const ui = yield* render(<List query={posts} id="posts" label={title} />, registry)

      yield* waitFor(() => ui.text("posts-state") === "ok", "the first page")
      assert.strictEqual(ui.text("posts-items"), "t0,t1")
      assert.strictEqual(ui.text("posts-total"), "5")
      assert.strictEqual(ui.text("posts-more"), "true")

      yield* Effect.promise(() => ui.click("posts-load"))
      yield* waitFor(() => ui.text("posts-items") === "t0,t1,t2,t3" && ui.text("posts-state") === "ok", "the second page")
      // while the second page loaded, the first stayed on screen, marked as waiting
      assert.include(seen, "Success+waiting:2")
      assert.strictEqual(registry.get(posts.loadMore), 2)

      yield* Effect.promise(() => ui.click("posts-load"))
      yield* waitFor(() => ui.text("posts-more") === "false", "the last page")
      assert.strictEqual(ui.text("posts-items"), "t0,t1,t2,t3,t4")
      const pages = AsyncResult.getOrThrow(registry.get(posts)).pages
      assert.strictEqual(pages, 3)

      // no next page: load more does nothing
      yield* Effect.promise(() => ui.click("posts-load"))
      yield* Effect.sleep("50 millis")
      assert.strictEqual(ui.text("posts-state"), "ok")
      assert.strictEqual(AsyncResult.getOrThrow(registry.get(posts)).pages, 3)

      // products page by offset the same way
      const products = queries.products(Products.query().ascending("name").limit(24))
      const shop = yield* render(<List query={products} id="shop" label={(p) => p.name ?? ""} />, registry)
      yield* waitFor(() => shop.text("shop-state") === "ok", "the first products")
      assert.strictEqual(shop.text("shop-items").split(",").length, 24)
      yield* Effect.promise(() => shop.click("shop-load"))
      yield* waitFor(() => shop.text("shop-items").split(",").length === 48 && shop.text("shop-state") === "ok", "48 products")
      yield* Effect.promise(() => shop.click("shop-load"))
      yield* waitFor(() => shop.text("shop-more") === "false", "every product")
      // every product a visitor sees (the hidden ones are not counted), each once
      const names = shop.text("shop-items").split(",")
      assert.isAbove(names.length, 48)
      assert.strictEqual(shop.text("shop-total"), String(names.length))
      assert.strictEqual(new Set(names).size, names.length)
      registry.dispose()
    }))

  it.effect("the same query from two components is one atom and one request; another query is another atom", () =>
    Effect.gen(function*() {
      const runtime = yield* visitorRuntime
      const queries = queryAtoms(runtime)
      // built twice, separately: the same request, the same atom
      const a = queries.items(DataItems.query("Posts").descending("likes").limit(2))
      const b = queries.items(DataItems.query("Posts").descending("likes").limit(2))
      assert.strictEqual(a, b)
      assert.notStrictEqual(a, queries.items(DataItems.query("Posts").descending("likes").limit(3)))
      assert.notStrictEqual(a, queries.items(DataItems.query("Posts").ascending("likes").limit(2)))
      assert.strictEqual(queries.products(Products.query().eq("brand", "Kestrel")), queries.products(Products.query().eq("brand", "Kestrel")))

      // two components, one request
      let requests = 0
      const counted = (): PageLike<string, never, never> => ({ items: ["x", "y"], hasNext: false, totalCount: 2, next: Effect.never })
      const source = () => ({
        key: "counted",
        keys: ["counted"],
        first: Effect.sync(() => {
          requests++
          return counted()
        }).pipe(Effect.delay("20 millis"))
      })
      const shared = queries.of(source())
      assert.strictEqual(shared, queries.of(source()))
      const registry = AtomRegistry.make()
      const ui = yield* render(
        <>
          <List query={shared} id="one" label={String} />
          <List query={queries.of(source())} id="two" label={String} />
          <List query={a} id="posts1" label={title} />
          <List query={b} id="posts2" label={title} />
        </>,
        registry
      )
      yield* waitFor(() => ui.text("one-state") === "ok" && ui.text("two-state") === "ok", "both lists")
      assert.strictEqual(requests, 1)
      assert.strictEqual(ui.text("one-items"), "x,y")
      assert.strictEqual(ui.text("two-items"), "x,y")
      yield* waitFor(() => ui.text("posts1-state") === "ok" && ui.text("posts2-state") === "ok", "the posts")
      assert.strictEqual(ui.text("posts1-items"), "Stable cursors,Welcome to sitefx")
      assert.strictEqual(ui.text("posts2-items"), ui.text("posts1-items"))

      // reload asks again, once for both
      yield* Effect.promise(() => ui.click("one-reload"))
      yield* waitFor(() => requests === 2 && ui.text("two-state") === "ok", "the reload")

      // gone from the screen and back within the idle time: shown at once, not asked again
      yield* Effect.promise(() => ui.unmount())
      yield* Effect.sleep("50 millis")
      const again = yield* render(<List query={queries.of(source())} id="three" label={String} />, registry)
      assert.strictEqual(again.text("three-state"), "ok")
      assert.strictEqual(again.text("three-items"), "x,y")
      assert.strictEqual(requests, 2)
      // with no idle time, a query is dropped as soon as nothing shows it
      const eager = queryAtoms(runtime, { idleTTL: 0 })
      let eagerRequests = 0
      const eagerSource = () => ({ key: "eager", keys: [], first: Effect.sync(() => (eagerRequests++, counted())) })
      const shown = yield* render(<List query={eager.of(eagerSource())} id="eager" label={String} />, registry)
      yield* waitFor(() => shown.text("eager-state") === "ok", "the eager list")
      yield* Effect.promise(() => shown.unmount())
      yield* Effect.sleep("50 millis")
      const back = yield* render(<List query={eager.of(eagerSource())} id="eager2" label={String} />, registry)
      yield* waitFor(() => back.text("eager2-state") === "ok", "the eager list again")
      assert.strictEqual(eagerRequests, 2)
      registry.dispose()
    }))

  it.effect("writes through writeAtoms refresh every query of the collection, keeping the pages loaded", () =>
    Effect.gen(function*() {
      const runtime = yield* visitorRuntime
      const queries = queryAtoms(runtime)
      const writes = writeAtoms(runtime)
      const collection = yield* collectionOf("written", 3)
      const other = yield* collectionOf("untouched", 1)
      const byN = queries.items(DataItems.query(collection).ascending("n").limit(2).withTotalCount())
      const byTitle = queries.items(DataItems.query(collection).descending("title").limit(10))
      let otherRequests = 0
      const untouched = queries.of({
        key: `untouched ${other}`,
        keys: [QueryKeys.data(other)],
        first: Effect.tap(DataItems.query(other).find, () => Effect.sync(() => otherRequests++))
      })

      function Editor() {
        const insert = useAtomSet(writes.insert)
        const update = useAtomSet(writes.update)
        const remove = useAtomSet(writes.remove)
        const inserted = useAtomValue(writes.insert)
        return (
          <div>
            <button id="insert" onClick={() => insert({ collection, item: { _id: "new", title: "a new one", n: -1 } })}>Add</button>
            <button id="update" onClick={() => update({ collection, item: { _id: "new", title: "renamed", n: -1 } })}>Save</button>
            <button id="remove" onClick={() => remove({ collection, id: "i0" })}>Remove</button>
            <p id="inserted">{AsyncResult.isSuccess(inserted) ? inserted.value._id : ""}</p>
          </div>
        )
      }
      const registry = AtomRegistry.make()
      const ui = yield* render(
        <>
          <List query={byN} id="n" label={title} />
          <List query={byTitle} id="t" label={title} />
          <List query={untouched} id="u" label={title} />
          <Editor />
        </>,
        registry
      )
      yield* waitFor(() => ui.text("n-state") === "ok" && ui.text("t-state") === "ok" && ui.text("u-state") === "ok", "the lists")
      yield* Effect.promise(() => ui.click("n-load"))
      yield* waitFor(() => ui.text("n-items") === "t0,t1,t2", "both pages")
      assert.strictEqual(otherRequests, 1)

      yield* Effect.promise(() => ui.click("insert"))
      yield* waitFor(() => ui.text("n-items") === "a new one,t0,t1,t2", "the insert in the query by n")
      yield* waitFor(() => ui.text("t-items") === "t2,t1,t0,a new one", "the insert in the query by title")
      assert.strictEqual(ui.text("inserted"), "new")
      assert.strictEqual(ui.text("n-total"), "4")
      // the two pages stayed loaded
      assert.strictEqual(AsyncResult.getOrThrow(registry.get(byN)).pages, 2)

      yield* Effect.promise(() => ui.click("update"))
      yield* waitFor(() => ui.text("n-items") === "renamed,t0,t1,t2", "the update")
      yield* waitFor(() => ui.text("t-items") === "t2,t1,t0,renamed", "the update, sorted by title")

      yield* Effect.promise(() => ui.click("remove"))
      yield* waitFor(() => ui.text("n-items") === "renamed,t1,t2", "the removal")
      assert.strictEqual(ui.text("n-total"), "3")
      // another collection's query was not asked again
      assert.strictEqual(otherRequests, 1)
      registry.dispose()
    }))

  it.effect("an item changed by another client shows without a reload, through the site's live events", () =>
    Effect.gen(function*() {
      const runtime = yield* visitorRuntime
      const admin = yield* adminLayer
      const collection = yield* collectionOf("live", 2)
      const queries = queryAtoms(runtime, {
        changes: changesOfEvents(live({ eventTypes: ["wix.data.v2.data_item_created", "wix.data.v2.data_item_updated", "wix.data.v2.data_item_deleted"] })).pipe(
          Stream.provide(admin)
        )
      })
      const items = queries.items(DataItems.query(collection).ascending("n"))
      const registry = AtomRegistry.make()
      const ui = yield* render(<List query={items} id="l" label={title} />, registry)
      yield* waitFor(() => ui.text("l-items") === "t0,t1", "the items")
      // the live stream connects while the list is shown
      yield* Effect.sleep("200 millis")

      yield* asAdmin(DataItems.update(collection, { _id: "i1", title: "changed elsewhere", n: 1 }))
      yield* waitFor(() => ui.text("l-items") === "t0,changed elsewhere", "the change made elsewhere")
      yield* asAdmin(DataItems.insert(collection, { _id: "i9", title: "added elsewhere", n: 9 }))
      yield* waitFor(() => ui.text("l-items") === "t0,changed elsewhere,added elsewhere", "the insert made elsewhere")
      yield* asAdmin(DataItems.remove(collection, "i0"))
      yield* waitFor(() => ui.text("l-items") === "changed elsewhere,added elsewhere", "the removal made elsewhere")
      registry.dispose()
    }))

  it.effect("a Stream of changes the app feeds refreshes only the queries of the collections it names", () =>
    Effect.gen(function*() {
      const runtime = yield* visitorRuntime
      const feed = yield* Queue.unbounded<Change>()
      const queries = queryAtoms(runtime, { changes: Stream.fromQueue(feed) })
      const one = yield* collectionOf("fedone", 1)
      const two = yield* collectionOf("fedtwo", 1)
      const runs = { one: 0, two: 0 }
      const counted = (collection: string, name: "one" | "two") =>
        queries.of({
          key: `fed ${collection}`,
          keys: [QueryKeys.data(collection)],
          first: Effect.tap(DataItems.query(collection).find, () => Effect.sync(() => runs[name]++))
        })
      const registry = AtomRegistry.make()
      const ui = yield* render(<><List query={counted(one, "one")} id="a" label={title} /><List query={counted(two, "two")} id="b" label={title} /></>, registry)
      yield* waitFor(() => ui.text("a-state") === "ok" && ui.text("b-state") === "ok", "both lists")
      yield* asAdmin(DataItems.insert(one, { _id: "x", title: "fed", n: 5 }))
      yield* Queue.offer(feed, dataChange(one, "x"))
      yield* waitFor(() => ui.text("a-items") === "t0,fed", "the fed change")
      assert.deepStrictEqual(runs, { one: 2, two: 1 })
      registry.dispose()
    }))

  it.effect("a failing query shows its error; a failed next page keeps the items shown and loads when tried again", () =>
    Effect.gen(function*() {
      const runtime = yield* visitorRuntime
      const queries = queryAtoms(runtime)
      // the platform refuses a query on a collection it does not have
      const missing = queries.items(DataItems.query("NoSuchCollection").limit(5))
      // a members-only collection refuses a visitor
      const notes = queries.items(DataItems.query("Notes").limit(5))
      let failNext = true
      const page = (n: number): PageLike<string, string, never> => ({
        items: [`item${n}`],
        hasNext: n < 3,
        next: Effect.suspend(() => {
          if (n === 1 && failNext) {
            failNext = false
            return Effect.fail("the second page could not be loaded")
          }
          return Effect.succeed(page(n + 1))
        })
      })
      const flaky = queries.of({ key: "flaky", keys: [], first: Effect.succeed(page(1)) })
      const registry = AtomRegistry.make()
      const ui = yield* render(
        <>
          <List query={missing} id="m" label={title} />
          <List query={notes} id="notes" label={title} />
          <List query={flaky} id="f" label={(s) => String(s)} />
        </>,
        registry
      )
      yield* waitFor(() => ui.text("m-state") === "failed", "the refusal")
      assert.match(ui.text("m-error"), /NoSuchCollection/)
      yield* waitFor(() => ui.text("notes-state") !== "loading", "the notes")
      assert.strictEqual(ui.text("notes-state"), "failed")
      assert.notStrictEqual(ui.text("notes-error"), "")

      yield* waitFor(() => ui.text("f-state") === "ok", "the first page")
      yield* Effect.promise(() => ui.click("f-load"))
      yield* waitFor(() => ui.text("f-state") === "failed", "the failed page")
      assert.strictEqual(ui.text("f-error"), "")
      assert.strictEqual(ui.text("f-items"), "item1")
      const failed = registry.get(flaky)
      assert.isTrue(AsyncResult.isFailure(failed))
      assert.deepStrictEqual(AsyncResult.isFailure(failed) ? Cause.squash(failed.cause) : undefined, "the second page could not be loaded")
      // trying again goes on from the page shown
      yield* Effect.promise(() => ui.click("f-load"))
      yield* waitFor(() => ui.text("f-items") === "item1,item2" && ui.text("f-state") === "ok", "the second page")
      yield* Effect.promise(() => ui.click("f-load"))
      yield* waitFor(() => ui.text("f-items") === "item1,item2,item3", "the third page")
      assert.strictEqual(ui.text("f-more"), "false")
      registry.dispose()
    }))

  it.effect("a page with query atoms renders on a server: the loading state, and no window touched to build the atoms", () =>
    Effect.gen(function*() {
      const platform = yield* LocalPlatform
      const saved = Object.getOwnPropertyDescriptor(globalThis, "window")!
      let touched = 0
      Object.defineProperty(globalThis, "window", { configurable: true, get: () => (touched++, undefined) })
      try {
        const runtime = Atom.runtime(Site.layer({ baseUrl: platform.url, clientId: platform.clientId, authorizeAgent: AuthorizeAgent.http() }))
        const queries = queryAtoms(runtime)
        const writes = writeAtoms(runtime)
        const posts = queries.items(DataItems.query("Posts").limit(2))
        assert.isDefined(writes.insert)
        assert.strictEqual(touched, 0)
        const html = renderToString(<RegistryProvider><List query={posts} id="ssr" label={title} /></RegistryProvider>)
        assert.include(html, "loading")
      } finally {
        Object.defineProperty(globalThis, "window", saved)
      }
    }))
})
