/**
 * A local platform for a test file or suite: started on an ephemeral port, its state saved once it is
 * seeded (or loaded from a snapshot), and put back before each test, so every test starts from the
 * same site however the one before it left it (a restore takes a few tens of milliseconds).
 *
 * @example
 * import { assert } from "@effect/vitest"
 * import { TestPlatform } from "sitefx/testing"
 *
 * TestPlatform.describe("my site", { seed: "demo" }, (it) => {
 *   it.effect("starts from the demo site", () => Effect.gen(function*() {
 *     const { url } = yield* TestPlatform
 *     assert.match(url, /^http:\/\/127\.0\.0\.1:/)
 *   }))
 * })
 */
import { layer as vitestLayer, type Vitest } from "@effect/vitest"
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import type { PlatformError } from "effect/PlatformError"
import type { ServeError } from "effect/http/HttpServerError"
import { beforeEach } from "vitest"
import { LocalPlatform, type LocalPlatformOptions, type LocalPlatformShape } from "../server/LocalPlatform.ts"
import { type SnapshotError, Snapshots } from "../server/dev/Snapshots.ts"
import { layerWithCore } from "../server/LocalPlatform.ts"

/** What a test platform starts from: a seed (default `demo`) or a snapshot folder, and the platform's other settings. */
export type TestPlatformOptions = Omit<LocalPlatformOptions, "port" | "host" | "exportOnExit" | "dev">

/** A started test platform: what {@link LocalPlatform} gives, and the reset to the state it started from. */
export interface TestPlatformShape extends LocalPlatformShape {
  /** Puts back the state the platform started from (what `describe` does before each test). */
  readonly reset: Effect.Effect<void, SnapshotError>
}

/** The name the starting state is saved under, in the platform's own snapshots. */
const BASELINE = "sitefx-test-baseline"

export class TestPlatform extends Context.Service<TestPlatform, TestPlatformShape>()("sitefx/testing/TestPlatform") {
  /**
   * Starts a platform (closed with the layer) on an ephemeral port, saves its starting state, and
   * provides it as both `TestPlatform` and `LocalPlatform`. Resets are up to the caller: `describe`
   * does one before each test.
   */
  static layer(options: TestPlatformOptions = {}): Layer.Layer<TestPlatform | LocalPlatform, ServeError | PlatformError | SnapshotError> {
    return Layer.effectContext(Effect.gen(function*() {
      // the platform's own services stay inside: a test sees the platform as a client does
      const context = yield* Layer.build(layerWithCore({ seed: "demo", ...options, dev: true }))
      const platform = Context.get(context, LocalPlatform)
      const snapshots = Context.get(context, Snapshots)
      yield* snapshots.save(BASELINE, { overwrite: true })
      const test = TestPlatform.of({ ...platform, reset: Effect.asVoid(snapshots.restore(BASELINE)) })
      return Context.make(TestPlatform, test).pipe(Context.add(LocalPlatform, platform))
    }))
  }

  /**
   * A suite of `@effect/vitest` tests on one platform, reset to its starting state before each test.
   * `it` is @effect/vitest's, with `TestPlatform` and `LocalPlatform` provided.
   */
  static describe(
    name: string,
    options: TestPlatformOptions,
    body: (it: Vitest.MethodsNonLive<TestPlatform | LocalPlatform>) => void
  ): void {
    let reset: Effect.Effect<void, SnapshotError> | undefined
    let ran = false
    const remembered = Layer.effectDiscard(Effect.gen(function*() {
      reset = (yield* TestPlatform).reset
    })).pipe(Layer.provideMerge(TestPlatform.layer(options)))
    vitestLayer(remembered, { excludeTestServices: true })(name, (it) => {
      beforeEach(async () => {
        // the first test finds the state as it was saved
        if (ran && reset !== undefined) await Effect.runPromise(reset)
        ran = true
      })
      body(it)
    })
  }
}
