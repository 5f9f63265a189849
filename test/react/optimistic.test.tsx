// @vitest-environment jsdom
/**
 * Optimistic writes through writeAtoms against the local platform over real HTTP: an insert shows in
 * every query of its collection before the platform answers and then settles to the platform's item; a
 * refused insert (the collection's permissions, a data hook) is taken back out with the platform's
 * DataError and its rule in the write's Failure; two updates in flight on one item reach the platform in
 * order, each shown on top of the one before, and a refused first one leaves the second standing.
 */
import { assert, it } from "@effect/vitest"
import * as Cause from "effect/Cause"
import * as Effect from "effect/Effect"
import { AsyncResult, Atom, AtomRegistry } from "effect/reactivity"
import { act } from "react"
import { createRoot } from "react-dom/client"
import * as DataItems from "../../src/data/DataItems.ts"
import { DataError } from "../../src/data/DataError.ts"
import { type QueryAtom, queryAtoms, RegistryProvider, useAtomSet, useAtomValue, writeAtoms } from "../../src/react/index.ts"
import { AuthorizeAgent } from "../../src/session/AuthorizeAgent.ts"
import { Site } from "../../src/Site.ts"
import { asAdmin, freshCollection } from "../data/support.ts"
import { dev, LocalPlatform } from "../support/platform.ts"

