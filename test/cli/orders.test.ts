/**
 * `sitefx orders ...` as a store owner's script runs it: a process against a local platform with the
 * demo orders, judged by its exit code and output; the export's pages are read one at a time.
 */
import { describe, expect, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Redacted from "effect/Redacted"
import { readFileSync } from "node:fs"
import { join } from "node:path"
import { CSV_COLUMNS, exportOrders } from "../../src/cli/orders.ts"
import { DEMO_ORDER_IDS } from "../../src/server/ecom/orders/index.ts"
import { Site } from "../../src/Site.ts"
import { LocalPlatform } from "../support/platform.ts"
import { cli, scratchDir } from "./support.ts"

const run = (args: ReadonlyArray<string>) =>
  Effect.gen(function*() {
    const platform = yield* LocalPlatform
    return yield* Effect.promise(() => cli([...args, "--base-url", platform.url]))
  })

const DIR = scratchDir("sitefx-orders-")
const SEARCHABLE = ["10008", "10007", "10005", "10004", "10003", "10002", "10001"]

describe("sitefx orders", () => {
  it.layer(LocalPlatform.layer({ seed: "demo" }), { excludeTestServices: true })((it) => {
    it.effect("export: every order as JSONL, newest first, the count on stderr; --since narrows it", () =>
      Effect.gen(function*() {
        const all = yield* run(["orders", "export"])
        expect(all.code).toBe(0)
        const lines = all.stdout.trim().split("\n").map((l) => JSON.parse(l) as { number: string; id: string })
        expect(lines.map((o) => o.number)).toEqual(SEARCHABLE)
        expect(all.stderr).toContain("exported 7 orders")
        const since = yield* run(["orders", "export", "--since", "2026-03-04"])
        expect(since.code).toBe(0)
        expect(since.stdout.trim().split("\n").map((l) => JSON.parse(l).number)).toEqual(["10008", "10007", "10005"])
        const bad = yield* run(["orders", "export", "--since", "yesterday-ish"])
        expect(bad.code).toBe(2)
        expect(bad.stderr).toContain("--since")
      }))

    it.effect("export --format csv to a file: a header, one line per order, the result as JSON with --json", () =>
      Effect.gen(function*() {
        const out = join(DIR, "orders.csv")
        const done = yield* run(["orders", "export", "--format", "csv", "--out", out, "--json"])
        expect(done.code).toBe(0)
        expect(JSON.parse(done.stdout)).toMatchObject({ exported: 7, out, format: "csv" })
        const rows = readFileSync(out, "utf8").trim().split("\n")
        expect(rows[0]).toBe(CSV_COLUMNS.join(","))
        expect(rows.length).toBe(8)
        expect(rows.at(-1)).toBe(`10001,${DEMO_ORDER_IDS.paidFulfilled},2026-02-10T09:12:00.000Z,APPROVED,PAID,FULFILLED,linus@example.com,USD,81,2`)
      }))

    it.effect("export reads page by page: small pages give the same orders", () =>
      Effect.gen(function*() {
        const platform = yield* LocalPlatform
        const out = join(DIR, "paged.jsonl")
        yield* exportOrders({ out, format: "jsonl", since: undefined, mode: "quiet", pageSize: 2 }).pipe(
          Effect.provide(Layer.fresh(Site.apiKey({ apiKey: Redacted.value(platform.apiKey), baseUrl: platform.url })), { local: true })
        )
        expect(readFileSync(out, "utf8").trim().split("\n").map((l) => JSON.parse(l).number)).toEqual(SEARCHABLE)
      }))

    it.effect("get: one order for a person, or as JSON; an unknown id is one explained line and a failing exit", () =>
      Effect.gen(function*() {
        const text = yield* run(["orders", "get", DEMO_ORDER_IDS.twoLines])
        expect(text.code).toBe(0)
        expect(text.stdout).toContain("order 10008")
        expect(text.stdout).toContain("2 x Straw Hat")
        const json = yield* run(["orders", "get", DEMO_ORDER_IDS.twoLines, "--json"])
        expect(JSON.parse(json.stdout)).toMatchObject({ id: DEMO_ORDER_IDS.twoLines, number: "10008", paymentStatus: "PAID" })
        const missing = yield* run(["orders", "get", "no-such-order"])
        expect(missing.code).not.toBe(0)
        expect(missing.stderr).toContain("Order no-such-order was not found")
      }))
  })
})
