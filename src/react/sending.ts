/**
 * What the write atoms keep while their writes are on their way: the order of sending, the writes not
 * answered yet, the last refusal per collection, and each item's turn. Apart from optimistic.ts, which
 * the query atoms read, so a page that only queries carries none of it.
 */
import type * as Cause from "effect/Cause"
import { Atom } from "effect/reactivity"
import { stringFamily } from "./family.ts"
import { type PendingWrite, pendingWrites } from "./optimistic.ts"

let sends = 0
/** The next write's order number. */
export const nextSend = (): number => ++sends

/** A write the platform refused: what it was, and the platform's refusal. */
export interface RefusedWrite<E = unknown> {
  readonly kind: PendingWrite["kind"]
  readonly collection: string
  /** The item's id. */
  readonly id: string
  /** The item sent (an insert or update). */
  readonly item?: unknown
  /** Why: the platform's DataError (`Cause.squash` gives it), or whatever else stopped the write. */
  readonly cause: Cause.Cause<E>
}

const refusals = new WeakMap<object, (collection: string) => Atom.Writable<RefusedWrite<any> | undefined>>()

/** The atom of the last write refused on a collection, kept until another write on that item is sent. */
export const refusedWrite = (runtime: object, collection: string): Atom.Writable<RefusedWrite<any> | undefined> => {
  let family = refusals.get(runtime)
  if (family === undefined) {
    family = stringFamily(() => Atom.keepAlive(Atom.make<RefusedWrite<any> | undefined>(undefined)))
    refusals.set(runtime, family)
  }
  return family(collection)
}

const unsettled = new WeakMap<object, (key: string) => Atom.Atom<ReadonlyArray<PendingWrite>>>()

/** The atom of a runtime's writes on one collection (by its Reactivity key) the platform has not answered yet. */
export const unsettledWrites = (runtime: object, key: string): Atom.Atom<ReadonlyArray<PendingWrite>> => {
  let family = unsettled.get(runtime)
  if (family === undefined) {
    family = stringFamily((key: string) => {
      const all = pendingWrites(runtime, key)
      let last: ReadonlyArray<PendingWrite> = []
      return Atom.make((get) => {
        const now = get(all).filter((w) => w.confirmedAt === undefined)
        // the same array while nothing unsettled changed, so readers do not render again for nothing
        if (now.length === last.length && now.every((w, i) => w === last[i])) return last
        return last = now
      })
    })
    unsettled.set(runtime, family)
  }
  return family(key)
}

/** Per item, the end of the last write sent on it: the next one waits for it, so writes on an item reach the platform in order. */
const tails = new WeakMap<object, Map<string, Promise<void>>>()

/** Takes the item's turn: resolves when the writes sent before on it have settled; call `done` when this one has. */
export const takeTurn = (runtime: object, itemKey: string): { readonly ready: Promise<void>; readonly done: () => void } => {
  let byItem = tails.get(runtime)
  if (byItem === undefined) tails.set(runtime, byItem = new Map())
  const ready = byItem.get(itemKey) ?? Promise.resolve()
  let release!: () => void
  const mine = new Promise<void>((resolve) => (release = resolve))
  byItem.set(itemKey, mine)
  return {
    ready,
    done: () => {
      release()
      if (byItem.get(itemKey) === mine) byItem.delete(itemKey)
    }
  }
}
