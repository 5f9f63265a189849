/** sitefx/dev's tests: its calls against a real platform, over the wire a script would use. */
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Dev from "../../src/dev/index.ts"
import type { PlatformConfig } from "../../src/http/PlatformConfig.ts"
import type { PlatformHttp } from "../../src/http/PlatformHttp.ts"
import { LocalPlatform } from "../support/platform.ts"

/** Runs dev calls against the test's platform (retries quick, so injected faults do not slow a test). */
export const onDev = <A, E, R>(effect: Effect.Effect<A, E, R>) =>
  Effect.gen(function*() {
    const platform = yield* LocalPlatform
    return yield* Effect.provide(effect, Layer.fresh(Dev.layer({ baseUrl: platform.url, retry: { base: "5 millis", cap: "50 millis" } })), { local: true })
  }) as Effect.Effect<A, E, Exclude<R, PlatformHttp | PlatformConfig> | LocalPlatform>

