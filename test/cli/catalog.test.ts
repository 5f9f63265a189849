/**
 * `sitefx catalog export|import|adjust` as a script runs them: a process against a local platform with
 * the demo store, judged by its exit code, its output, and what the store holds afterwards (read
 * through the Products client).
 */
import { assert, describe, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as Redacted from "effect/Redacted"
import * as Result from "effect/Result"
import * as Schema from "effect/Schema"
import * as Stream from "effect/Stream"
import { existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs"
import { join } from "node:path"
import * as Collections from "../../src/catalog/Collections.ts"
import * as Products from "../../src/catalog/Products.ts"
import { parseAdjustment } from "../../src/cli/catalog/adjust.ts"
import { checkLine, ProductLine } from "../../src/cli/catalog/line.ts"
import { asAdmin } from "../data/support.ts"
import { dev, LocalPlatform } from "../support/platform.ts"
import { cli, type CliResult, scratchDir, startCli, STATE_DIR, waitFor } from "./support.ts"

const dir = scratchDir("sitefx-catalog-")
const file = (name: string) => join(dir, name)

/** `sitefx catalog <args>` as its own process, with none of this machine's SITEFX_* settings (its state folder the test file's). */
const sitefx = (args: ReadonlyArray<string>, input = ""): Promise<CliResult> => cli(["catalog", ...args], { input })

/** The command against the platform under test (its key found through the dev endpoint). */
const run = (args: ReadonlyArray<string>, input?: string) =>
  Effect.gen(function*() {
    const platform = yield* LocalPlatform
    return yield* Effect.promise(() => sitefx([...args, "--base-url", platform.url], input))
  })

const lines = (text: string) => text.split("\n").filter((l) => l.trim() !== "")

const allProducts = asAdmin(Products.query({ includeVariants: true }).stream.pipe(Stream.runCollect))

/** What must survive an export and an import: names, options and choices, variants' prices and stock, collections. */
const essence = (products: ReadonlyArray<Products.Product>, slugs: ReadonlyMap<string, string>) =>
  new Map(products.map((p) => [p.name!, {
    price: p.priceData?.price,
    visible: p.visible,
    options: (p.productOptions ?? []).map((o) => [o.name, o.optionType, (o.choices ?? []).map((c) => [c.value, c.description])]),
    variants: (p.variants ?? []).map((v) => [v.choices, v.variant?.priceData?.price, v.variant?.visible, v.stock?.quantity, v.stock?.inStock]),
    media: (p.media?.items ?? []).map((m) => m.id),
    collections: (p.collectionIds ?? []).flatMap((id) => slugs.get(id) ?? []).sort()
  }]))

const collectionSlugs = asAdmin(Collections.query().stream.pipe(
  Stream.runCollect,
  Effect.map((all) => new Map(all.map((c) => [c.id!, c.slug!])))
))

const decodeLine = Schema.decodeUnknownResult(ProductLine)

// a run of the command takes a second or two, several on a busy machine: a test of a dozen runs gets two minutes
describe("sitefx catalog", { timeout: 120_000 }, () => {
  it("catalog --help documents export, import and adjust", async () => {
    const [catalog, importHelp] = await Promise.all([sitefx(["--help"]), sitefx(["import", "--help"])])
    assert.strictEqual(catalog.code, 0)
    for (const sub of ["export", "import", "adjust"]) assert.match(catalog.stdout, new RegExp(`\\n\\s+${sub}\\s+\\S`))
    assert.strictEqual(importHelp.code, 0)
    for (const flag of ["--mode", "--dry-run", "--report", "--concurrency", "--api-key", "--json"]) assert.include(importHelp.stdout, flag)
    assert.include(importHelp.stdout, "import does not create them", "the description says what happens to collections")
  })

  it.layer(LocalPlatform.layer({ seed: "demo" }), { excludeTestServices: true })("export and import", (it) => {
    it.effect("export: the 64 demo products with their variants as JSONL on stdout, progress and result on stderr; a collection to a file", () =>
      Effect.gen(function*() {
        const platform = yield* LocalPlatform
        // the key given explicitly this time
        const out = yield* run(["export", "--json", "--api-key", Redacted.value(platform.apiKey)])
        assert.strictEqual(out.code, 0, out.stderr)
        const exported = lines(out.stdout).map((l) => Result.getOrThrow(decodeLine(JSON.parse(l))))
        assert.strictEqual(exported.length, 64)
        const store = yield* allProducts
        assert.deepStrictEqual(exported.map((p) => p.name).sort(), store.map((p) => p.name!).sort())
        const withOptions = exported.filter((p) => (p.options ?? []).length > 0)
        assert.isAbove(withOptions.length, 40)
        for (const p of withOptions) {
          const combinations = p.options!.reduce((n, o) => n * o.choices.length, 1)
          assert.strictEqual(p.variants?.length, combinations, p.name)
          assert.isTrue(p.variants!.every((v) => v.price !== undefined && v.sku !== undefined && v.visible !== undefined && v.stock?.quantity !== undefined))
        }
        assert.isTrue(exported.every((p) => p.inventory?.trackQuantity === true && p.price !== undefined))
        // what the platform holds for one product is on its line
        const tee = exported.find((p) => p.name === "Everyday Tee")!
        const stored = store.find((p) => p.name === "Everyday Tee")!
        assert.deepStrictEqual(tee.variants!.map((v) => v.stock?.quantity), stored.variants!.map((v) => v.stock?.quantity))
        assert.include(tee.collections ?? [], "tees")
        // stdout is only the products; the result and progress are JSON lines on stderr
        const stderr = lines(out.stderr).map((l) => JSON.parse(l))
        assert.deepStrictEqual(stderr.at(-1), { exported: 64, out: null, collection: null })
        assert.isTrue(stderr.some((l) => l.progress === "export" && l.total === 64))

        const tees = yield* run(["export", "--collection", "tees", "--out", file("tees.jsonl"), "--json"])
        assert.strictEqual(tees.code, 0, tees.stderr)
        assert.deepStrictEqual(JSON.parse(tees.stdout), { exported: 10, out: file("tees.jsonl"), collection: "tees" })
        assert.isTrue(lines(readFileSync(file("tees.jsonl"), "utf8")).every((l) => JSON.parse(l).collections.includes("tees")))
      }))

    it.effect("export, remove every product, import: the store has the same products again", () =>
      Effect.gen(function*() {
        const slugs = yield* collectionSlugs
        const before = essence(yield* allProducts, slugs)
        const exported = yield* run(["export", "--out", file("store.jsonl"), "-q"])
        assert.strictEqual(exported.code, 0, exported.stderr)

        const ids = (yield* allProducts).map((p) => p.id!)
        yield* asAdmin(Effect.forEach(ids, Products.remove, { concurrency: 8, discard: true }))
        assert.strictEqual((yield* allProducts).length, 0)

        const imported = yield* run(["import", file("store.jsonl"), "--report", file("store-report.json"), "--json"])
        assert.strictEqual(imported.code, 0, imported.stderr)
        const report = JSON.parse(readFileSync(file("store-report.json"), "utf8"))
        assert.deepStrictEqual({ ...report, file: undefined }, {
          file: undefined,
          mode: "create",
          dryRun: false,
          lines: 64,
          created: 64,
          updated: 0,
          failed: [],
          interrupted: false,
          earlier: null,
          remade: [],
          checkpoint: null
        })
        assert.deepStrictEqual(JSON.parse(imported.stdout), report)

        const after = essence(yield* allProducts, slugs)
        assert.strictEqual(after.size, 64)
        assert.deepStrictEqual([...after.keys()].sort(), [...before.keys()].sort())
        for (const [name, product] of before) assert.deepStrictEqual(after.get(name), product, name)

        // and a second export is the first one, but for the new ids
        const again = yield* run(["export", "-q"])
        const byName = (text: string) => new Map(lines(text).map((l) => JSON.parse(l)).map(({ id: _, ...p }) => [p.name, p]))
        assert.deepStrictEqual(byName(again.stdout), byName(readFileSync(file("store.jsonl"), "utf8")))

        // the same file once more in create mode: every line is in the report, --mode upsert is said once
        const twice = yield* run(["import", file("store.jsonl"), "-q", "--report", file("twice-report.json")])
        assert.strictEqual(twice.code, 1)
        const twiceReport = JSON.parse(readFileSync(file("twice-report.json"), "utf8"))
        assert.strictEqual(twiceReport.failed.length, 64)
        for (const f of twiceReport.failed) assert.match(f.reason, /^creating the product: .*SLUG_ALREADY_EXISTS/)
        assert.strictEqual(lines(twice.stdout).length, 65)
        assert.strictEqual(`${twice.stdout}${twice.stderr}`.split("--mode upsert").length - 1, 1)
        assert.strictEqual(
          twice.stderr,
          `sitefx: 64 of 64 lines failed; all are products the store already has (slug taken): --mode upsert updates them; the report is in ${file("twice-report.json")}\n`
        )
        assert.strictEqual((yield* allProducts).length, 64)
      }))

    it.effect("bad lines are reported with their numbers and exit 1, the good ones are created; upsert updates instead of duplicating", () =>
      Effect.gen(function*() {
        const suffix = Date.now().toString(36)
        // a slug of their own, so that upsert finds them again
        const good = (name: string, extra: object = {}) =>
          JSON.stringify({ name: `${name} ${suffix}`, slug: `${name.toLowerCase().replace(/ /g, "-")}-${suffix}`, price: 10, ...extra })
        const text = [
          good("Good Shirt", {
            options: [{ name: "Size", choices: [{ value: "S" }, { value: "M" }] }],
            variants: [{ choices: { Size: "S" }, price: 12, stock: { quantity: 3 } }, { choices: { Size: "M" }, stock: { quantity: 0 } }],
            inventory: { trackQuantity: true },
            collections: ["tees"]
          }),
          `{"name": "broken`,
          JSON.stringify({ price: 10 }),
          "",
          good("No Choices", { options: [{ name: "Size", choices: [] }] }),
          good("Unknown Choice", { options: [{ name: "Size", choices: [{ value: "S" }] }], variants: [{ choices: { Size: "XXL" } }] }),
          good("Unknown Collection", { collections: ["no-such-collection"] }),
          good("Negative", { price: -3 }),
          // refused by the platform after the product was created: it goes again
          good("Bad Media", { media: [{ mediaId: "not a media id!" }] }),
          good("Good Mug", { variants: [{ choices: {}, stock: { inStock: false } }] })
        ].join("\n")
        writeFileSync(file("mixed.jsonl"), text)

        const imported = yield* run(["import", file("mixed.jsonl"), "--report", file("mixed-report.json")])
        assert.strictEqual(imported.code, 1)
        assert.match(imported.stderr, /sitefx: 7 of 9 lines failed/)
        assert.include(imported.stdout, "2 created, 0 updated, 7 failed")
        const report = JSON.parse(readFileSync(file("mixed-report.json"), "utf8"))
        assert.deepStrictEqual(report.failed.map((f: { line: number }) => f.line), [2, 3, 5, 6, 7, 8, 9])
        const reasons = report.failed.map((f: { reason: string }) => f.reason)
        assert.match(reasons[0], /not valid JSON/)
        assert.match(reasons[1], /missing name/)
        assert.match(reasons[2], /options\[0\]\.choices/)
        assert.match(reasons[3], /no choice "XXL"/)
        assert.match(reasons[4], /no collection with slug "no-such-collection"/)
        assert.match(reasons[5], /price/)
        assert.match(reasons[6], /^adding media: .*the product was removed again$/)
        for (const line of [2, 3, 5, 6, 7, 8, 9]) assert.match(imported.stdout, new RegExp(`line ${line}\\b`))

        const named = (name: string) => asAdmin(Products.query({ includeVariants: true }).eq("name", `${name} ${suffix}`).find)
        for (const bad of ["No Choices", "Unknown Choice", "Unknown Collection", "Negative", "Bad Media"]) assert.strictEqual((yield* named(bad)).items.length, 0, bad)
        const shirt = (yield* named("Good Shirt")).items
        assert.strictEqual(shirt.length, 1)
        assert.deepStrictEqual(shirt[0]!.variants!.map((v) => [v.choices, v.variant?.priceData?.price, v.stock?.quantity]), [[{ Size: "S" }, 12, 3], [{ Size: "M" }, 10, 0]])
        const tees = yield* asAdmin(Collections.bySlug("tees"))
        assert.include(shirt[0]!.collectionIds ?? [], tees.id!)
        assert.isFalse((yield* named("Good Mug")).items[0]!.stock?.inStock)

        // the same lines through stdin with upsert: the good products are updated, not duplicated
        const changed = text.replace(`"price":12`, `"price":14`)
        const upserted = yield* run(["import", "-", "--mode", "upsert", "--json"], changed)
        assert.strictEqual(upserted.code, 1)
        const result = JSON.parse(upserted.stdout)
        assert.deepStrictEqual([result.created, result.updated, result.failed.length], [0, 2, 7])
        const again = (yield* named("Good Shirt")).items
        assert.strictEqual(again.length, 1)
        assert.strictEqual(again[0]!.variants![0]!.variant?.priceData?.price, 14)
        // checking a line is the same function the command uses
        assert.isTrue(Result.isFailure(checkLine(`{"price": 1}`)))
      }))
  })

  it.layer(LocalPlatform.layer({ seed: "demo" }), { excludeTestServices: true })("an import stopped and run again", (it) => {
    const journals = () => {
      const folder = join(STATE_DIR, "catalog-imports")
      return existsSync(folder) ? readdirSync(folder).filter((f) => !f.endsWith(".lock")).map((f) => join(folder, f)) : []
    }
    /** How many lines the import's plain progress says are through. */
    const through = (stderr: string): number => {
      const all = [...stderr.matchAll(/^import: ([\d ]+)\//gm)]
      return all.length === 0 ? 0 : Number(all[all.length - 1]![1]!.replace(/ /g, ""))
    }
    const stopAt = (args: ReadonlyArray<string>, at: number, signal: NodeJS.Signals) =>
      Effect.promise(async () => {
        const started = startCli(args, { env: { SITEFX_PROGRESS_SECONDS: "0.1" }, timeoutMs: 120_000 })
        await waitFor(`${at} lines`, () => through(started.output().stderr) >= at, 120_000)
        started.child.kill(signal)
        return started.done
      })

    it.effect("stopped by Ctrl-C, then killed, then run again with the same arguments: every product created once, and whole", () =>
      Effect.gen(function*() {
        const platform = yield* LocalPlatform
        const suffix = Date.now().toString(36)
        const total = 240
        // no slugs: the platform makes one from the name, so nothing but the import itself can tell a product it made before
        const text = Array.from({ length: total }, (_, i) =>
          JSON.stringify({
            name: `Resumed ${suffix} ${i}`,
            price: 10 + (i % 7),
            options: [{ name: "Size", choices: [{ value: "S" }, { value: "M" }] }],
            variants: [{ choices: { Size: "S" }, stock: { quantity: i % 5 } }, { choices: { Size: "M" }, stock: { quantity: 1 } }],
            inventory: { trackQuantity: true },
            collections: ["tees"]
          })).join("\n")
        writeFileSync(file("resumed.jsonl"), `${text}\n`)
        const args = ["catalog", "import", file("resumed.jsonl"), "--base-url", platform.url]

        const first = yield* stopAt(args, 40, "SIGINT")
        assert.strictEqual(first.code, 130, first.stderr)
        const [journal, ...others] = journals()
        assert.deepStrictEqual(others, [])
        assert.match(first.stderr, /sitefx: stopping: the lines in flight finish \(Ctrl-C again quits at once\); to resume, run the same command again: sitefx catalog import /)
        const interrupted = lines(first.stdout)
        assert.match(interrupted[0]!, new RegExp(`^interrupted after (\\d+) of ${total} lines: \\1 created, 0 updated, 0 failed$`))
        assert.strictEqual(interrupted[1], `  the checkpoint is ${journal}; to resume, run the same command again: sitefx ${args.join(" ")}`)

        const second = yield* stopAt(args, 120, "SIGKILL")
        assert.strictEqual(second.signal, "SIGKILL")

        const third = yield* Effect.promise(() => cli(args, { timeoutMs: 120_000 }))
        assert.strictEqual(third.code, 0, third.stderr)
        const done = lines(third.stdout)
        assert.strictEqual(done[0], `imported ${total} lines: ${total} created, 0 updated, 0 failed`)
        assert.match(done[1]!, /^ {2}resumed: \d+ of these lines were done by an earlier run \(\d+ created, 0 updated\) and were not sent again$/)
        for (const line of done.slice(2)) assert.match(line, /^ {2}line \d+: the product an earlier run had begun and not finished \(\S+\) was removed and made again$/)
        assert.deepStrictEqual(journals(), [], "the journal is removed once every line is through")

        const tees = (yield* asAdmin(Collections.bySlug("tees"))).id!
        const made = (yield* allProducts).filter((p) => p.name!.startsWith(`Resumed ${suffix} `))
        assert.strictEqual(made.length, total, "no product twice, none missing")
        assert.strictEqual(new Set(made.map((p) => p.name)).size, total)
        for (const p of made) {
          const i = Number(p.name!.split(" ").at(-1))
          assert.deepStrictEqual(p.variants!.map((v) => [v.choices, v.stock?.quantity]), [[{ Size: "S" }, i % 5], [{ Size: "M" }, 1]], p.name!)
          assert.include(p.collectionIds ?? [], tees, p.name!)
        }
      }), { timeout: 240_000 })

    it.effect("--no-checkpoint keeps none, and a stop says the import cannot resume", () =>
      Effect.gen(function*() {
        const platform = yield* LocalPlatform
        const suffix = Date.now().toString(36)
        const text = Array.from({ length: 200 }, (_, i) => JSON.stringify({ name: `Unkept ${suffix} ${i}`, price: 5 })).join("\n")
        writeFileSync(file("unkept.jsonl"), `${text}\n`)
        const stopped = yield* stopAt(["catalog", "import", file("unkept.jsonl"), "--no-checkpoint", "--base-url", platform.url], 20, "SIGINT")
        assert.strictEqual(stopped.code, 130, stopped.stderr)
        assert.deepStrictEqual(journals(), [])
        assert.include(stopped.stderr, "no checkpoint is kept, so it cannot resume")
        assert.notInclude(`${stopped.stdout}${stopped.stderr}`, "to resume, run the same command again")
      }), { timeout: 240_000 })

    it.effect("a create whose answer was lost (the connection reset after it ran) is found by the run again, not made twice", () =>
      Effect.gen(function*() {
        const platform = yield* LocalPlatform
        const suffix = Date.now().toString(36)
        const names = [0, 1, 2].map((i) => `Lost ${suffix} ${i}`)
        writeFileSync(file("lost.jsonl"), names.map((name) => JSON.stringify({ name, price: 5, collections: ["tees"] })).join("\n"))
        const args = ["catalog", "import", file("lost.jsonl"), "--concurrency", "1", "--base-url", platform.url]
        // the first create is carried out, but its answer never arrives
        yield* dev("/faults", { body: { path: "/stores/v1/products", method: "POST", kind: "reset", when: "after", count: 1 } })
        const first = yield* Effect.promise(() => cli(args))
        const [journal] = journals()
        assert.notStrictEqual(first.code, 0)
        const said = lines(first.stderr).filter((l) => l.startsWith("sitefx:"))
        assert.strictEqual(said.length, 1, first.stderr)
        assert.include(said[0], `; 0 lines were through (0 created, 0 updated, 0 failed); the checkpoint ${journal} keeps them: once that is fixed, run the same command again to resume (sitefx ${args.join(" ")})`)
        const named = (name: string) => asAdmin(Products.query().eq("name", name).find)
        const lost = (yield* named(names[0]!)).items
        assert.strictEqual(lost.length, 1, "the create was carried out")

        const again = yield* Effect.promise(() => cli(args))
        assert.strictEqual(again.code, 0, again.stderr)
        assert.deepStrictEqual(lines(again.stdout), [
          "imported 3 lines: 3 created, 0 updated, 0 failed",
          `  line 1: the product an earlier run had begun and not finished (${lost[0]!.id}) was removed and made again`
        ])
        for (const name of names) {
          const found = (yield* named(name)).items
          assert.strictEqual(found.length, 1, name)
          assert.notStrictEqual(found[0]!.id, lost[0]!.id)
        }
        assert.deepStrictEqual(journals(), [])
      }))
  })

  it.layer(LocalPlatform.layer({ seed: "demo" }), { excludeTestServices: true })("adjust", (it) => {
    const prices = Effect.map(allProducts, (all) =>
      new Map(all.map((p) => [p.id!, { price: p.priceData!.price!, variants: p.variants!.map((v) => v.variant!.priceData!.price!), collections: p.collectionIds ?? [] }])))
    const raised = (price: number, rate: number) => Math.round(price * (1 + rate / 100) * 100) / 100

    it.effect("--price +10% --collection tees raises exactly the tees' prices by 10%", () =>
      Effect.gen(function*() {
        const tees = (yield* asAdmin(Collections.bySlug("tees"))).id!
        const before = yield* prices
        const adjusted = yield* run(["adjust", "--price", "+10%", "--collection", "tees", "--json"])
        assert.strictEqual(adjusted.code, 0, adjusted.stderr)
        const inTees = [...before.values()].filter((p) => p.collections.includes(tees)).length
        assert.strictEqual(inTees, 10)
        assert.deepStrictEqual(JSON.parse(adjusted.stdout), {
          property: "price",
          adjustment: { percentage: { rate: 10 } },
          dryRun: false,
          selected: inTees,
          adjusted: inTees,
          failed: []
        })
        const after = yield* prices
        for (const [id, p] of before) {
          const now = after.get(id)!
          const expected = p.collections.includes(tees) ? raised(p.price, 10) : p.price
          assert.strictEqual(now.price, expected, id)
          assert.deepStrictEqual(now.variants, p.variants.map((v) => (p.collections.includes(tees) ? raised(v, 10) : v)))
        }
      }))

    it.effect("a selection of more than 100 products is adjusted 100 a call", () =>
      Effect.gen(function*() {
        const slug = `bulk-${Date.now().toString(36)}`
        const ids = yield* asAdmin(Effect.gen(function*() {
          const collection = yield* Collections.create({ name: slug, slug })
          const created = yield* Effect.forEach(
            Array.from({ length: 130 }, (_, i) => i),
            (i) => Products.create({ name: `${slug} ${i}`, priceData: { price: 10 + i } }),
            { concurrency: 16 }
          )
          const ids = created.map((p) => p.id!)
          yield* Collections.addProducts(collection.id!, ids)
          return ids
        }))
        const adjusted = yield* run(["adjust", "--price", "+2.5", "--collection", slug, "--json"])
        assert.strictEqual(adjusted.code, 0, adjusted.stderr)
        const result = JSON.parse(adjusted.stdout)
        assert.deepStrictEqual([result.selected, result.adjusted, result.failed], [130, 130, []])
        const after = yield* prices
        ids.forEach((id, i) => assert.strictEqual(after.get(id)!.price, 12.5 + i))
      }))

    it("adjustments as written: +10%, -5%, +2.5, -1; --round for percentages", () => {
      assert.deepStrictEqual(Result.getOrThrow(parseAdjustment("+10%", false)), { percentage: { rate: 10 } })
      assert.deepStrictEqual(Result.getOrThrow(parseAdjustment("-5%", true)), { percentage: { rate: -5, roundToInt: true } })
      assert.deepStrictEqual(Result.getOrThrow(parseAdjustment("+2.5", false)), { amount: 2.5 })
      assert.deepStrictEqual(Result.getOrThrow(parseAdjustment("-1", false)), { amount: -1 })
      assert.deepStrictEqual(Result.getOrThrow(parseAdjustment("10%", false)), { percentage: { rate: 10 } })
      for (const [text, round] of [["ten", false], ["+10%%", false], ["2000%", false], ["-101%", false], ["+2", true], ["", false]] as const) {
        assert.isTrue(Result.isFailure(parseAdjustment(text, round)), text)
      }
    })

    it.effect("usage errors exit 2: two adjustments, none, an unknown collection; --dry-run with a filter changes nothing", () =>
      Effect.gen(function*() {
        const before = yield* prices
        const [two, none, unknown, dry] = yield* Effect.all([
          run(["adjust", "--price", "+10%", "--cost", "+1"]),
          run(["adjust", "--collection", "tees"]),
          run(["adjust", "--price", "+10%", "--collection", "no-such-slug"]),
          run(["adjust", "--price=-5%", "--filter", `{"priceData.price": {"$gt": 100}}`, "--dry-run", "--json"])
        ], { concurrency: "unbounded" })
        assert.strictEqual(two.code, 2)
        assert.match(two.stderr, /exactly one adjustment.*--price and --cost/)
        assert.strictEqual(none.code, 2)
        assert.match(none.stderr, /exactly one adjustment.*none was given/)
        assert.strictEqual(unknown.code, 2)
        assert.match(unknown.stderr, /no collection with slug "no-such-slug"/)
        for (const r of [two, none, unknown]) assert.notMatch(r.stderr, /\n\s+at /, "no stack trace")
        assert.strictEqual(dry.code, 0, dry.stderr)
        const result = JSON.parse(dry.stdout)
        assert.strictEqual(result.selected, [...before.values()].filter((p) => p.price > 100).length)
        assert.isAbove(result.selected, 0)
        assert.deepStrictEqual([result.dryRun, result.adjusted, result.adjustment], [true, 0, { percentage: { rate: -5 } }])
        assert.deepStrictEqual(yield* prices, before)
      }))
  })
})
