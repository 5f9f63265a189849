/**
 * Server rendering with the queries' results handed to the client. On the server, `prefetch` loads a
 * page's query atoms into the request's registry, React renders from them, and `dehydrate` takes their
 * results as JSON (`queriesScript` puts it in the page). On the client, `hydrate` (or `RegistryProvider`'s
 * `dehydrated`) seeds a registry with them before the first render: each query atom shows its seed at
 * once and takes it as its first load, so hydrating asks the platform nothing for those queries. A seed
 * serves one first load; reloads, more pages and the collection's changes ask the platform as usual.
 *
 * Effect's `Hydration` module seeds atoms marked `Atom.serializable`, each with a schema; a query's items
 * are whatever the query decodes to, so sitefx seeds its query atoms itself, by their cache keys, and
 * carries dates across as `{ "$date": ISO string }` (the data API's own notation).
 */
import type { AtomRegistry } from "effect/reactivity"
import type { Atom } from "effect/reactivity"
import type { AsyncResult } from "effect/reactivity"

/** A query result as it travels: JSON only. */
export interface DehydratedQuery {
  readonly items: ReadonlyArray<unknown>
  readonly hasMore: boolean
  readonly total?: number | undefined
  readonly pages: number
  /** When the server had the result (epoch milliseconds). */
  readonly at?: number | undefined
}

/** The results of a page's queries, by query key: what `dehydrate` gives and `hydrate` takes. */
export interface DehydratedQueries {
  readonly sitefxQueries: 1
  readonly queries: Readonly<Record<string, DehydratedQuery>>
}

/** What the cache keeps of a seed until a query atom takes it. */
export interface Seed {
  readonly items: ReadonlyArray<unknown>
  readonly hasMore: boolean
  readonly total: number | undefined
  readonly pages: number
  /** When the server had the result (epoch milliseconds), if it said. */
  readonly at?: number | undefined
}

const seeds = new WeakMap<AtomRegistry.AtomRegistry, Map<string, Seed>>()

/** The atom runtimes sitefx's atoms were built on (an app has one or two, for its whole life). */
const runtimes = new Set<Atom.Atom<AsyncResult.AsyncResult<unknown, unknown>>>()

/** Notes a runtime sitefx's atoms are built on, so a server render's registry can hold it still. */
export const knownRuntime = (runtime: Atom.Atom<AsyncResult.AsyncResult<any, any>>): void => void runtimes.add(runtime)

/** What a runtime holds in a server render's own registry: a failure that means "not here". */
export const RENDER_ONLY: unique symbol = Symbol.for("sitefx/react/renderOnly")

const renderOnly = new WeakSet<AtomRegistry.AtomRegistry>()

/**
 * A registry a server render makes for itself (a `RegistryProvider` with no registry given, rendering
 * where there is no window) holds every runtime of sitefx's atoms unbuilt: nothing built on one runs
 * (no request, no timer, no clock read, which Next.js's prerender refuses). Its queries show their seed
 * (the page's `dehydrated`) or are loading, and so does everything else on those runtimes: the
 * browser's registry asks, after hydration, for whatever the page was not given.
 */
export const renderOnlyRegistry = (failure: AsyncResult.AsyncResult<never, typeof RENDER_ONLY>, make: typeof AtomRegistry.make): AtomRegistry.AtomRegistry => {
  const registry = make({
    initialValues: Array.from(runtimes, (runtime) => [runtime, failure, { skipInitialRun: true }] as const),
    // a render's registry lives for one render: no atom is let go later, nothing is scheduled
    scheduleTask: () => () => {}
  })
  renderOnly.add(registry)
  return registry
}

/** Whether a registry is a server render's own (see `renderOnlyRegistry`). */
export const isRenderOnly = (registry: AtomRegistry.AtomRegistry): boolean => renderOnly.has(registry)

/** A value that stands for "not in this render": a runtime held unbuilt, or what was built on one. */
export const isRenderOnlyResult = (value: unknown): boolean =>
  value !== null && typeof value === "object" && (value as { _tag?: unknown })._tag === "Failure" &&
  (value as { cause: { reasons: ReadonlyArray<{ _tag: string; error?: unknown }> } }).cause.reasons.some((r) => r._tag === "Fail" && r.error === RENDER_ONLY)

/** The seed of a query in this registry, if one waits (left in place). */
export const peekSeed = (registry: AtomRegistry.AtomRegistry, key: string): Seed | undefined => seeds.get(registry)?.get(key)

/** Takes the seed of a query in this registry: it serves one load. */
export const takeSeed = (registry: AtomRegistry.AtomRegistry, key: string): Seed | undefined => {
  const byKey = seeds.get(registry)
  const seed = byKey?.get(key)
  if (seed !== undefined) byKey!.delete(key)
  return seed
}

/** Drops the seeds no query took: they answered for the page's identity, and someone else is signed in now. */
export const dropSeeds = (registry: AtomRegistry.AtomRegistry): void => void seeds.delete(registry)

