/**
 * Paginated query atoms with a query cache. `queryAtoms(runtime)` gives atoms for data item queries
 * (`DataItems.query(...)`), product and store-collection queries (`Products.query()`, `Collections.query()`)
 * and any other query with `find` and `next`: one atom per query, keyed by what the query sends, so two
 * components asking the same thing share one atom and one request. An atom's value is an AsyncResult of
 * `{ items, hasMore, total, pages }`: Initial while the first page loads, waiting while more pages or a
 * refresh load (the items shown stay), a Failure that keeps the items shown before it.
 *
 * `atom.loadMore` asks for the next page (infinite scroll, a "Load more" button), `atom.reload` asks for
 * the loaded pages again. Queries refresh by themselves when their collection changes: through the write
 * atoms of `writeAtoms(runtime)` (or any effect that invalidates the collection's key with effect's
 * Reactivity), and through a Stream of changes the app passes (`changes`, e.g. the site's live events
 * through `changesOfEvents`), so an item changed elsewhere shows without a reload. The write atoms are
 * optimistic: a query shows its collection's writes on top of its pages until the platform has answered
 * and the pages have loaded again (optimistic.ts). A query's first load can be a server's result handed
 * over in the page (hydration.ts).
 *
 * Nothing here touches `window` or storage: the atoms are descriptions, safe to build on a server.
 *
 * @example
 * import { DataItems, Site } from "sitefx"
 *
 * const runtime = Atom.runtime(Site.layer({ clientId: "my-client-id", tokens: "localStorage" }))
 * const queries = queryAtoms(runtime)
 * const writes = writeAtoms(runtime)
 *
 * function Posts() {
 *   const posts = queries.items(DataItems.query("Posts").descending("_createdDate").limit(20))
 *   const result = useAtomValue(posts)                         // AsyncResult<QueryResult<Item>, DataFailure>
 *   const loadMore = useAtomSet(posts.loadMore)
 *   const insert = useAtomSet(writes.insert)                   // refreshes every query of Posts
 *   return result._tag
 * }
 */
import type * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Cause from "effect/Cause"
import { AsyncResult, Atom, Reactivity } from "effect/reactivity"
import * as Stream from "effect/Stream"
import type { CatalogFailure } from "../catalog/calls.ts"
import type { OffsetQuery } from "../catalog/OffsetQuery.ts"
import type { DataFailure, Item } from "../data/calls.ts"
import type { Query } from "../data/Query.ts"
import type { PlatformClient } from "../http/PlatformClient.ts"
import { isRenderOnly, knownRuntime, peekSeed, type Seed, takeSeed } from "./hydration.ts"
import { sessionIdentity } from "./identity.ts"
import { catalogQueryKey, QueryKeys } from "./keys.ts"
import { keyedFamily } from "./family.ts"
import { applyWrites, mapShown, nextLoad, pendingWrites } from "./optimistic.ts"

// ---- what a query is to the cache ------------------------------------------------------------------

export { QueryKeys }

/** A page of any sitefx query: data `Page`, catalog `OffsetPage`, catalog v3 `EntityPage`. */
export interface PageLike<A, E, R> {
  readonly items: ReadonlyArray<A>
  readonly hasNext: boolean
  readonly totalCount?: number | undefined
  readonly next: Effect.Effect<PageLike<A, E, R>, E, R>
}

/** A query as the cache sees it. */
export interface QuerySource<A, E, R> {
  /** Identity: queries with the same key share one atom. */
  readonly key: string
  /** Reactivity keys whose invalidation refreshes the query (its collection, see `QueryKeys`). */
  readonly keys: ReadonlyArray<string>
  /** The first page. */
  readonly first: Effect.Effect<PageLike<A, E, R>, E, R>
  /** An item's id: an item already shown is not shown twice when pages shift under a write. */
  readonly idOf?: ((item: A) => string | null | undefined) | undefined
  /**
   * The page after the first `offset` items, where the query pages by offset: a seeded result (hydration.ts)
   * goes on from its items with it, instead of loading its pages again from the first.
   */
  readonly from?: ((offset: number) => Effect.Effect<PageLike<A, E, R>, E, R>) | undefined
}


