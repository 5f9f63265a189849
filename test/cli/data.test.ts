/**
 * `sitefx data ...` as a script runs it: a process against a local platform, judged by its exit code,
 * its output and what the site holds afterwards.
 */
import { describe, expect, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as Redacted from "effect/Redacted"
import * as Stream from "effect/Stream"
import { existsSync, readFileSync, rmSync, writeFileSync } from "node:fs"
import { join } from "node:path"
import type { Item } from "../../src/data/calls.ts"
import * as DataItems from "../../src/data/DataItems.ts"
import * as G from "../../src/http/guard.ts"
import { PlatformClient } from "../../src/http/PlatformClient.ts"
import { countRecords } from "../../src/cli/files.ts"
import { LocalPlatform } from "../support/platform.ts"
import { cli, onTerminal, run, scratchDir, withData } from "./support.ts"

// removed (and checked to be) once the file's tests are done: these files came to tens of megabytes a run
const dir = scratchDir("sitefx-cli-")
const file = (name: string) => join(dir, name)

/** The items of a collection without the dates the platform stamps, by id. */
const contents = (collection: string) =>
  withData((data) =>
    data.query(collection).ascending("_id").stream.pipe(
      Stream.runCollect,
      Effect.map((items) => items.map(({ _createdDate, _updatedDate, _owner, ...rest }) => rest as Item))
    ))

const createCollection = (id: string, fields: ReadonlyArray<{ key: string; type: string }>) =>
  Effect.gen(function*() {
    writeFileSync(file(`${id}.json`), JSON.stringify({ id, fields, permissions: { read: "ANYONE", insert: "ADMIN", update: "ADMIN", remove: "ADMIN" } }))
    const created = yield* run(["data", "collections", "create", file(`${id}.json`)])
    expect(created.stderr).toBe("")
    expect(created.code).toBe(0)
  })

const TYPED = [
  { key: "title", type: "TEXT" },
  { key: "price", type: "NUMBER" },
  { key: "active", type: "BOOLEAN" },
  { key: "released", type: "DATETIME" },
  { key: "meta", type: "OBJECT" },
  { key: "tags", type: "ARRAY_STRING" }
]

/** Items with what breaks naive CSV and JSON handling: separators, quotes, line breaks, unicode, dates deep inside. */
const awkward: ReadonlyArray<Item> = [
  { _id: "plain", title: "Plain", price: 10, active: true, released: new Date("2024-05-01T10:00:00.000Z"), meta: { a: 1 }, tags: ["x"] },
  { _id: "comma", title: "a, b, and c", price: -1.5, active: false, released: new Date("1999-12-31T23:59:59.999Z"), meta: { nested: { deep: [1, 2, { at: new Date("2020-02-29T00:00:00.000Z") }] } }, tags: [] },
  { _id: "quote", title: "She said \"hi\"\nthen left\r\nfor good", price: 0, active: true, meta: { text: "line\nbreak, \"quoted\"" }, tags: ["a,b", "c\"d"] },
  { _id: "unicode", title: "  ünïcödé 🚀 – leading and trailing spaces  ", price: 1e21, active: false, released: new Date("2038-01-19T03:14:08.000Z") },
  { _id: "sparse", title: "" },
  { _id: "emptytext", title: "has empty tags", tags: [""], meta: { blank: "" } }
]

// a run of the command takes a second or two, several on a busy machine: a test of a dozen runs gets two minutes
describe("sitefx data", { timeout: 120_000 }, () => {
  it.layer(LocalPlatform.layer({ seed: "demo" }), { excludeTestServices: true })((it) => {
    it.effect("collections: create from a JSON file, describe, list (text and --json)", () =>
      Effect.gen(function*() {
        yield* createCollection("Gadgets", TYPED)
        const described = yield* run(["data", "collections", "describe", "Gadgets"])
        expect(described.code).toBe(0)
        expect(described.stdout).toMatch(/Gadgets.*0 items/)
        expect(described.stdout).toMatch(/price\s+NUMBER/)
        const listed = yield* run(["data", "collections", "--json"])
        expect(listed.code).toBe(0)
        const ids = (JSON.parse(listed.stdout) as { collections: Array<{ id: string; items: number }> }).collections
        expect(ids.find((c) => c.id === "Posts")?.items).toBe(3)
        expect(ids.map((c) => c.id)).toContain("Gadgets")
      }))

    it.effect("sandbox: enable, import and export with --environment, sync --to live asks first, disable; LIVE untouched until the sync", () =>
      Effect.gen(function*() {
        yield* createCollection("Staged", TYPED)
        yield* withData((data) => data.bulkInsert("Staged", [{ _id: "live", title: "Live" }]))
        const enabled = yield* run(["data", "sandbox", "enable", "Staged"])
        expect([enabled.code, enabled.stdout.trim()]).toEqual([0, "enabled the sandbox of Staged, a copy of its 1 live items"])
        writeFileSync(file("staged.jsonl"), `${JSON.stringify({ _id: "draft", title: "Draft" })}\n`)
        const imported = yield* run(["data", "import", "Staged", file("staged.jsonl"), "--environment", "SANDBOX"])
        expect(imported.code).toBe(0)
        const exported = (env: ReadonlyArray<string>) =>
          Effect.map(run(["data", "export", "Staged", "--sort", "_id", "--fields", "_id", ...env]), (r) => r.stdout.trim().split("\n").map((l) => JSON.parse(l)._id))
        expect(yield* exported(["--environment", "SANDBOX"])).toEqual(["draft", "live"])
        expect(yield* exported([])).toEqual(["live"])
        const listed = yield* run(["data", "sandbox"])
        expect(listed.stdout).toMatch(/^Staged\s+live\s+1\s+sandbox\s+2$/m)

        const unasked = yield* run(["data", "sandbox", "sync", "Staged"])
        expect([unasked.code, unasked.stderr.split("\n")[0]]).toEqual([2, "sitefx: refusing to replace the live items of Staged with its sandbox items without --yes (not a terminal, so nobody can confirm)"])
        expect(yield* exported([])).toEqual(["live"])
        const synced = yield* run(["data", "sandbox", "sync", "Staged", "--yes"])
        expect([synced.code, synced.stdout.trim()]).toEqual([0, "copied 2 sandbox items of Staged to live"])
        expect(yield* exported([])).toEqual(["draft", "live"])

        const disabled = yield* run(["data", "sandbox", "disable", "Staged", "--yes"])
        expect(disabled.code).toBe(0)
        const none = yield* run(["data", "export", "Staged", "--environment", "SANDBOX"])
        expect([none.code, none.stderr.trim()]).toEqual([
          2,
          expect.stringMatching(/refused the request: The Staged collection has no sandbox: enable it first \(`sitefx data sandbox enable Staged`/)
        ])
        const bad = yield* run(["data", "export", "Staged", "--environment", "STAGING"])
        expect(bad.code).toBe(2)
      }))

    it.effect("backups: create waits until READY, list, restore asks first and puts a collection back, delete", () =>
      Effect.gen(function*() {
        yield* createCollection("Kept", TYPED)
        yield* withData((data) => data.bulkInsert("Kept", [{ _id: "a", title: "A" }, { _id: "b", title: "B" }]))
        const created = yield* run(["data", "backups", "create", "--json"])
        expect(created.code).toBe(0)
        const backup = (JSON.parse(created.stdout) as { backup: { id: string; status: string } }).backup
        expect(backup.status).toBe("READY")
        const listed = yield* run(["data", "backups"])
        expect(listed.stdout).toContain(`${backup.id}  READY`)
        const again = yield* run(["data", "backups", "create"])
        expect(again.stdout.trim()).toMatch(/^backup [0-9a-f-]{36} is READY: \d+\.\d MB, \d+ collections$/)

        yield* withData((data) => data.truncate("Kept"))
        const unasked = yield* run(["data", "backups", "restore", backup.id, "--collection", "Kept"])
        expect([unasked.code, unasked.stderr.split("\n")[0]]).toEqual([2, `sitefx: refusing to replace the items of Kept with those of backup ${backup.id} without --yes (not a terminal, so nobody can confirm)`])
        const restored = yield* run(["data", "backups", "restore", backup.id, "--collection", "Kept", "--collection", "Kept:KeptCopy", "--yes"])
        expect([restored.code, restored.stdout.trim()]).toEqual([0, `restored Kept, Kept into KeptCopy from backup ${backup.id}`])
        expect((yield* contents("Kept")).map((i) => i._id)).toEqual(["a", "b"])
        expect((yield* contents("KeptCopy")).map((i) => i._id)).toEqual(["a", "b"])

        const bad = yield* run(["data", "backups", "restore", backup.id, "--collection", "a:b:c", "--yes"])
        expect(bad.code).toBe(2)
        const unknown = yield* run(["data", "backups", "restore", "nope", "--yes"])
        expect([unknown.code, unknown.stderr.split("\n")[0]]).toEqual([2, "sitefx: there is no backup \"nope\"; `sitefx data backups` lists them"])
        const deleted = yield* run(["data", "backups", "delete", backup.id, "--yes"])
        expect([deleted.code, deleted.stdout.trim()]).toEqual([0, `deleted backup ${backup.id}`])
        expect((yield* run(["data", "backups"])).stdout).toContain(`${backup.id}  DELETED`)
      }))

    it.effect("jobs: collection to collection, file to collection with a bad row (exit 1, logs say why), collection to file; list, get, usage errors", () =>
      Effect.gen(function*() {
        yield* createCollection("Moved", TYPED)
        yield* createCollection("MovedCopy", TYPED)
        yield* withData((data) => data.bulkInsert("Moved", Array.from({ length: 250 }, (_, i) => ({ _id: `m${String(i).padStart(3, "0")}`, title: `T${i}`, price: i }))))
        const copied = yield* run(["data", "jobs", "submit", "Moved", "--to", "MovedCopy", "--filter", '{"price": {"$lt": 100}}', "--json"])
        expect(copied.code).toBe(0)
        const job = (JSON.parse(copied.stdout) as { job: { id: string; status: string; progress: { itemsSuccessful: number } } }).job
        expect([job.status, job.progress.itemsSuccessful]).toEqual(["COMPLETED", 100])
        expect((yield* contents("MovedCopy")).length).toBe(100)

        writeFileSync(file("moved.jsonl"), [JSON.stringify({ _id: "f1", title: "From a file", price: 1 }), "{not json", JSON.stringify({ _id: "f2", title: "Two", price: 2 })].join("\n") + "\n")
        const fromFile = yield* run(["data", "jobs", "submit", "--from-file", file("moved.jsonl"), "--to", "MovedCopy", "--policy", "SKIP_EXISTING"])
        expect(fromFile.code).toBe(1)
        expect(fromFile.stderr).toMatch(/items did not move; `sitefx data jobs logs [0-9a-f-]+` says why/)
        const partial = fromFile.stdout.trim().split(/\s+/)[0]!
        const logs = yield* run(["data", "jobs", "logs", partial])
        expect(logs.code).toBe(0)
        expect(logs.stdout.trim().split("\n").length).toBeGreaterThanOrEqual(1)
        expect((yield* contents("MovedCopy")).map((i) => i._id)).toEqual(expect.arrayContaining(["f1", "f2"]))

        const out = file("moved-out.csv")
        const toFile = yield* run(["data", "jobs", "submit", "Moved", "--to-file", out, "--fields", "_id,price", "--filter", '{"price": {"$lt": 3}}'])
        expect(toFile.code).toBe(0)
        const csv = readFileSync(out, "utf8").trim().split(/\r?\n/)
        expect(csv.length).toBe(4)
        expect(csv[0]).toMatch(/_id/)

        const listed = yield* run(["data", "jobs"])
        expect(listed.stdout).toContain(job.id)
        const got = yield* run(["data", "jobs", "get", job.id])
        expect(got.stdout).toMatch(new RegExp(`^${job.id}\\s+COMPLETED\\s+Moved → MovedCopy\\s+100 moved`))
        const none = yield* run(["data", "jobs", "submit", "Moved"])
        expect([none.code, none.stderr.split("\n")[0]]).toEqual([2, "sitefx: name one destination: --to COLLECTION or --to-file FILE"])
        const both = yield* run(["data", "jobs", "submit", "Moved", "--from-file", file("moved.jsonl"), "--to", "MovedCopy"])
        expect([both.code, both.stderr.split("\n")[0]]).toEqual([2, "sitefx: name one source: a COLLECTION, or --from-file FILE"])
        const unknown = yield* run(["data", "jobs", "get", "00000000-0000-0000-0000-000000000000"])
        expect([unknown.code, unknown.stderr.split("\n")[0]]).toEqual([2, "sitefx: there is no job \"00000000-0000-0000-0000-000000000000\"; `sitefx data jobs` lists them"])
      }))

    it.effect("types: writes the site's collections as a module; --check passes, then catches an added field, a removed one and a type change", () =>
      Effect.gen(function*() {
        yield* createCollection("Typed", [{ key: "title", type: "TEXT" }, { key: "price", type: "NUMBER" }, { key: "gone", type: "TEXT" }])
        const out = file("generated/collections.ts")
        const written = yield* run(["data", "types", "--out", out, "--collections", "Typed,Posts,Authors"])
        expect([written.code, written.stdout.trim()]).toEqual([0, `wrote the types of 3 collections to ${out}`])
        const text = readFileSync(out, "utf8")
        expect(text).toContain("export interface TypedItem {")
        expect(text).toContain("  readonly author?: string | AuthorsItem")
        expect((yield* run(["data", "types", "--out", out, "--collections", "Typed,Posts,Authors", "--check"])).code).toBe(0)

        const field = (path: string, body: unknown) => withData(() => Effect.gen(function*() {
          const client = yield* PlatformClient
          yield* client.json({ method: "POST", path: `/wix-data/v2/collections/${path}`, payload: body as Record<string, unknown> }, G.object)
        }))
        yield* field("create-field", { dataCollectionId: "Typed", field: { key: "stock", type: "NUMBER" } })
        yield* field("delete-field", { dataCollectionId: "Typed", fieldKey: "gone" })
        yield* field("update-field", { dataCollectionId: "Typed", field: { key: "price", type: "TEXT" } })
        const stale = yield* run(["data", "types", "--out", out, "--collections", "Typed,Posts,Authors", "--check"])
        expect(stale.code).toBe(1)
        expect(stale.stdout).toContain("+   readonly stock?: number")
        expect(stale.stdout).toContain("-   readonly gone?: string")
        expect(stale.stdout).toContain("-   readonly price?: number")
        expect(stale.stdout).toContain("+   readonly price?: string")
        expect(stale.stderr).toContain(`${out} is out of date`)
        const unknown = yield* run(["data", "types", "--out", out, "--collections", "Nope"])
        expect([unknown.code, unknown.stderr.split("\n")[0]]).toEqual([2, 'sitefx: the site has no collection "Nope"; `sitefx data collections` lists them'])
      }))

    it.effect("indexes: create waits until built, list (text and --json), a failed unique build exits 1 with its reason, drop", () =>
      Effect.gen(function*() {
        yield* createCollection("Indexed", TYPED)
        yield* withData((data) => data.bulkInsert("Indexed", [{ _id: "a", name: "x", price: 1 }, { _id: "b", name: "x", price: 2 }]))
        const created = yield* run(["data", "indexes", "create", "Indexed", "byPrice", "--field", "price:desc", "--field", "name"])
        expect([created.code, created.stdout.trim()]).toEqual([0, "index byPrice of Indexed is ACTIVE"])
        const clash = yield* run(["data", "indexes", "create", "Indexed", "uniqueName", "--field", "name", "--unique"])
        expect(clash.code).toBe(1)
        expect(clash.stderr).toMatch(/^sitefx: the index uniqueName of Indexed was not built: DUPLICATE_VALUES: .*item [ab] is one of them/m)
        const listed = yield* run(["data", "indexes", "Indexed"])
        expect(listed.stdout).toMatch(/^byPrice\s+ACTIVE\s+price:desc, name$/m)
        expect(listed.stdout).toMatch(/^uniqueName\s+FAILED\s+name\s+unique\s+\(DUPLICATE_VALUES/m)
        const dropped = yield* run(["data", "indexes", "drop", "Indexed", "uniqueName"])
        expect(dropped.code).toBe(0)
        const json = JSON.parse((yield* run(["data", "indexes", "Indexed", "--json"])).stdout) as { indexes: Array<{ name: string; status: string }> }
        expect(json.indexes.map((i) => [i.name, i.status])).toEqual([["byPrice", "ACTIVE"]])
        const noField = yield* run(["data", "indexes", "create", "Indexed", "empty"])
        expect([noField.code, noField.stderr.split("\n")[0]]).toEqual([2, "sitefx: an index needs at least one --field (FIELD or FIELD:desc, repeatable)"])
        const missing = yield* run(["data", "indexes", "drop", "Indexed", "nope"])
        expect([missing.code, missing.stderr.split("\n")[0]]).toEqual([2, "sitefx: Indexed has no index \"nope\"; `sitefx data indexes Indexed` lists them"])
      }))

    for (const format of ["jsonl", "csv"] as const) {
      it.effect(`export → truncate → import gives the same items (${format}, awkward fields, dates, nested objects)`, () =>
        Effect.gen(function*() {
          const collection = `Round${format}`
          yield* createCollection(collection, TYPED)
          yield* withData((data) => data.bulkInsert(collection, awkward))
          const before = yield* contents(collection)
          expect(before).toHaveLength(awkward.length)

          const out = file(`round.${format}`)
          const exported = yield* run(["data", "export", collection, "--out", out, "--quiet"])
          expect(exported.code).toBe(0)
          expect(existsSync(`${out}.partial`)).toBe(false)
          const truncated = yield* run(["data", "truncate", collection, "--yes"])
          expect(truncated.code).toBe(0)
          expect(yield* contents(collection)).toHaveLength(0)

          const imported = yield* run(["data", "import", collection, out, "--json"])
          expect(imported.stderr).not.toMatch(/Error|at .*\.ts:/)
          expect(imported.code).toBe(0)
          const report = JSON.parse(imported.stdout)
          expect(report).toMatchObject({ inserted: awkward.length, failed: 0, badRows: [] })
          expect(yield* contents(collection)).toEqual(before)
        }))
    }

    it.effect("export: filter, sort, fields; the items go to stdout when there is no --out", () =>
      Effect.gen(function*() {
        const all = yield* run(["data", "export", "Posts", "--filter", '{"likes": {"$gt": 10}}', "--sort", "likes:desc"])
        expect(all.code).toBe(0)
        const lines = all.stdout.trim().split("\n").map((l) => JSON.parse(l))
        expect(lines.map((l) => l.likes)).toEqual([30, 12])
        const csv = yield* run(["data", "export", "Posts", "--format", "csv", "--fields", "title,likes", "--sort", "likes"])
        expect(csv.stdout.split("\n")[0]).toBe("_id,title,likes")
        expect(csv.stdout.trim().split("\n")).toHaveLength(4)
      }))

    it.effect("bad rows are reported with their line numbers, nothing is written for them, the rest is", () =>
      Effect.gen(function*() {
        yield* createCollection("Checked", TYPED)
        const rows = [
          JSON.stringify({ _id: "good1", title: "ok", price: 1 }),
          "{not json",
          JSON.stringify({ _id: 42, title: "id is a number" }),
          JSON.stringify({ _id: "wrongtypes", price: "cheap", active: "yes" }),
          "",
          JSON.stringify(["an", "array"]),
          JSON.stringify({ _id: "good2", released: "2024-01-02T03:04:05Z", meta: { when: { $date: "2024-01-01T00:00:00.000Z" } } })
        ]
        writeFileSync(file("checked.jsonl"), `${rows.join("\n")}\n`)
        const result = yield* run(["data", "import", "Checked", file("checked.jsonl"), "--report", file("checked-report.json")])
        expect(result.code).toBe(1)
        expect(result.stdout).toMatch(/2 inserted.*4 failed/)
        expect(result.stdout).toMatch(/line 2: invalid JSON/)
        expect(result.stdout).toMatch(/line 3: _id must be a non-empty string, not a number/)
        expect(result.stdout).toMatch(/line 4: price must be a number, not a string; active must be true or false, not a string/)
        expect(result.stdout).toMatch(/line 6: not a JSON object but an array/)
        const report = JSON.parse(readFileSync(file("checked-report.json"), "utf8"))
        expect(report.badRows.map((b: { line: number }) => b.line)).toEqual([2, 3, 4, 6])
        const stored = yield* contents("Checked")
        expect(stored.map((i) => i._id)).toEqual(["good1", "good2"])
        expect(stored[1]!["released"]).toEqual(new Date("2024-01-02T03:04:05Z"))
        expect(stored[1]!["meta"]).toEqual({ when: new Date("2024-01-01T00:00:00.000Z") })

        writeFileSync(file("checked.csv"), "_id,price,active,notes\nc1,12abc,true,hello\nc2,3.5,TRUE,\"multi\nline\"\nc3,1,maybe,x\n")
        const csv = yield* run(["data", "import", "Checked", file("checked.csv")])
        expect(csv.code).toBe(1)
        expect(csv.stdout).toMatch(/line 2: price: "12abc" is not a number/)
        expect(csv.stdout).toMatch(/line 5: active/)
        expect(csv.stdout).toMatch(/left as text.*notes/)
        const c2 = (yield* contents("Checked")).find((i) => i._id === "c2")
        expect(c2).toEqual({ _id: "c2", price: 3.5, active: true, notes: "multi\nline" })

        // a name that says nothing of the format: asked for --format, nothing read or written
        writeFileSync(file("checked.txt"), "_id,price\nt1,7\n")
        const unnamed = yield* run(["data", "import", "Checked", file("checked.txt")])
        expect(unnamed.code).toBe(2)
        expect(unnamed.stdout).toBe("")
        expect(unnamed.stderr).toBe(`sitefx: cannot tell the format of ${file("checked.txt")} from its name: pass --format csv or --format jsonl\n`)
        expect((yield* contents("Checked")).some((i) => i._id === "t1")).toBe(false)
        const told = yield* run(["data", "import", "Checked", file("checked.txt"), "--format", "csv"])
        expect(told.code).toBe(0)
        expect((yield* contents("Checked")).find((i) => i._id === "t1")).toEqual({ _id: "t1", price: 7 })
      }))

    it.effect("dry run checks everything and writes nothing; stdin works; --mode update needs ids", () =>
      Effect.gen(function*() {
        const input = `${JSON.stringify({ title: "from stdin", likes: 1 })}\n${JSON.stringify({ title: "second", likes: "x" })}\n`
        const dry = yield* run(["data", "import", "Posts", "-", "--dry-run"], { input })
        expect(dry.code).toBe(1)
        expect(dry.stdout).toMatch(/dry run.*1 rows would be written, 1 bad rows/)
        expect(yield* withData((d) => d.count("Posts"))).toBe(3)
        const real = yield* run(["data", "import", "Posts", "-", "--mode", "update"], { input })
        expect(real.code).toBe(1)
        expect(real.stdout).toMatch(/line 1: --mode update needs an _id/)
        expect(yield* withData((d) => d.count("Posts"))).toBe(3)
      }))

    it.effect("exit codes: 2 for usage and configuration, with one line and no stack trace", () =>
      Effect.gen(function*() {
        const platform = yield* LocalPlatform
        const unknown = yield* run(["data", "export", "NoSuchCollection"])
        expect(unknown.code).toBe(2)
        expect(unknown.stderr.trim()).toBe('sitefx: the site has no collection "NoSuchCollection"; `sitefx data collections` lists them')

        const unwritable = yield* run(["data", "export", "Posts", "--out", "/nonexistent-dir/posts.jsonl"])
        expect(unwritable.code).toBe(2)
        expect(unwritable.stderr.trim()).toBe("sitefx: cannot write /nonexistent-dir/posts.jsonl (ENOENT)")

        // a usage error is the error first and where the help is, not the whole help
        const badFlag = yield* run(["data", "import", "Posts", "x.jsonl", "--mode", "upsert"])
        expect(badFlag.code).toBe(2)
        expect(badFlag.stdout).toBe("")
        expect(badFlag.stderr.trim().split("\n")).toEqual([
          'sitefx: Invalid value for flag --mode: "upsert". Expected: "insert" | "save" | "update"',
          "Run `sitefx data import --help` for its arguments and flags."
        ])
        const noArgument = yield* Effect.promise(() => cli(["data", "import"]))
        expect(noArgument.code).toBe(2)
        expect(noArgument.stdout).toBe("")
        expect(noArgument.stderr).toBe("sitefx: Missing required argument: collection\nRun `sitefx data import --help` for its arguments and flags.\n")
        const unknownCommand = yield* Effect.promise(() => cli(["dta"]))
        expect(unknownCommand.code).toBe(2)
        expect(unknownCommand.stdout).toBe("")
        expect(unknownCommand.stderr).toMatch(/^sitefx: Unknown subcommand "dta" for "sitefx"\n\n {2}Did you mean this\?\n {4}data\nRun `sitefx --help` for its arguments and flags\.\n$/)

        const missingFile = yield* run(["data", "import", "Posts", file("missing.jsonl")])
        expect(missingFile.code).toBe(2)
        expect(missingFile.stderr).toMatch(/^sitefx: no file /)

        const wrongKey = yield* run(["data", "collections", "--api-key", "sfx_key_wrong"])
        expect(wrongKey.code).toBe(2)
        expect(wrongKey.stderr).toMatch(/refused the API key \(401\)/)
        expect(wrongKey.stderr.trim().split("\n")).toHaveLength(1)

        const rightKey = yield* Effect.promise(() =>
          cli(["data", "collections", "--json"], { env: { SITEFX_API_KEY: Redacted.value(platform.apiKey), SITEFX_BASE_URL: platform.url } }))
        expect(rightKey.code).toBe(0)

        const nobody = yield* Effect.promise(() => cli(["data", "collections", "--base-url", "http://127.0.0.1:59999"]))
        expect(nobody.code).toBe(2)
        expect(nobody.stderr.trim()).toMatch(/^sitefx: no platform at http:\/\/127\.0\.0\.1:59999 \(nothing answers there\); start the local platform/)

        const remote = yield* Effect.promise(() => cli(["data", "collections", "--base-url", "https://www.example.com"]))
        expect(remote.code).toBe(2)
        expect(remote.stderr.trim()).toBe("sitefx: no API key for https://www.example.com: pass --api-key or set SITEFX_API_KEY (an admin key of the site)")
      }))

    it.effect("remove and truncate refuse without --yes off a terminal, and remove only what the filter matches", () =>
      Effect.gen(function*() {
        yield* createCollection("Removable", TYPED)
        yield* withData((d) => d.bulkInsert("Removable", Array.from({ length: 30 }, (_, i) => ({ _id: `r${i}`, price: i }))))
        const refused = yield* run(["data", "truncate", "Removable"])
        expect(refused.code).toBe(2)
        expect(refused.stderr).toMatch(/refusing to remove all 30 items of Removable without --yes/)
        const refusedRemove = yield* run(["data", "remove", "Removable", "--filter", '{"price": {"$lt": 10}}'])
        expect(refusedRemove.code).toBe(2)
        expect(yield* withData((d) => d.count("Removable"))).toBe(30)
        const removed = yield* run(["data", "remove", "Removable", "--filter", '{"price": {"$lt": 10}}', "--yes", "--json"])
        expect(removed.code).toBe(0)
        expect(JSON.parse(removed.stdout)).toMatchObject({ removed: 10 })
        expect(yield* withData((d) => d.count("Removable"))).toBe(20)
        const truncated = yield* run(["data", "truncate", "Removable", "-y"])
        expect(truncated.code).toBe(0)
        expect(yield* withData((d) => d.count("Removable"))).toBe(0)
      }))

    it.effect("on a terminal, truncate asks and goes on only with a yes", () =>
      Effect.gen(function*() {
        const platform = yield* LocalPlatform
        yield* createCollection("Asked", TYPED)
        yield* withData((d) => d.bulkInsert("Asked", [{ _id: "a" }, { _id: "b" }]))
        const args = ["data", "truncate", "Asked", "--base-url", platform.url]
        const no = yield* Effect.promise(() => onTerminal(args, "n\r"))
        expect(no.stdout).toMatch(/remove all 2 items of Asked\? \[y\/N\]/)
        expect(no.stdout).toMatch(/did not remove all 2 items of Asked: not confirmed/)
        expect(no.code).toBe(2)
        expect(yield* withData((d) => d.count("Asked"))).toBe(2)
        const yes = yield* Effect.promise(() => onTerminal(args, "y\r"))
        expect(yes.stdout).toMatch(/removed all 2 items of Asked/)
        expect(yes.code).toBe(0)
        expect(yield* withData((d) => d.count("Asked"))).toBe(0)
      }))

    it.effect("progress: a live bar on a terminal, plain lines in a log", () =>
      Effect.gen(function*() {
        const platform = yield* LocalPlatform
        yield* createCollection("Progress", TYPED)
        writeFileSync(file("progress.jsonl"), Array.from({ length: 20_000 }, (_, i) => JSON.stringify({ title: `t${i}`, price: i })).join("\n"))
        const plain = yield* run(["data", "import", "Progress", file("progress.jsonl"), "--concurrency", "1"], { env: { SITEFX_PROGRESS_SECONDS: "0.05" } })
        expect(plain.code).toBe(0)
        const lines = plain.stderr.trim().split("\n")
        expect(lines.length).toBeGreaterThan(1)
        for (const line of lines) expect(line).toMatch(/^import Progress: [\d ]+\/20 000 rows \(\d+%\)  [\d ]+\/s/)
        expect(lines[lines.length - 1]).toMatch(/20 000\/20 000 rows \(100%\)/)
        expect(plain.stderr).not.toMatch(/\r/)

        const tty = (yield* Effect.promise(() => onTerminal(["data", "export", "Progress", "--out", file("progress-out.jsonl"), "--base-url", platform.url]))).stdout
        expect(tty).toMatch(/\r\[#{24}\] export Progress: 20 000\/20 000 items \(100%\)/)
        expect(tty).toMatch(/ETA/)
        const quiet = yield* run(["data", "export", "Progress", "--out", file("progress-q.jsonl"), "--quiet"])
        expect(quiet.stderr).toBe("")

        // --json: progress as JSON lines on stderr, the result as one JSON object on stdout
        const json = yield* run(["data", "export", "Progress", "--out", file("progress-j.jsonl"), "--json"], { env: { SITEFX_PROGRESS_SECONDS: "0.05" } })
        const progress = json.stderr.trim().split("\n").map((l) => JSON.parse(l) as { progress: string; done: number; total: number; final: boolean })
        expect(progress[progress.length - 1]).toMatchObject({ progress: "export Progress", done: 20_000, total: 20_000, final: true })
        expect(JSON.parse(json.stdout)).toMatchObject({ collection: "Progress", format: "jsonl", items: 20_000 })
      }))

    it.effect("progress counts rows, not lines: multi-line CSV cells, blank lines and a bad last row end at 100%", () =>
      Effect.gen(function*() {
        yield* createCollection("Rows", [{ key: "title", type: "TEXT" }, { key: "price", type: "NUMBER" }])
        // 5 rows on 11 lines: cells with LF and CRLF, a `""`, a blank line, and a last row that is bad
        const csv = '_id,title,price\r\nr1,"one\ntwo",1\r\nr2,"she said ""hi""\r\nand left",2\n\nr3,"a,\n\nb",3\nr4,plain,4\nr5,"x\ny",cheap\n'
        writeFileSync(file("rows.csv"), csv)
        expect(countRecords(file("rows.csv"), "csv")).toBe(6)
        const finalProgress = (stderr: string) => JSON.parse(stderr.trim().split("\n").at(-1)!) as { done: number; total: number; final: boolean }
        for (const extra of [["--dry-run"], []]) {
          const imported = yield* run(["data", "import", "Rows", file("rows.csv"), "--json", ...extra])
          expect(imported.code).toBe(1)
          expect(finalProgress(imported.stderr)).toMatchObject({ done: 5, total: 5, final: true })
        }
        expect((yield* contents("Rows")).map((i) => [i._id, i["title"]])).toEqual([
          ["r1", "one\ntwo"],
          ["r2", "she said \"hi\"\r\nand left"],
          ["r3", "a,\n\nb"],
          ["r4", "plain"]
        ])

        writeFileSync(file("rows.jsonl"), `\n${JSON.stringify({ _id: "j1" })}\n  \t\n${JSON.stringify({ _id: "j2" })}\r\n\n${JSON.stringify({ _id: "j3" })}`)
        expect(countRecords(file("rows.jsonl"), "lines")).toBe(3)
        const jsonl = yield* run(["data", "import", "Rows", file("rows.jsonl"), "--json"])
        expect(jsonl.code).toBe(0)
        expect(finalProgress(jsonl.stderr)).toMatchObject({ done: 3, total: 3, final: true })
      }))

    it.effect("a checkpoint of another import is refused with exit 2", () =>
      Effect.gen(function*() {
        writeFileSync(file("other.jsonl"), `${JSON.stringify({ title: "x" })}\n`)
        writeFileSync(file("other.ckpt"), "not json")
        const garbage = yield* run(["data", "import", "Posts", file("other.jsonl"), "--checkpoint", file("other.ckpt")])
        expect(garbage.code).toBe(2)
        expect(garbage.stderr).toMatch(/cannot use the checkpoint .*delete it to start over/)
        rmSync(file("other.ckpt"))
        yield* run(["data", "import", "Posts", file("other.jsonl"), "--checkpoint", file("other.ckpt")])
        const otherCollection = yield* run(["data", "import", "Authors", file("other.jsonl"), "--checkpoint", file("other.ckpt")])
        expect(otherCollection.code).toBe(2)
        expect(otherCollection.stderr).toMatch(/does not fit this import: it belongs to an import into Posts/)
      }))
  })
})