;(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true

const visitorRuntime = Effect.map(LocalPlatform.use(Effect.succeed), (platform) =>
  Atom.runtime(Site.layer({ baseUrl: platform.url, clientId: platform.clientId, authorizeAgent: AuthorizeAgent.http() })))

const until = (check: () => boolean, what: string, inReact = false) =>
  Effect.promise(async () => {
    for (let i = 0; i < 400; i++) {
      if (check()) return
      if (inReact) await act(() => new Promise((r) => setTimeout(r, 10)))
      else await new Promise((r) => setTimeout(r, 10))
    }
    throw new Error(`timed out waiting for ${what}`)
  })

type Row = { readonly [k: string]: unknown }
const titles = (registry: AtomRegistry.AtomRegistry, query: QueryAtom<Row, unknown>): string => {
  const result = registry.get(query)
  const shown = result._tag === "Success" ? result.value : result._tag === "Failure" ? AsyncResult.value(result).pipe((o) => o._tag === "Some" ? o.value : undefined) : undefined
  return shown?.items.map((item) => String(item["title"])).join(",") ?? ""
}
const settled = (registry: AtomRegistry.AtomRegistry, query: QueryAtom<Row, unknown>) => {
  const result = registry.get(query)
  return result._tag === "Success" && !result.waiting
}
/** Whether a write's atom holds the platform's answer (of this kind), not a previous one while it waits. */
const answered = (result: AsyncResult.AsyncResult<unknown, unknown>, tag: "Success" | "Failure") => result._tag === tag && !result.waiting
const errorOf = (result: AsyncResult.AsyncResult<unknown, unknown>): unknown => result._tag === "Failure" ? Cause.squash(result.cause) : undefined

/** A fresh collection holding `{_id: "i<k>", title: "t<k>", n: k}` for k < n. */
const collectionOf = (prefix: string, n: number, permissions?: NonNullable<Parameters<typeof freshCollection>[1]>["permissions"]) =>
  Effect.gen(function*() {
    const id = yield* freshCollection(prefix, permissions === undefined ? {} : { permissions })
    yield* asAdmin(DataItems.bulkInsert(id, Array.from({ length: n }, (_, k) => ({ _id: `i${k}`, title: `t${k}`, n: k }))))
    return id
  }).pipe(Effect.orDie)

it.layer(LocalPlatform.layer({ seed: "demo" }), { excludeTestServices: true })("sitefx/react optimistic writes", (it) => {
  it.effect("an insert shows in every query of the collection before the platform answers, then as the platform stored it", () =>
    Effect.gen(function*() {
      const runtime = yield* visitorRuntime
      const queries = queryAtoms(runtime)
      const writes = writeAtoms(runtime)
      const collection = yield* collectionOf("opt", 2)
      const byN = queries.items(DataItems.query(collection).ascending("n").withTotalCount()) as QueryAtom<Row, unknown>
      const byTitle = queries.items(DataItems.query(collection).descending("title")) as QueryAtom<Row, unknown>
      const registry = AtomRegistry.make()
      registry.mount(byN)
      registry.mount(byTitle)
      registry.mount(writes.insert)
      yield* until(() => settled(registry, byN) && settled(registry, byTitle), "the queries")
      assert.strictEqual(titles(registry, byN), "t0,t1")

      registry.set(writes.insert, { collection, item: { title: "new", n: 9 } })
      // at once, before any answer: shown first in both queries, counted, and the write still under way
      assert.strictEqual(titles(registry, byN), "new,t0,t1")
      assert.strictEqual(titles(registry, byTitle), "new,t1,t0")
      assert.strictEqual(AsyncResult.getOrThrow(registry.get(byN)).total, 3)
      assert.isTrue(registry.get(writes.insert)._tag === "Initial" || AsyncResult.isWaiting(registry.get(writes.insert)))
      assert.deepStrictEqual(registry.get(writes.pending(collection)).map((w) => [w.kind, w.item === undefined ? undefined : (w.item as Row)["title"]]), [["insert", "new"]])

      yield* until(() => answered(registry.get(writes.insert), "Success"), "the platform's answer")
      const stored = AsyncResult.getOrThrow(registry.get(writes.insert))
      assert.deepStrictEqual(registry.get(writes.pending(collection)), [])
      // then where each query puts it, under the id the platform gave it, shown once
      yield* until(() => titles(registry, byN) === "t0,t1,new" && settled(registry, byN), "the insert where the query sorts it")
      yield* until(() => titles(registry, byTitle) === "t1,t0,new" && settled(registry, byTitle), "the insert sorted by title")
      const items = AsyncResult.getOrThrow(registry.get(byN)).items
      assert.strictEqual(items[2]!["_id"], stored._id)
      assert.notMatch(String(stored._id), /^sitefx-pending/)
      assert.strictEqual(AsyncResult.getOrThrow(registry.get(byN)).total, 3)
      registry.dispose()
    }))

  it.effect("a refused insert is taken back out, with the platform's refusal and its rule in the write's Failure", () =>
    Effect.gen(function*() {
      const runtime = yield* visitorRuntime
      const queries = queryAtoms(runtime)
      const writes = writeAtoms(runtime)
      // visitors may read but not add
      const collection = yield* collectionOf("adminonly", 2, { read: "ANYONE", insert: "ADMIN", update: "ADMIN", remove: "ADMIN" })
      const list = queries.items(DataItems.query(collection).ascending("n").withTotalCount()) as QueryAtom<Row, unknown>
      const registry = AtomRegistry.make()
      registry.mount(list)
      registry.mount(writes.insert)
      yield* until(() => settled(registry, list), "the list")

      registry.set(writes.insert, { collection, item: { _id: "mine", title: "not allowed", n: 5 } })
      assert.strictEqual(titles(registry, list), "not allowed,t0,t1")
      yield* until(() => answered(registry.get(writes.insert), "Failure"), "the refusal")
      assert.strictEqual(titles(registry, list), "t0,t1")
      assert.strictEqual(AsyncResult.getOrThrow(registry.get(list)).total, 2)
      const error = errorOf(registry.get(writes.insert))
      assert.instanceOf(error, DataError)
      assert.isDefined((error as DataError).rule)
      // the collection's last refusal says which write it was, for a screen whose form is gone
      const refused = registry.get(writes.refused(collection))
      assert.deepStrictEqual([refused?.kind, refused?.id, refused === undefined ? undefined : Cause.squash(refused.cause)], ["insert", "mine", error])
      // nothing reached the collection
      const count = yield* asAdmin(DataItems.query(collection).count)
      assert.strictEqual(count, 2)

      // a data hook that refuses: taken back out, the hook's message shown
      const open = yield* collectionOf("hooked", 1)
      yield* dev("/data/hooks", { body: { dataCollectionId: open, hook: "beforeInsert", error: { name: "Error", message: "No inserts today" } } })
      const hooked = queries.items(DataItems.query(open).ascending("n")) as QueryAtom<Row, unknown>
      registry.mount(hooked)
      yield* until(() => settled(registry, hooked), "the hooked list")
      registry.set(writes.insert, { collection: open, item: { title: "refused by the hook", n: 3 } })
      assert.strictEqual(titles(registry, hooked), "refused by the hook,t0")
      yield* until(() => answered(registry.get(writes.insert), "Failure"), "the hook's refusal")
      assert.strictEqual(titles(registry, hooked), "t0")
      const hookError = errorOf(registry.get(writes.insert)) as DataError
      assert.instanceOf(hookError, DataError)
      assert.include(hookError.message, "No inserts today")
      registry.dispose()
    }))

  it.effect("two updates in flight on one item reach the platform in order; a refused first one leaves the second standing", () =>
    Effect.gen(function*() {
      const runtime = yield* visitorRuntime
      const queries = queryAtoms(runtime)
      const writes = writeAtoms(runtime)
      const collection = yield* collectionOf("ordered", 2)
      const list = queries.items(DataItems.query(collection).ascending("n")) as QueryAtom<Row, unknown>
      const registry = AtomRegistry.make()
      registry.mount(list)
      registry.mount(writes.update)
      yield* until(() => settled(registry, list), "the list")

      registry.set(writes.update, { collection, item: { _id: "i0", title: "first", n: 0 } })
      assert.strictEqual(titles(registry, list), "first,t1")
      registry.set(writes.update, { collection, item: { _id: "i0", title: "second", n: 0 } })
      assert.strictEqual(titles(registry, list), "second,t1")
      yield* until(() => titles(registry, list) === "second,t1" && settled(registry, list) && answered(registry.get(writes.update), "Success"), "both updates")
      // never shown out of order on the way, and stored in order
      const stored = yield* asAdmin(DataItems.get(collection, "i0"))
      assert.strictEqual(stored._tag === "Some" ? stored.value["title"] : undefined, "second")

      // the first refused (an item nested deeper than the platform stores), the second taken
      let deep: Record<string, unknown> = { leaf: true }
      for (let i = 0; i < 120; i++) deep = { deep }
      registry.set(writes.update, { collection, item: { _id: "i1", title: "too deep", n: 1, deep } })
      assert.strictEqual(titles(registry, list), "second,too deep")
      registry.set(writes.update, { collection, item: { _id: "i1", title: "fine", n: 1 } })
      assert.strictEqual(titles(registry, list), "second,fine")
      const seen: Array<string> = []
      const stop = registry.subscribe(list, () => seen.push(titles(registry, list)))
      yield* until(() => settled(registry, list) && answered(registry.get(writes.update), "Success") && titles(registry, list) === "second,fine", "the second update")
      // the first's refusal took nothing shown back: neither its title nor the one before it came back
      assert.notInclude(seen.join(";"), "too deep")
      assert.notInclude(seen.join(";"), "t1")
      const after = yield* asAdmin(DataItems.get(collection, "i1"))
      assert.strictEqual(after._tag === "Some" ? after.value["title"] : undefined, "fine")
      stop()
      registry.dispose()
    }))

  it.effect("in React, a removal leaves the list at once and a form that goes away does not stop the write", () =>
    Effect.gen(function*() {
      const runtime = yield* visitorRuntime
      const queries = queryAtoms(runtime)
      const writes = writeAtoms(runtime)
      const collection = yield* collectionOf("removed", 3)
      const list = queries.items(DataItems.query(collection).ascending("n")) as QueryAtom<Row, unknown>
      function List() {
        const result = useAtomValue(list)
        return <p id="items">{result._tag === "Success" ? result.value.items.map((i) => String(i["title"])).join(",") : result._tag}</p>
      }
      function RemoveButton() {
        const remove = useAtomSet(writes.remove)
        return <button id="remove" onClick={() => remove({ collection, id: "i1" })}>Remove</button>
      }
      const registry = AtomRegistry.make()
      const el = document.createElement("div")
      document.body.append(el)
      const root = createRoot(el)
      const render = (withButton: boolean) => act(async () => root.render(<RegistryProvider registry={registry}><List />{withButton ? <RemoveButton /> : null}</RegistryProvider>))
      yield* Effect.promise(() => render(true))
      const text = () => el.querySelector("#items")?.textContent ?? ""
      yield* until(() => text() === "t0,t1,t2", "the list", true)
      yield* Effect.promise(() => act(async () => (el.querySelector("#remove") as HTMLButtonElement).click()))
      assert.strictEqual(text(), "t0,t2")
      // the button goes (its atom is let go of) while the removal is under way
      yield* Effect.promise(() => render(false))
      // the removal reaches the platform, and the list, loaded again after it, still shows it gone (the
      // platform is asked inside act: the list re-renders meanwhile)
      const services = yield* Effect.context<LocalPlatform>()
      const stored = () => Effect.promise(() => act(() => Effect.runPromise(Effect.provide(asAdmin(DataItems.get(collection, "i1")), services))))
      let gone = yield* stored()
      for (let i = 0; i < 200 && gone._tag === "Some"; i++) {
        yield* Effect.promise(() => act(() => new Promise((r) => setTimeout(r, 10))))
        gone = yield* stored()
      }
      assert.strictEqual(gone._tag, "None")
      yield* Effect.promise(() => act(() => new Promise((r) => setTimeout(r, 200))))
      yield* until(() => settled(registry, list) && text() === "t0,t2", "the removal settled", true)
      yield* Effect.promise(() => act(async () => root.unmount()))
      el.remove()
      registry.dispose()
    }))
})