/** A data query (`DataItems.query`, `DataItems.search`, a typed collection's query), keyed by its request. */
export const dataQuery = <A, R, F>(query: Query<A, R, F>, options: { readonly key?: string } = {}): QuerySource<A, DataFailure, R> => ({
  key: `data ${query.runner.collection} ${options.key ?? ""} ${JSON.stringify(query.request)} ${query.error?.message ?? ""}`,
  keys: [QueryKeys.data(query.runner.collection)],
  first: query.find,
  idOf: (item) => {
    const id = (item as { readonly _id?: unknown })?._id
    return typeof id === "string" ? id : undefined
  }
})

/**
 * A catalog v1 query (products or store collections), keyed by its request. A query built with options
 * (`Products.query({ includeVariants: true })`) names them in `key`, since the request does not show them.
 */
export const catalogQuery = <A extends { readonly id?: string | null | undefined }, R, F>(
  what: "products" | "collections",
  query: OffsetQuery<A, R, F>,
  options: { readonly key?: string } = {}
): QuerySource<A, CatalogFailure, R> => ({
  key: catalogQueryKey(what, query.request, options.key, query.state.refusal?.message, query.error?.message),
  keys: [QueryKeys[what]],
  first: query.find,
  idOf: (item) => item.id,
  from: (offset) => query.skip(query.state.skip + offset).find
})

// ---- the value of a query atom ---------------------------------------------------------------------

/** What a query atom holds once a page has loaded. */
export interface QueryResult<A> {
  /** Every item of the pages loaded so far, in order. */
  readonly items: ReadonlyArray<A>
  /** Whether `loadMore` has a next page to load. */
  readonly hasMore: boolean
  /** How many items match, when the query asked for it and the platform counted. */
  readonly total: number | undefined
  /** How many pages are loaded. */
  readonly pages: number
}

/** A query's atom: its result, and the writable atoms that load more and refresh it. */
export interface QueryAtom<A, E> extends Atom.Atom<AsyncResult.AsyncResult<QueryResult<A>, E>> {
  /** The cache key. */
  readonly key: string
  /** Write to load the next page (ignored while a page loads or when there is none). Reads the pages wanted. */
  readonly loadMore: Atom.Writable<number, void>
  /** Write to load the pages shown again (`refresh` is taken: atoms use it for their own refresh). */
  readonly reload: Atom.Writable<number, void>
}

/** What the atom asked for: how many pages, which generation of the collection, which attempt. */
interface Control {
  readonly pages: number
  readonly epoch: number
  readonly attempt: number
}

/** What a result needs to go on: where its next page is, which generation and which identity it belongs to. */
interface Carry {
  readonly epoch: number
  /** Who it was asked as (`sessionIdentity`): it goes on, and shows, for them alone. */
  readonly identity: string | undefined
  /** The load number its oldest page started with: the writes confirmed after it are still applied on top. */
  readonly startedAt: number
  readonly next: Effect.Effect<PageLike<unknown, unknown, unknown>, unknown, unknown> | undefined
  readonly ids: ReadonlySet<string>
}

/** Kept beside each result, out of its public shape. */
const carried = new WeakMap<QueryResult<unknown>, Carry>()

/** The newest value a result shows: its own, or the one kept by a failure. */
const shownValue = <A, E>(result: AsyncResult.AsyncResult<A, E>): A | undefined =>
  result._tag === "Success" ? result.value : result._tag === "Failure" && result.previousSuccess._tag === "Some" ? result.previousSuccess.value.value : undefined

/** What a query shows while it loads again as someone new: one value, so that readers hear of it once. */
const hidden: AsyncResult.AsyncResult<never, never> = AsyncResult.initial(true)

/**
 * What a query shows to `identity`: nothing of an answer asked as someone else (the previous member's
 * items, a visitor's refusal), while the query loads again as them (or, not shown, until it is read again).
 */
