/**
 * The writes a collection's queries show before the platform answers. Each runtime keeps, per collection
 * (its Reactivity key), the writes sent and not yet settled, in the order they were sent; a query atom
 * shows its loaded pages with those writes applied on top, so an insert, update or remove shows at once
 * in every query of the collection. A refused write is taken out (the writes after it stay applied, on
 * the pages as loaded); a write the platform took stays applied, with the item the platform returned,
 * until the query's pages have loaded again after it, so nothing flickers between the answer and the reload.
 *
 * Effect's `Atom.optimistic` wraps one atom; here one write shows in every query of its collection, those
 * built after it was sent included, so the writes sit in an atom of their own that each query reads.
 */
import * as Option from "effect/Option"
import { AsyncResult, Atom } from "effect/reactivity"
import { stringFamily } from "./family.ts"

/** A write sent and not yet settled (or settled, and waiting for the queries to load again). */
export interface PendingWrite {
  /** Order of sending, within the runtime. */
  readonly seq: number
  readonly kind: "insert" | "update" | "remove"
  /** The item's id. */
  readonly id: string
  /** The item shown (an insert or update): the one sent, then the one the platform returned. */
  readonly item?: unknown
  /** Set when the platform took the write: the load number after which the queries' pages show it themselves. */
  readonly confirmedAt?: number | undefined
}

let loads = 0
/** A new load number: every page load takes one as it starts, every confirmed write one as it lands. */
export const nextLoad = (): number => ++loads

/** What a query atom's result knows about itself: when its oldest shown page started loading. */
export interface Loaded {
  readonly startedAt: number
}

/** The pending writes of a runtime, per Reactivity key; one family per runtime. */
const overlays = new WeakMap<object, (key: string) => Atom.Writable<ReadonlyArray<PendingWrite>>>()

/** The atom of a runtime's pending writes on one collection (by its Reactivity key). */
export const pendingWrites = (runtime: object, key: string): Atom.Writable<ReadonlyArray<PendingWrite>> => {
  let family = overlays.get(runtime)
  if (family === undefined) {
    family = stringFamily(() => Atom.keepAlive(Atom.make<ReadonlyArray<PendingWrite>>([])))
    overlays.set(runtime, family)
  }
  return family(key)
}

/** The shape query results have, as far as applying writes goes. */
interface Shown<A> {
  readonly items: ReadonlyArray<A>
  readonly total: number | undefined
}

/** The result with the writes applied in order: those not settled, and those settled after its pages started loading. */
export const applyWrites = <R extends Shown<A>, A>(
  shown: R,
  startedAt: number,
  writes: ReadonlyArray<PendingWrite>,
  idOf: (item: A) => string | null | undefined
): R => {
  let items = shown.items
  let total = shown.total
  let changed = false
  for (const write of writes) {
    if (write.confirmedAt !== undefined && write.confirmedAt < startedAt) continue
    const at = items.findIndex((item) => idOf(item) === write.id)
    if (write.kind === "remove") {
      if (at < 0) continue
      items = items.filter((_, i) => i !== at)
      total = total === undefined ? undefined : total - 1
    } else if (at >= 0) {
      items = items.map((item, i) => i === at ? write.item as A : item)
    } else if (write.kind === "insert") {
      items = [write.item as A, ...items]
      total = total === undefined ? undefined : total + 1
    } else {
      continue
    }
    changed = true
  }
  return changed ? { ...shown, items, total } : shown
}

/** An AsyncResult's shown value mapped, keeping its tag, waiting flag and the failure's previous success. */
export const mapShown = <A, E>(result: AsyncResult.AsyncResult<A, E>, f: (a: A) => A): AsyncResult.AsyncResult<A, E> => {
  if (result._tag === "Success") {
    const next = f(result.value)
    return next === result.value ? result : AsyncResult.success(next, { waiting: result.waiting, timestamp: result.timestamp })
  }
  if (result._tag === "Failure" && result.previousSuccess._tag === "Some") {
    const previous = result.previousSuccess.value
    const next = f(previous.value)
    if (next === previous.value) return result
    return AsyncResult.failure(result.cause, { previousSuccess: Option.some(AsyncResult.success<A, E>(next, { timestamp: previous.timestamp })), waiting: result.waiting })
  }
  return result
}
