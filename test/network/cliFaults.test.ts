/**
 * The batch command over a breaking network: `sitefx data import` and `sitefx data export` run as their
 * own processes against the local platform through a FaultProxy that resets a share of the connections
 * and cuts every open one every 400 ms. The import is killed halfway and run again from its checkpoint;
 * both end with every row once.
 */
import { assert, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Stream from "effect/Stream"
import { existsSync, readFileSync, writeFileSync } from "node:fs"
import { join } from "node:path"
import * as DataItems from "../../src/data/DataItems.ts"
import { Site } from "../../src/Site.ts"
import * as FaultProxy from "../../src/testing/FaultProxy.ts"
import { startCli, waitFor } from "../cli/support.ts"
import { freshCollection } from "../data/support.ts"
import { LocalPlatform, tempDir } from "../support/platform.ts"

const ROWS = 100_000

it.layer(LocalPlatform.layer({ seed: "none" }), { excludeTestServices: true })("the batch command through network faults", (it) => {
  it.effect("an import killed halfway resumes from its checkpoint, and an export completes: every row once", () =>
    Effect.scoped(Effect.gen(function*() {
      const platform = yield* LocalPlatform
      // the rows, the checkpoint and the export (some 9 MB), removed when the test ends
      const dir = yield* tempDir("sitefx-cli-faults-")
      const file = (name: string) => join(dir, name)
      const proxy = yield* FaultProxy.start({ target: platform.url, seed: 5, plan: { resetRate: 0.2, cutEveryMs: 400 } })
      const c = yield* freshCollection("CliFaults")
      const input = file("rows.jsonl")
      const checkpoint = file("rows.ckpt")
      writeFileSync(input, Array.from({ length: ROWS }, (_, n) => JSON.stringify({ n, label: `row ${n}` })).join("\n"))
      const args = ["data", "import", c, input, "--checkpoint", checkpoint, "--concurrency", "2", "--base-url", proxy.url]

      const first = startCli(args, { timeoutMs: 120_000 })
      const settled = () => (existsSync(checkpoint) ? (JSON.parse(readFileSync(checkpoint, "utf8")) as { settled: number }).settled : 0)
      yield* Effect.promise(() => waitFor("the checkpoint to pass 30 000 rows", () => settled() >= 30_000, 90_000))
      first.child.kill("SIGKILL")
      yield* Effect.promise(() => first.done)
      assert.isBelow(settled(), ROWS)

      const second = yield* Effect.promise(() => startCli(args, { timeoutMs: 180_000 }).done)
      assert.strictEqual(second.code, 0, second.stderr)
      assert.match(second.stdout, /resumed after \d+ items settled by an earlier run/)
      assert.match(second.stdout, /100000 inserted, 0 updated, 0 skipped, 0 failed/)

      const exported = file("out.jsonl")
      const out = yield* Effect.promise(() => startCli(["data", "export", c, "--out", exported, "--base-url", proxy.url], { timeoutMs: 180_000 }).done)
      assert.strictEqual(out.code, 0, out.stderr)
      const stats = yield* proxy.stats
      assert.isAbove(stats.resets + stats.cuts, 10, `the network broke often: ${JSON.stringify(stats)}`)

      const lines = readFileSync(exported, "utf8").trim().split("\n").map((l) => JSON.parse(l) as { n: number })
      assert.strictEqual(lines.length, ROWS, "the export has every row once")
      assert.strictEqual(new Set(lines.map((l) => l.n)).size, ROWS)

      // and the collection itself, read directly
      const site = Site.apiKey({ baseUrl: platform.url, apiKey: platform.apiKey, siteId: platform.siteId })
      const ns = yield* DataItems.query(c).fields("n").stream.pipe(Stream.map((i) => i["n"] as number), Stream.runCollect, Effect.provide(Layer.fresh(site)))
      assert.strictEqual(ns.length, ROWS)
      assert.strictEqual(new Set(ns).size, ROWS)
    })), 300_000)
})
