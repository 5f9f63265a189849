/**
 * Data item writes as optimistic atom functions (`writeAtoms`) over the query atoms of query.ts: a module
 * of its own, so a page that only reads queries (a store's first screen) carries no write code.
 */
import * as Effect from "effect/Effect"
import * as Fiber from "effect/Fiber"
import type * as Option from "effect/Option"
import { Atom } from "effect/reactivity"
import type { DataFailure, Item, ItemInput, WriteOptions } from "../data/calls.ts"
import { insert, remove, update } from "../data/itemCalls.ts"
import type { PlatformClient } from "../http/PlatformClient.ts"
import { nextLoad, type PendingWrite, pendingWrites } from "./optimistic.ts"
import { nextSend, refusedWrite, type RefusedWrite, takeTurn, unsettledWrites } from "./sending.ts"
import { dataChange } from "./changes.ts"
import { QueryKeys } from "./keys.ts"
import { invalidate } from "./query.ts"
import { knownRuntime } from "./hydration.ts"

/** What `writes.insert` takes: the collection, the new item (`_id` optional) and write options. */
export interface InsertInput {
  readonly collection: string
  readonly item: ItemInput
  readonly options?: WriteOptions
}
/** What `writes.update` takes: the collection, the whole item to store under its `_id`, and write options. */
export interface UpdateInput {
  readonly collection: string
  readonly item: Item
  readonly options?: WriteOptions
}
/** What `writes.remove` takes: the collection, the id of the item to remove, and write options. */
export interface RemoveInput {
  readonly collection: string
  readonly id: string
  readonly options?: WriteOptions
}

/** What an optimistic write needs: where it shows, what it shows, how it is sent, what the platform's answer shows. */
interface WritePlan<A> {
  readonly collection: string
  readonly kind: PendingWrite["kind"]
  readonly id: string
  readonly item?: unknown
  readonly send: Effect.Effect<A, DataFailure, PlatformClient>
  /** The item the platform returned, shown in place of the one sent until the queries load again. */
  readonly answer: (a: A) => Item | undefined
}

/** How long a write the platform took stays applied on queries that have not loaded since (they reload at once). */
const CONFIRMED_KEPT_MS = 30_000

let localIds = 0
/** The id an insert sent without one shows under until the platform gives it its own. */
const localId = (): string => `sitefx-pending-${++localIds}`

/**
 * Data item writes as atom functions, optimistic: a write shows at once in every query atom of its
 * collection (an insert first in each list, an update in place, a removal gone), then the platform's
 * answer settles it: taken, the queries of the collection load again (showing the item the platform
 * returned meanwhile); refused, it is taken back out, and the atom's Failure holds the platform's DataError
 * (with its `rule` when a permission or hook refused it). Writes on one item reach the platform in the
 * order they were sent, each shown on top of the ones before it; one refused leaves the others standing.
 * A write once sent settles even if the component that sent it goes away (or resets the atom).
 */
export const writeAtoms = <R, ER>(runtime: Atom.AtomRuntime<R | PlatformClient, ER>) => {
  knownRuntime(runtime)
  const optimistic = <Arg, A>(plan: (arg: Arg) => WritePlan<A>): Atom.AtomResultFn<Arg, A, DataFailure | ER> => {
    interface Sent {
      readonly plan: WritePlan<A>
      readonly seq: number
      readonly turn: ReturnType<typeof takeTurn>
    }
    const run = runtime.fn((sent: Sent, get) => {
      const registry = get.registry
      const key = QueryKeys.data(sent.plan.collection)
      const overlay = pendingWrites(runtime, key)
      const settle = (f: (write: PendingWrite) => PendingWrite | undefined) => {
        try {
          registry.update(overlay, (writes) => writes.flatMap((w) => w.seq === sent.seq ? (f(w) ?? []) : [w]))
        } catch {
          // the registry is gone, and the queries with it
        }
      }
      const work = Effect.promise(() => sent.turn.ready).pipe(
        Effect.andThen(sent.plan.send),
        Effect.tap((a) =>
          Effect.sync(() => {
            const answer = sent.plan.answer(a)
            settle((w) => ({ ...w, id: answer?._id ?? w.id, item: answer ?? w.item, confirmedAt: nextLoad() }))
            const timer = setTimeout(() => settle(() => undefined), CONFIRMED_KEPT_MS) as unknown as { unref?: () => void }
            timer.unref?.()
            return answer
          }).pipe(Effect.flatMap((answer) => invalidate([dataChange(sent.plan.collection, answer?._id ?? sent.plan.id)])))
        ),
        Effect.onExit((exit) =>
          Effect.sync(() => {
            if (exit._tag === "Failure") {
              settle(() => undefined)
              const { collection, id, item, kind } = sent.plan
              try {
                registry.set(refusedWrite(runtime, collection), { kind, collection, id, item, cause: exit.cause })
              } catch {
                // the registry is gone
              }
            }
            sent.turn.done()
          })
        )
      )
      return Effect.flatMap(Effect.forkDetach(work), Fiber.join)
    })
    return Atom.writable((get) => get(run), (ctx, arg: Arg | Atom.Reset | Atom.Interrupt) => {
      if (arg === Atom.Reset || arg === Atom.Interrupt) return ctx.set(run, arg as Atom.Reset | Atom.Interrupt)
      const p = plan(arg as Arg)
      const seq = nextSend()
      const overlay = pendingWrites(runtime, QueryKeys.data(p.collection))
      ctx.set(overlay, [...ctx.get(overlay), { seq, kind: p.kind, id: p.id, item: p.item }])
      const refused = refusedWrite(runtime, p.collection)
      if (ctx.get(refused)?.id === p.id) ctx.set(refused, undefined)
      ctx.set(run, { plan: p, seq, turn: takeTurn(runtime, `${p.collection}\u0000${p.id}`) })
    })
  }

  return {
    /**
     * The last write refused on a collection, until another write on that item is sent: where a refusal
     * shows when the form that sent the write is gone (a removed item's card comes back with it).
     */
    refused: (collection: string): Atom.Atom<RefusedWrite<DataFailure> | undefined> => refusedWrite(runtime, collection),
    /** The writes on a collection the platform has not answered yet, in the order sent (a card can say "Saving…"). */
    pending: (collection: string): Atom.Atom<ReadonlyArray<PendingWrite>> => unsettledWrites(runtime, QueryKeys.data(collection)),
    insert: optimistic((input: InsertInput): WritePlan<Item> => {
      const id = typeof input.item._id === "string" && input.item._id !== "" ? input.item._id : localId()
      return {
        collection: input.collection,
        kind: "insert",
        id,
        item: { ...input.item, _id: id },
        send: insert(input.collection, input.item, input.options),
        answer: (item) => item
      }
    }),
    update: optimistic((input: UpdateInput): WritePlan<Item> => ({
      collection: input.collection,
      kind: "update",
      id: input.item._id,
      item: input.item,
      send: update(input.collection, input.item, input.options),
      answer: (item) => item
    })),
    remove: optimistic((input: RemoveInput): WritePlan<Option.Option<Item>> => ({
      collection: input.collection,
      kind: "remove",
      id: input.id,
      send: remove(input.collection, input.id, input.options),
      answer: () => undefined
    }))
  }
}