const ownedBy = <A, E>(result: AsyncResult.AsyncResult<QueryResult<A>, E>, identity: string | undefined, answeredFor: string | undefined): AsyncResult.AsyncResult<QueryResult<A>, E> => {
  if (identity === undefined) return result
  const shown = shownValue(result)
  const shownFor = shown === undefined ? undefined : carried.get(shown)?.identity
  if (result._tag === "Failure" ? answeredFor !== undefined && answeredFor !== identity : shownFor !== undefined && shownFor !== identity) {
    return hidden
  }
  // a failure of this identity keeps the items shown before it only when they were this identity's too
  if (result._tag === "Failure" && shownFor !== undefined && shownFor !== identity) return AsyncResult.failure(result.cause, { waiting: result.waiting })
  return result
}

// ---- changes made elsewhere ------------------------------------------------------------------------

/** A change to a collection: its Reactivity key (see `QueryKeys`) and the item's id when known. */
export interface Change {
  readonly key: string
  readonly id?: string | undefined
}

const invalidation = (changes: ReadonlyArray<Change>): Record<string, Array<string>> => {
  const keys: Record<string, Array<string>> = {}
  for (const change of changes) {
    const ids = keys[change.key] ??= []
    if (change.id !== undefined) ids.push(change.id)
  }
  return keys
}

/** Refreshes the queries of these collections (an Effect for the runtime's own actions). */
export const invalidate = (changes: ReadonlyArray<Change>): Effect.Effect<void, never, Reactivity.Reactivity> =>
  Reactivity.invalidate(invalidation(changes))

// ---- the atoms -------------------------------------------------------------------------------------

/** How `queryAtoms` keeps its queries fresh: a Stream of outside changes, and how long an unshown query stays cached. */
export interface QueryAtomsOptions<R> {
  /**
   * Changes made elsewhere (another tab, another client, the site's owner): each refreshes the queries
   * of its collection. Runs while any query atom of this set is mounted. For example
   * `changesOfEvents(Events.live())` where the app holds a key for the site's events, or a Stream the
   * app's own backend feeds.
   */
  readonly changes?: Stream.Stream<Change, unknown, R> | undefined
  /**
   * How long a query stays cached once no component shows it (one minute by default): going back to a
   * list within it shows the pages it had at once, and they stay fresh meanwhile. `0` drops it at once.
   */
  readonly idleTTL?: Duration.Input | undefined
}

/** The changes stream's state where there is none: a constant (made without reading the clock). */
const NO_CHANGES = AsyncResult.success<void, never>(undefined, { timestamp: 0 })