const encode = (value: unknown): unknown => {
  if (value instanceof Date) return { $date: value.toISOString() }
  if (Array.isArray(value)) return value.map(encode)
  if (value !== null && typeof value === "object") {
    const out: Record<string, unknown> = {}
    for (const [k, v] of Object.entries(value)) if (v !== undefined) out[k] = encode(v)
    return out
  }
  return value
}

const decode = (value: unknown): unknown => {
  if (Array.isArray(value)) return value.map(decode)
  if (value !== null && typeof value === "object") {
    const entries = Object.entries(value)
    if (entries.length === 1 && entries[0]![0] === "$date" && typeof entries[0]![1] === "string") return new Date(entries[0]![1])
    return Object.fromEntries(entries.map(([k, v]) => [k, decode(v)]))
  }
  return value
}

/** A query atom as far as hydration goes: its cache key and its result. */
type QueryLike = Atom.Atom<AsyncResult.AsyncResult<Seed, unknown>> & { readonly key: string }

/**
 * Loads these query atoms in the registry and resolves once each has an answer (a result or a failure),
 * or once `timeout` milliseconds have passed (a query still loading then is left out of `dehydrate`, and
 * the browser asks for it). They stay mounted until the registry is disposed: a server makes one
 * registry per request.
 */
export const prefetch = (registry: AtomRegistry.AtomRegistry, atoms: ReadonlyArray<QueryLike>, options: { readonly timeout?: number } = {}): Promise<void> => {
  const answered = Promise.all(atoms.map((atom) =>
    new Promise<void>((resolve) => {
      registry.mount(atom)
      const stop = registry.subscribe(atom, (result) => {
        if (result._tag === "Initial" || result.waiting) return
        queueMicrotask(() => stop())
        resolve()
      }, { immediate: true })
    })
  )).then(() => undefined)
  if (options.timeout === undefined) return answered
  let timer: ReturnType<typeof setTimeout> | undefined
  const late = new Promise<void>((resolve) => (timer = setTimeout(resolve, options.timeout)))
  return Promise.race([answered, late]).finally(() => clearTimeout(timer))
}

/** The loaded results of these query atoms, as JSON for the page (a query that failed or has not loaded is left out). */
export const dehydrate = (registry: AtomRegistry.AtomRegistry, atoms: ReadonlyArray<QueryLike>): DehydratedQueries => {
  const queries: Record<string, DehydratedQuery> = {}
  for (const atom of atoms) {
    const result = registry.get(atom)
    if (result._tag !== "Success") continue
    const { hasMore, items, pages, total } = result.value
    queries[atom.key] = { items: encode(items) as ReadonlyArray<unknown>, hasMore, pages, ...(total === undefined ? {} : { total }), at: result.timestamp }
  }
  return { sitefxQueries: 1, queries }
}

/** Seeds a registry with a page's query results, before anything reads them. Ignores anything that is not `dehydrate`'s output. */
export const hydrate = (registry: AtomRegistry.AtomRegistry, state: unknown): void => {
  if (state === null || typeof state !== "object" || (state as { sitefxQueries?: unknown }).sitefxQueries !== 1) return
  const queries = (state as { queries?: unknown }).queries
  if (queries === null || typeof queries !== "object") return
  let byKey = seeds.get(registry)
  if (byKey === undefined) seeds.set(registry, byKey = new Map())
  for (const [key, query] of Object.entries(queries as Record<string, Partial<DehydratedQuery>>)) {
    if (!Array.isArray(query.items) || typeof query.hasMore !== "boolean" || typeof query.pages !== "number") continue
    byKey.set(key, {
      items: decode(query.items) as ReadonlyArray<unknown>,
      hasMore: query.hasMore,
      total: typeof query.total === "number" ? query.total : undefined,
      pages: query.pages,
      at: typeof query.at === "number" ? query.at : undefined
    })
  }
}

/** The id of the script element `queriesScript` writes and `readQueriesScript` reads. */
export const QUERIES_SCRIPT_ID = "sitefx-queries"

/**
 * A `<script type="application/json">` holding the queries' results, safe inside HTML (no `<` survives
 * as itself, so an item's text cannot close the script).
 */
export const queriesScript = (state: DehydratedQueries, id: string = QUERIES_SCRIPT_ID): string =>
  `<script type="application/json" id="${id.replace(/[^\w-]/g, "")}">${
    JSON.stringify(state).replace(/</g, "\\u003c").replace(/\u2028/g, "\\u2028").replace(/\u2029/g, "\\u2029")
  }</script>`

/** In a browser, the queries' results the server put in the page (undefined when there are none). */
export const readQueriesScript = (id: string = QUERIES_SCRIPT_ID): DehydratedQueries | undefined => {
  const doc = (globalThis as { document?: { getElementById(id: string): { textContent: string | null } | null } }).document
  const text = doc?.getElementById(id)?.textContent
  if (text === undefined || text === null || text === "") return undefined
  try {
    return JSON.parse(text) as DehydratedQueries
  } catch {
    return undefined
  }
}
