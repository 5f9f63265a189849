import { assert } from "@effect/vitest"
import * as Effect from "effect/Effect"
import { DataItems, Site } from "sitefx"
import { FaultProxy, LocalPlatform, TestPlatform } from "sitefx/testing"

// The test kit with a FaultProxy between a visitor and the platform, as a consumer writes it (the packed
// package runs this file in a consumer's project; test/package/consumer.test.ts).
TestPlatform.describe("the demo site through a breaking network", { seed: "demo" }, (it) => {
  it.effect("a visitor's reads come through connection resets", () =>
    Effect.scoped(Effect.gen(function*() {
      const platform = yield* LocalPlatform
      const proxy = yield* FaultProxy.start({ target: platform.url, seed: 3, plan: { resetRate: 0.3 } })
      const visitor = Site.layer({ baseUrl: proxy.url, clientId: platform.clientId, retry: { base: "5 millis" } })
      for (let i = 0; i < 10; i++) assert.strictEqual(yield* DataItems.query("Posts").count.pipe(Effect.provide(visitor)), 3)
      assert.isAbove((yield* proxy.stats).resets, 0, "some connections were reset")
    })))
})
