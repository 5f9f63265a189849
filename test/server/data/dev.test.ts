import { assert, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import { LocalPlatform } from "../../../src/server/index.ts"
import { apiKey, dev } from "../support.ts"
import { codeOf, count, data, freshCollection, ok } from "./support.ts"

const hookError = { name: "ValidationError", message: "Titles must not shout", code: "SHOUTING" }

it.layer(LocalPlatform.layer({ dataMaxPayloadBytes: 64 * 1024 }), { excludeTestServices: true })("data dev endpoints", (it) => {
  it.effect("a registered hook fails matching writes with WDE0078 carrying the hook's error; others go ahead", () =>
    Effect.gen(function*() {
      const c = yield* freshCollection()
      yield* ok("POST", "/items", { dataCollectionId: c, dataItem: { id: "keep", data: { v: 1 } } })
      yield* dev("POST", "/data/hooks", { dataCollectionId: c, hook: "beforeInsert", error: hookError })
      yield* dev("POST", "/data/hooks", { dataCollectionId: c, hook: "beforeRemove", error: { name: "Error", message: "No removals" } })
      const insert = yield* data("POST", "/items", { dataCollectionId: c, dataItem: { data: { title: "HI" } } })
      assert.strictEqual(insert.status, 400)
      assert.strictEqual(codeOf(insert), "WDE0078")
      assert.deepStrictEqual(insert.body.details.applicationError.data, { jsErrorValue: hookError })
      // in a bulk insert the hook refuses every item; an item that is not valid data says so first
      const bulk = yield* ok("POST", "/bulk/items/insert", { dataCollectionId: c, dataItems: [{ data: {} }, { data: { _id: 5 } }, { id: "h", data: { v: 1 } }] })
      assert.deepStrictEqual(bulk.results.map((r: any) => r.itemMetadata.error.code), ["WDE0078", "WDE0002", "WDE0078"])
      assert.deepStrictEqual(bulk.results[0].itemMetadata.error.data, { jsErrorValue: hookError })
      assert.deepStrictEqual(bulk.results[2].itemMetadata.error.data, { jsErrorValue: hookError })
      assert.deepStrictEqual(bulk.bulkActionMetadata, { totalSuccesses: 0, totalFailures: 3 })
      assert.strictEqual(yield* count(c), 1)
      const suppressed = yield* ok("POST", "/bulk/items/insert", { dataCollectionId: c, dataItems: [{ id: "s1", data: {} }, { id: "s2", data: {} }], suppressHooks: true })
      assert.deepStrictEqual(suppressed.bulkActionMetadata, { totalSuccesses: 2, totalFailures: 0 })
      yield* ok("POST", "/bulk/items/remove", { dataCollectionId: c, dataItemIds: ["s1", "s2"], suppressHooks: true })
      const removal = yield* data("POST", "/items/remove", { dataCollectionId: c, dataItemId: "keep" })
      assert.strictEqual(codeOf(removal), "WDE0078")
      assert.strictEqual(removal.body.details.applicationError.description, "No removals")
      // updates have no hook here; an API key may suppress hooks
      yield* ok("POST", "/items/update", { dataCollectionId: c, dataItem: { id: "keep", data: { v: 2 } } })
      yield* ok("POST", "/items", { dataCollectionId: c, dataItem: { id: "quiet", data: {} }, suppressHooks: true })
      // a job over items a hook refuses ends FAILED, having removed nothing
      const job = yield* ok("POST", "/bulk/items/async-remove-by-filter", { dataCollectionId: c, filter: {} })
      let status = yield* ok("GET", `/async-jobs/${job.jobId}/status`)
      for (let i = 0; i < 100 && (status.status === "INITIALIZED" || status.status === "PROCESSING"); i++) {
        yield* Effect.sleep("10 millis")
        status = yield* ok("GET", `/async-jobs/${job.jobId}/status`)
      }
      assert.deepStrictEqual(status, { status: "FAILED", successCount: 0 })
      assert.strictEqual(yield* count(c), 2)
      yield* dev("DELETE", `/data/hooks?dataCollectionId=${c}`)
      yield* ok("POST", "/items/remove", { dataCollectionId: c, dataItemId: "keep" })
      assert.strictEqual(yield* count(c), 1)
    }))

  it.effect("read hooks: beforeQuery, beforeGet and beforeCount", () =>
    Effect.gen(function*() {
      const c = yield* freshCollection()
      yield* ok("POST", "/items", { dataCollectionId: c, dataItem: { id: "a", data: {} } })
      for (const hook of ["beforeQuery", "beforeGet", "beforeCount"]) yield* dev("POST", "/data/hooks", { dataCollectionId: c, hook, error: hookError })
      assert.strictEqual(codeOf(yield* data("POST", "/items/query", { dataCollectionId: c })), "WDE0078")
      assert.strictEqual(codeOf(yield* data("GET", `/items/a?dataCollectionId=${c}&dataItemId=a`)), "WDE0078")
      assert.strictEqual(codeOf(yield* data("POST", "/items/count", { dataCollectionId: c })), "WDE0078")
      yield* dev("DELETE", "/data/hooks")
      assert.strictEqual(yield* count(c), 1)
      const bad = yield* data("POST", "/_sitefx/data/hooks", { dataCollectionId: c, hook: "afterEverything", error: hookError })
      assert.strictEqual(bad.status, 400)
    }))

  it.effect("bodies over the payload limit are 413 and change nothing", () =>
    Effect.gen(function*() {
      const c = yield* freshCollection()
      const big = "x".repeat(70 * 1024)
      const refused = yield* data("POST", "/items", { dataCollectionId: c, dataItem: { data: { big } } })
      assert.strictEqual(refused.status, 413)
      assert.strictEqual(codeOf(refused), "WDE0109")
      const bulk = yield* data("POST", "/bulk/items/insert", { dataCollectionId: c, dataItems: Array.from({ length: 100 }, () => ({ data: { text: "y".repeat(1000) } })) })
      assert.strictEqual(bulk.status, 413)
      // without a declared length (a chunked upload) the body is measured in bytes: 22 000 three-byte
      // characters are 66 000 bytes, over the 64 KiB limit, in fewer characters than that
      const platform = yield* LocalPlatform
      const key = yield* apiKey
      const chunked = (text: string) =>
        Effect.promise(() => {
          const bytes = new TextEncoder().encode(JSON.stringify({ dataCollectionId: c, dataItem: { data: { text } } }))
          const body = new ReadableStream<Uint8Array>({
            start: (controller) => {
              for (let i = 0; i < bytes.length; i += 8192) controller.enqueue(bytes.subarray(i, i + 8192))
              controller.close()
            }
          })
          return fetch(`${platform.url}/wix-data/v2/items`, { method: "POST", headers: { authorization: key, "content-type": "application/json" }, body, duplex: "half" } as RequestInit)
            .then(async (res) => ({ status: res.status, body: await res.json() as any }))
        })
      const overInBytes = yield* chunked("€".repeat(22_000))
      assert.strictEqual(overInBytes.status, 413)
      assert.strictEqual(overInBytes.body.details.applicationError.code, "WDE0109")
      const underInBytes = yield* chunked("€".repeat(21_000))
      assert.strictEqual(underInBytes.status, 200)
      yield* ok("POST", "/items/remove", { dataCollectionId: c, dataItemId: underInBytes.body.dataItem.id })
      assert.strictEqual(yield* count(c), 0)
      yield* ok("POST", "/items", { dataCollectionId: c, dataItem: { data: { small: "x".repeat(1000) } } })
    }))

  it.effect("faults: the next matching requests answer the injected status without touching data", () =>
    Effect.gen(function*() {
      const c = yield* freshCollection()
      yield* dev("POST", "/faults", { path: "/wix-data/v2/items", status: 503, count: 2 })
      yield* dev("POST", "/faults", { path: "/wix-data/v2/items/count", status: 429, count: 1, retryAfter: 3 })
      const first = yield* data("POST", "/items", { dataCollectionId: c, dataItem: { id: "f", data: {} } })
      assert.strictEqual(first.status, 503)
      // a system error: no code for clients to read, only the rule that says it was injected
      assert.deepStrictEqual(Object.keys(first.body.details), ["rule"])
      assert.strictEqual(first.body.details.rule.kind, "fault")
      assert.match(first.headers.get("x-wix-request-id") ?? "", /^[0-9a-f-]{36}$/)
      const second = yield* data("POST", "/items", { dataCollectionId: c, dataItem: { id: "f", data: {} } })
      assert.strictEqual(second.status, 503)
      const limited = yield* data("POST", "/items/count", { dataCollectionId: c })
      assert.strictEqual(limited.status, 429)
      assert.strictEqual(limited.headers.get("retry-after"), "3")
      // other paths and dev endpoints were never affected
      assert.strictEqual((yield* data("POST", "/collections/create-field", { dataCollectionId: c, field: { key: "k", type: "TEXT" } })).status, 200)
      yield* ok("POST", "/items", { dataCollectionId: c, dataItem: { id: "f", data: {} } })
      assert.strictEqual(yield* count(c), 1)
      yield* dev("POST", "/faults", { path: "/wix-data", status: 502, count: 5 })
      yield* dev("DELETE", "/faults")
      assert.strictEqual(yield* count(c), 1)
      const bad = yield* data("POST", "/_sitefx/faults", { path: "/x", status: 501, count: 1 })
      assert.strictEqual(bad.status, 400)
    }))

  it.effect("reset forgets hooks and faults along with the data", () =>
    Effect.gen(function*() {
      const c = yield* freshCollection()
      yield* dev("POST", "/data/hooks", { dataCollectionId: c, hook: "beforeInsert", error: hookError })
      yield* dev("POST", "/faults", { path: "/wix-data/v2/items/query", status: 503, count: 1 })
      yield* dev("POST", "/reset")
      yield* dev("POST", "/seed", { seed: "demo" })
      assert.strictEqual(codeOf(yield* data("POST", "/items/count", { dataCollectionId: c })), "WDE0025")
      assert.strictEqual((yield* ok("POST", "/items/query", { dataCollectionId: "Posts" })).dataItems.length, 3)
      const again = yield* freshCollection()
      yield* ok("POST", "/items", { dataCollectionId: again, dataItem: { data: {} } })
    }))
})