/** The query atoms of a runtime (`Atom.runtime(Site.layer(...))` or anything that provides `PlatformClient`). */
export const queryAtoms = <R, ER>(runtime: Atom.AtomRuntime<R, ER>, options: QueryAtomsOptions<R> = {}) => {
  knownRuntime(runtime)
  const changes = options.changes
  const idleTTL = options.idleTTL ?? "1 minute"
  /** The changes stream, running while a query of this set is mounted; its failure ends it (queries still refresh on writes). */
  const live: Atom.Atom<AsyncResult.AsyncResult<void, unknown>> = changes === undefined
    ? Atom.make(NO_CHANGES)
    : runtime.atom(Stream.runForEach(changes, (change) => invalidate([change])))
  /** The runtime's Reactivity service, which writes and changes invalidate keys in. */
  const reactivityAtom = runtime.atom(Effect.gen(function*() {
    return yield* Reactivity.Reactivity
  }))

  const build = <A, E>(source: QuerySource<A, E, R>): QueryAtom<A, E | ER> => {
    const control = Atom.make<Control>({ pages: 1, epoch: 0, attempt: 0 })
    const idOf = source.idOf

    const page = (previous: QueryResult<A> | undefined, loaded: PageLike<A, E, R>, epoch: number, startedAt: number, identity: string): QueryResult<A> => {
      const before = previous === undefined ? undefined : carried.get(previous)
      const ids = new Set(before?.ids ?? [])
      const fresh = idOf === undefined
        ? loaded.items
        : loaded.items.filter((item) => {
          const id = idOf(item)
          if (id === undefined || id === null) return true
          if (ids.has(id)) return false
          ids.add(id)
          return true
        })
      const value: QueryResult<A> = {
        items: previous === undefined ? fresh : [...previous.items, ...fresh],
        hasMore: loaded.hasNext,
        total: loaded.totalCount ?? previous?.total,
        pages: (previous?.pages ?? 0) + 1
      }
      carried.set(value, { epoch, identity, startedAt, next: loaded.hasNext ? loaded.next : undefined, ids })
      return value
    }

    /**
     * A result from a seed the server (or a page's own bootstrap) loaded: its next page goes on from its
     * items where the query pages by offset; otherwise more pages start again from the first.
     */
    const seeded = (seed: Seed, epoch: number, identity: string | undefined): QueryResult<A> => {
      const value: QueryResult<A> = { items: seed.items as ReadonlyArray<A>, hasMore: seed.hasMore, total: seed.total, pages: seed.pages }
      const ids = new Set<string>()
      if (idOf !== undefined) {
        for (const item of value.items) {
          const id = idOf(item)
          if (typeof id === "string") ids.add(id)
        }
      }
      const next = seed.hasMore && source.from !== undefined ? source.from(seed.items.length) : undefined
      carried.set(value, { epoch, identity, startedAt: nextLoad(), next: next as Carry["next"], ids })
      return value
    }

    /** Who the last answer (a result or a failure) was asked as. */
    let answeredFor: string | undefined

    /**
     * The pages: loads what `control` asks for as the current identity, going on from what is shown when
     * it can. A new identity loads them again.
     */
    const pages = runtime.atom((get) => {
      const wanted = get(control)
      const identity = get(who)
      // the runtime is built and its session not looked at yet: a moment
      if (identity === undefined) return Effect.never
      const self = get.self<AsyncResult.AsyncResult<QueryResult<A>, E | ER>>()
      const shown = self._tag === "Some" ? shownValue(self.value) : undefined
      const carry = shown === undefined ? undefined : carried.get(shown)
      // the same generation and identity wanting more pages goes on from what is shown; anything else starts again
      const goOn = shown !== undefined && carry !== undefined && carry.epoch === wanted.epoch && carry.identity === identity &&
        shown.pages < wanted.pages && carry.next !== undefined
      const registry = get.registry
      return Effect.gen(function*() {
        // the first load of a query the server rendered with takes the server's result
        const seed = wanted.attempt === 0 ? takeSeed(registry, source.key) : undefined
        if (seed !== undefined) return seeded(seed, wanted.epoch, identity)
        const startedAt = goOn ? carry.startedAt : nextLoad()
        let state: QueryResult<A> = goOn ? shown : page(undefined, yield* source.first, wanted.epoch, startedAt, identity)
        for (;;) {
          const next = carried.get(state)?.next as Effect.Effect<PageLike<A, E, R>, E, R> | undefined
          if (state.pages >= wanted.pages || next === undefined) return state
          state = page(state, yield* next, wanted.epoch, startedAt, identity)
        }
      }).pipe(Effect.onExit((exit) =>
        Effect.sync(() => {
          if (exit._tag === "Success" || !Cause.hasInterruptsOnly(exit.cause)) answeredFor = identity
        })
      ))
    })

    /**
     * What components read: the pages, with the query listening for changes to its collection while it
     * is mounted (once, not per load: a change starts a new generation, whose pages load again) and the
     * changes stream running.
     */
    const fromSeed = (seed: Seed) =>
      AsyncResult.success<QueryResult<A>, E | ER>(seeded(seed, 0, undefined), seed.at === undefined ? undefined : { timestamp: seed.at })
    const loaded = Atom.transform(pages, (get) => {
      // a server render's own registry: the page's seed, or loading; nothing runs (see renderOnlyRegistry)
      if (isRenderOnly(get.registry)) {
        const seed = peekSeed(get.registry, source.key)
        return seed === undefined ? AsyncResult.initial<QueryResult<A>, E | ER>() : fromSeed(seed)
      }
      const reactivity = get(reactivityAtom)
      if (reactivity._tag === "Success") {
        get.addFinalizer(reactivity.value.registerUnsafe(source.keys, () => get.registry.update(control, (c) => ({ ...c, epoch: c.epoch + 1, attempt: c.attempt + 1 }))))
      }
      get.mount(live)
      get.subscribe(pages, (value) => get.setSelf(value))
      const now = get.once(pages)
      // hydrating: the server's result shows from the first render, while the runtime is still being built
      const seed = now._tag === "Initial" ? peekSeed(get.registry, source.key) : undefined
      return seed === undefined ? now : fromSeed(seed)
    })

    /** What components read: the pages loaded, with the writes sent to the query's collections applied on top. */
    const overlays = idOf === undefined ? [] : source.keys.map((key) => pendingWrites(runtime, key))
    const result = Atom.setIdleTTL(
      Atom.make((get): AsyncResult.AsyncResult<QueryResult<A>, E | ER> => {
        const now = ownedBy(get(loaded), get(who), answeredFor)
        if (idOf === undefined || overlays.length === 0) return now
        const writes = overlays.flatMap((overlay) => get(overlay))
        if (writes.length === 0) return now
        if (overlays.length > 1) writes.sort((a, b) => a.seq - b.seq)
        return mapShown(now, (value) => applyWrites(value, carried.get(value)?.startedAt ?? 0, writes, idOf))
      }),
      idleTTL
    )

    const loadMore = Atom.writable((get) => get(control).pages, (ctx, _: void) => {
      const current = ctx.get(result)
      if (current._tag === "Initial" || AsyncResult.isWaiting(current)) return
      const c = ctx.get(control)
      const shown = shownValue(current)
      if (shown === undefined) return ctx.set(control, { ...c, epoch: c.epoch + 1, attempt: c.attempt + 1 })
      if (current._tag === "Success" && !shown.hasMore) return
      ctx.set(control, { ...c, pages: shown.pages + 1, attempt: c.attempt + 1 })
    })

    const reload = Atom.writable((get) => get(control).epoch, (ctx, _: void) => {
      const c = ctx.get(control)
      ctx.set(control, { ...c, epoch: c.epoch + 1, attempt: c.attempt + 1 })
    })

    return Object.assign(result, { key: source.key, loadMore, reload })
  }

  /** Who the queries are asked as: a change loads them again. */
  const who = sessionIdentity(runtime)

  const family = keyedFamily((source: QuerySource<any, any, R>) => source.key, build)

  /** The atom of any query source (the same atom for the same key). */
  const of = <A, E>(source: QuerySource<A, E, R>): QueryAtom<A, E | ER> => family(source) as QueryAtom<A, E | ER>

  return {
    of,
    /** A data query's atom: `queries.items(DataItems.query("Posts").eq("published", true).limit(20))`. */
    items: <A, F>(query: Query<A, R, F>, options?: { readonly key?: string }): QueryAtom<A, DataFailure | ER> => of(dataQuery(query, options)),
    /** A product query's atom: `queries.products(Products.query().hasSome("collectionIds", [id]).limit(24))`. */
    products: <A extends { readonly id?: string | null | undefined }, F>(query: OffsetQuery<A, R, F>, options?: { readonly key?: string }): QueryAtom<A, CatalogFailure | ER> =>
      of(catalogQuery("products", query, options)),
    /** A store-collection query's atom: `queries.collections(Collections.query().ascending("name"))`. */
    collections: <A extends { readonly id?: string | null | undefined }, F>(query: OffsetQuery<A, R, F>, options?: { readonly key?: string }): QueryAtom<A, CatalogFailure | ER> =>
      of(catalogQuery("collections", query, options)),
    /** The changes stream's state: Initial/waiting while it runs, a Failure when it stopped. */
    live
  }
}
