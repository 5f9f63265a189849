/**
 * The platform abandons due carts on its own, not only when somebody reads the abandoned carts: after
 * every change of the clock's skew (in the fiber that changed it, so `POST /_sitefx/clock` answers once
 * the carts it made due are abandoned and their CartAbandonedEvents logged) and on a schedule, as time
 * passes (a fiber of the layer, stopped with the platform). Each run is one `abandonDue` on the ecom
 * engine: a synchronous transaction on node:sqlite, so it never interleaves with another transaction,
 * a reset or a restore; a run with nothing due reads one range of the index `ecom_carts_open` and
 * writes nothing. A run abandons a cart on the origin its shopper's requests recorded; one without (made
 * in-process, or before the platform recorded origins) waits for a read of the abandoned carts.
 */
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import { ServerClock } from "../../platform/ServerClock.ts"
import { CartStore } from "./CartStore.ts"

/** How often the platform looks for carts that became due as time passed. */
export const ABANDON_SWEEP_INTERVAL: Duration.Input = "1 minute"

export interface AbandonSweepOptions {
  /** How often due carts are abandoned as time passes (default {@link ABANDON_SWEEP_INTERVAL}). */
  readonly abandonSweepInterval?: Duration.Input | undefined
}

export const abandonSweepLayer = (options: AbandonSweepOptions = {}): Layer.Layer<never, never, CartStore | ServerClock> =>
  Layer.effectDiscard(Effect.gen(function*() {
    const carts = yield* CartStore
    const clock = yield* ServerClock
    // a failed run is the platform's own (its storage); the skew is set all the same, and the next run
    // tries again
    const sweep = carts.abandonDue(undefined).pipe(
      Effect.catchCause((cause) => Effect.logWarning("sitefx: due carts could not be abandoned; the next sweep tries again", cause))
    )
    clock.onChange(sweep)
    yield* Effect.forkScoped(Effect.forever(Effect.delay(sweep, options.abandonSweepInterval ?? ABANDON_SWEEP_INTERVAL)))
  }))
