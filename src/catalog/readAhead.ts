/**
 * How the catalog's queries walk their pages (v1 offset queries and v3 cursor queries alike): each page's
 * `next` starts as soon as the page arrives, so the next page is on its way while this one is read, and
 * a consumer that stops early interrupts the page still in flight.
 */
import * as Effect from "effect/Effect"
import * as Fiber from "effect/Fiber"
import * as Option from "effect/Option"
import * as Stream from "effect/Stream"

/** A page that knows whether another follows and how to fetch it. */
export interface Paged<P, E, R> {
  readonly hasNext: boolean
  readonly next: Effect.Effect<P, E, R>
}

/** What `emit` makes of every page from `first` on, the next page fetched while this one is read. */
export const readAhead = <P extends Paged<P, E, R>, X, E, R>(
  first: Effect.Effect<P, E, R>,
  emit: (page: P) => ReadonlyArray<X>
): Stream.Stream<X, E, R> =>
  Stream.unwrap(Effect.sync(() => {
    let pending: Fiber.Fiber<P, E> | undefined
    return Stream.paginate(first, (current) =>
      Effect.gen(function*() {
        const page = yield* current
        let later: Option.Option<Effect.Effect<P, E>> = Option.none()
        if (page.hasNext) {
          const fiber = yield* Effect.forkChild(page.next, { startImmediately: true })
          pending = fiber
          later = Option.some(Fiber.join(fiber))
        }
        return [emit(page), later] as const
      })).pipe(Stream.ensuring(Effect.suspend(() => (pending === undefined ? Effect.void : Fiber.interrupt(pending)))))
  }))
