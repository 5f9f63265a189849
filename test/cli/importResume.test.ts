/**
 * `sitefx data import` is exactly-once by default: stopped by Ctrl-C, killed, or stopped by a write the
 * platform refused, the same command run again with no flags ends with every row written once. Its own
 * checkpoint lives in the state folder (SITEFX_STATE_DIR, the test file's) and is gone once the import is
 * complete; what cannot resume (standard input, --no-checkpoint) says so; a completed import with an
 * explicit --checkpoint run again sends nothing and says that.
 */
import { describe, expect, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as Stream from "effect/Stream"
import { appendFileSync, existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs"
import { join } from "node:path"
import * as DataItems from "../../src/data/DataItems.ts"
import { dev, LocalPlatform } from "../support/platform.ts"
import { cli, type CliResult, run, scratchDir, startCli, STATE_DIR, waitFor, withData } from "./support.ts"

const dir = scratchDir("sitefx-cli-resume-")
const file = (name: string) => join(dir, name)
const IMPORTS = join(STATE_DIR, "imports")

/** The files the imports into a collection keep in the state folder (their own checkpoints, and locks). */
const ownCheckpoints = (collection: string): Array<string> =>
  existsSync(IMPORTS) ? readdirSync(IMPORTS).filter((f) => f.startsWith(`${collection}-`)).map((f) => join(IMPORTS, f)) : []

/** The lines a command printed on stderr that are not progress. */
const said = (stderr: string): Array<string> => stderr.split("\n").filter((l) => l !== "" && !/^import \w+: /.test(l))

const createCollection = (id: string) =>
  Effect.gen(function*() {
    writeFileSync(file(`${id}.json`), JSON.stringify({ id, fields: [{ key: "n", type: "NUMBER" }, { key: "label", type: "TEXT" }], permissions: { read: "ANYONE", insert: "ADMIN", update: "ADMIN", remove: "ADMIN" } }))
    const created = yield* run(["data", "collections", "create", file(`${id}.json`)])
    expect([created.code, created.stderr]).toEqual([0, ""])
  })

/** Rows without `_id`, each with its number in `n`. */
const writeRows = (name: string, count: number): string => {
  const path = file(name)
  writeFileSync(path, Array.from({ length: count }, (_, n) => JSON.stringify({ n, label: `row ${n}` })).join("\n"))
  return path
}

/** How many rows the import's plain progress lines say are settled. */
const settledShown = (stderr: string): number => {
  // `12 000/300 000 rows`, or `12 000 rows` when the total is not known (standard input)
  const all = [...stderr.matchAll(/^import \w+: ([\d ]+?)(?:\/| rows)/gm)]
  return all.length === 0 ? 0 : Number(all[all.length - 1]![1]!.replace(/ /g, ""))
}

/** Every row once: as many items as rows, and as many distinct row numbers. */
const expectEachOnce = (collection: string, rows: number) =>
  Effect.gen(function*() {
    expect(yield* withData((d) => d.count(collection))).toBe(rows)
    const ns = new Set<number>()
    yield* withData((d) => d.query(collection).fields("n").stream.pipe(Stream.runForEach((i) => Effect.sync(() => ns.add(i["n"] as number)))))
    expect(ns.size).toBe(rows)
  })

const PROGRESS = { SITEFX_PROGRESS_SECONDS: "0.1" }

/** Starts an import and stops it with `signal` once `at` rows are settled. */
const stopAt = (args: ReadonlyArray<string>, at: number, signal: NodeJS.Signals, env: Record<string, string> = {}) =>
  Effect.promise(async (): Promise<CliResult> => {
    const started = startCli(args, { env: { ...PROGRESS, ...env }, timeoutMs: 120_000 })
    await waitFor(`the import to settle ${at} rows`, () => settledShown(started.output().stderr) >= at, 120_000)
    started.child.kill(signal)
    return started.done
  })

const checkpointIn = (path: string) => JSON.parse(readFileSync(path, "utf8")) as { settled: number; complete: boolean; resumeKey: string }

describe("sitefx data import: exactly once by default", { timeout: 180_000 }, () => {
  it.layer(LocalPlatform.layer({ seed: "none" }), { excludeTestServices: true })((it) => {
    for (const signal of ["SIGINT", "SIGKILL"] as const) {
      it.effect(`300 000 rows without _id, ${signal} at a third, the same command again with no flags: every row once`, () =>
        Effect.gen(function*() {
          const platform = yield* LocalPlatform
          const collection = `Big${signal}`
          yield* createCollection(collection)
          const input = writeRows(`big-${signal}.jsonl`, 300_000)
          const args = ["data", "import", collection, input, "--base-url", platform.url]

          const first = yield* stopAt(args, 100_000, signal)
          const [checkpoint, ...others] = ownCheckpoints(collection).filter((f) => !f.endsWith(".lock"))
          expect(others).toEqual([])
          // a run that is stopped lets go of its lock; a killed one cannot, and the next run takes it over
          expect(existsSync(`${checkpoint}.lock`)).toBe(signal === "SIGKILL")
          expect(checkpoint).toMatch(new RegExp(`^${IMPORTS}/${collection}-[0-9a-f]{16}\\.json$`))
          const saved = checkpointIn(checkpoint!)
          expect(saved.complete).toBe(false)
          expect(saved.settled).toBeGreaterThanOrEqual(signal === "SIGINT" ? 100_000 : 0)
          expect(saved.settled).toBeLessThan(300_000)
          if (signal === "SIGINT") {
            expect(first.code).toBe(130)
            expect(first.stderr).toContain(`sitefx: stopping: the chunks in flight finish, then the checkpoint ${checkpoint} is saved (Ctrl-C again quits at once)`)
            expect(first.stdout).toMatch(/^interrupted .* into BigSIGINT: \d+ inserted, 0 updated, 0 skipped, 0 failed/)
            expect(first.stdout).toContain(`  the checkpoint is ${checkpoint}; to resume, run the same command again: sitefx ${args.join(" ")}`)
            // a clean stop settles exactly what was written
            expect(yield* withData((d) => d.count(collection))).toBe(saved.settled)
          } else {
            expect(first.signal).toBe("SIGKILL")
            // what landed after the last save is written again by the resume, onto the same ids
            expect(yield* withData((d) => d.count(collection))).toBeGreaterThanOrEqual(saved.settled)
          }

          const second = yield* Effect.promise(() => cli(args, { timeoutMs: 180_000 }))
          expect(said(second.stderr)).toEqual([])
          expect(second.code).toBe(0)
          expect(second.stdout).toContain(`resumed after ${saved.settled} items settled by an earlier run`)
          expect(second.stdout).toMatch(new RegExp(`: 300000 inserted, 0 updated, 0 skipped, 0 failed \\(this run: ${300_000 - saved.settled} items in [\\d.]+ s, \\d+ items/s\\)`))
          yield* expectEachOnce(collection, 300_000)
          // complete: its checkpoint is gone, and the same command again is a new import
          expect(ownCheckpoints(collection)).toEqual([])
        }), { timeout: 300_000 })
    }

    it.effect("a write refused as a whole stops the import with one line; the checkpoint keeps the settled place and the run again finishes it", () =>
      Effect.gen(function*() {
        const platform = yield* LocalPlatform
        yield* createCollection("Refused")
        const input = writeRows("refused.jsonl", 60_000)
        const args = ["data", "import", "Refused", input, "--concurrency", "2", "--base-url", platform.url]
        const started = startCli(args, { env: PROGRESS, timeoutMs: 120_000 })
        yield* Effect.promise(() => waitFor("10 000 rows", () => settledShown(started.output().stderr) >= 10_000, 120_000))
        // the platform's own failure: not retried, the whole call refused
        yield* dev("/faults", { body: { path: "/wix-data/v2/bulk/items/insert", status: 500, count: 1000 } })
        const refused = yield* Effect.promise(() => started.done)
        yield* dev("/faults", { method: "DELETE" })
        const [checkpoint] = ownCheckpoints("Refused")
        const saved = checkpointIn(checkpoint!)
        expect(saved.complete).toBe(false)
        expect(refused.code).toBe(1)
        // one line: the refusal, then where the import stands and how to go on
        const errors = refused.stderr.split("\n").filter((l) => l.startsWith("sitefx:"))
        expect(errors).toHaveLength(1)
        expect(errors[0]).toMatch(/^sitefx: the import into Refused stopped: .*temporarily unavailable; /)
        expect(errors[0]).toContain(
          `; ${saved.settled} items are settled, and the checkpoint ${checkpoint} keeps that place: once that is fixed, run the same command again to resume (sitefx ${args.join(" ")})`
        )
        expect(refused.stderr).not.toMatch(/\n\s+at /)
        expect(refused.stdout).toBe("")
        expect(saved.settled).toBeGreaterThanOrEqual(10_000)
        expect(saved.settled).toBeLessThan(60_000)

        const again = yield* Effect.promise(() => cli(args, { timeoutMs: 120_000 }))
        expect([again.code, said(again.stderr)]).toEqual([0, []])
        expect(again.stdout).toContain(`resumed after ${saved.settled} items settled by an earlier run`)
        yield* expectEachOnce("Refused", 60_000)
        expect(ownCheckpoints("Refused")).toEqual([])
      }), { timeout: 240_000 })

    it.effect("an unfinished import is not overtaken: a second run while it runs, another --mode, or a changed file are refused with exit 2", () =>
      Effect.gen(function*() {
        const platform = yield* LocalPlatform
        yield* createCollection("Guarded")
        const input = writeRows("guarded.jsonl", 100_000)
        const args = ["data", "import", "Guarded", input, "--concurrency", "1", "--base-url", platform.url]
        const started = startCli(args, { env: PROGRESS, timeoutMs: 120_000 })
        yield* Effect.promise(() => waitFor("5 000 rows", () => settledShown(started.output().stderr) >= 5000, 120_000))
        const meanwhile = yield* Effect.promise(() => cli(args))
        const [checkpoint] = ownCheckpoints("Guarded")
        expect(meanwhile.code).toBe(2)
        expect(meanwhile.stderr).toBe(
          `sitefx: another sitefx (process ${started.child.pid}) is running this import, with the checkpoint ${checkpoint}; wait for it to end or stop it (if no such import runs, delete ${checkpoint}.lock)\n`
        )
        started.child.kill("SIGINT")
        const first = yield* Effect.promise(() => started.done)
        expect(first.code).toBe(130)
        const written = yield* withData((d) => d.count("Guarded"))
        expect(written).toBe(checkpointIn(checkpoint!).settled)
        expect(existsSync(`${checkpoint}.lock`)).toBe(false)

        const otherMode = yield* Effect.promise(() => cli([...args, "--mode", "save"]))
        expect(otherMode.code).toBe(2)
        expect(otherMode.stderr).toBe(
          `sitefx: an unfinished import left the checkpoint ${checkpoint}, and it does not fit this one: it belongs to an import with --mode insert; run that import as it was started to finish it, or delete ${checkpoint} to start over (rows without an _id it wrote would then be written again)\n`
        )
        appendFileSync(input, `\n${JSON.stringify({ n: 100_000, label: "one more" })}`)
        const changed = yield* Effect.promise(() => cli(args))
        expect(changed.code).toBe(2)
        expect(changed.stderr).toMatch(new RegExp(`^sitefx: an unfinished import left the checkpoint .*, and it does not fit this one: ${input} changed since it was written; `))
        expect(yield* withData((d) => d.count("Guarded"))).toBe(written)
      }), { timeout: 180_000 })

    it.effect("standard input and --no-checkpoint keep no checkpoint, and an interrupted run says it cannot resume", () =>
      Effect.gen(function*() {
        const platform = yield* LocalPlatform
        yield* createCollection("Unkept")
        const input = writeRows("unkept.jsonl", 100_000)
        const flagged = yield* stopAt(["data", "import", "Unkept", input, "--no-checkpoint", "--concurrency", "1", "--base-url", platform.url], 5000, "SIGINT")
        expect(flagged.code).toBe(130)
        const cannot = "with --no-checkpoint this import keeps no checkpoint and cannot resume: run again, it starts from the first row, and rows without an _id are written a second time"
        expect(flagged.stderr).toContain(`sitefx: stopping: the chunks in flight finish (Ctrl-C again quits at once); ${cannot}`)
        expect(flagged.stdout).toContain(`\n  ${cannot}`)
        expect(flagged.stdout).not.toMatch(/checkpoint is|to resume, run/)
        expect(ownCheckpoints("Unkept")).toEqual([])

        const piped = startCli(["data", "import", "Unkept", "-", "--concurrency", "1", "--base-url", platform.url], {
          env: PROGRESS,
          input: readFileSync(input, "utf8"),
          timeoutMs: 120_000
        })
        yield* Effect.promise(() => waitFor("5 000 rows", () => settledShown(piped.output().stderr) >= 5000, 120_000))
        piped.child.kill("SIGINT")
        const stdin = yield* Effect.promise(() => piped.done)
        expect(stdin.code).toBe(130)
        expect(stdin.stdout).toMatch(/^interrupted - into Unkept: /)
        expect(stdin.stdout).toContain("  an import of standard input keeps no checkpoint and cannot resume: run again, it starts from the first row")
        expect(stdin.stdout).not.toMatch(/checkpoint is|to resume, run/)
        expect(ownCheckpoints("Unkept")).toEqual([])

        const both = yield* run(["data", "import", "Unkept", input, "--checkpoint", file("x.ckpt"), "--no-checkpoint"])
        expect([both.code, both.stderr]).toEqual([2, "sitefx: --checkpoint and --no-checkpoint contradict each other: give one\n"])
        const stdinCheckpoint = yield* run(["data", "import", "Unkept", "-", "--checkpoint", file("x.ckpt")], { input: "{}\n" })
        expect([stdinCheckpoint.code, stdinCheckpoint.stderr]).toEqual([
          2,
          "sitefx: --checkpoint needs an input file: standard input cannot be read again to resume; save it to a file and import that\n"
        ])
        expect(existsSync(file("x.ckpt"))).toBe(false)
      }), { timeout: 180_000 })

    it.effect("--checkpoint FILE: stopped, resumed, then run once more it sends nothing and says the import was complete", () =>
      Effect.gen(function*() {
        const platform = yield* LocalPlatform
        yield* createCollection("Kept")
        const input = file("kept.jsonl")
        writeFileSync(input, [...Array.from({ length: 40_000 }, (_, n) => JSON.stringify({ n, label: `row ${n}` })), "{not json", JSON.stringify({ n: "x" })].join("\n"))
        const checkpoint = file("kept.ckpt")
        const args = ["data", "import", "Kept", input, "--checkpoint", checkpoint, "--concurrency", "1", "--base-url", platform.url]
        const first = yield* stopAt(args, 5000, "SIGINT")
        expect(first.code).toBe(130)
        expect(first.stdout).toContain(`  the checkpoint is ${checkpoint}; to resume, run the same command again: sitefx ${args.join(" ")}`)

        const second = yield* Effect.promise(() => cli(args, { timeoutMs: 120_000 }))
        expect(second.code).toBe(1)
        expect(second.stdout).toMatch(/^imported .* into Kept: 40000 inserted, 0 updated, 0 skipped, 2 failed \(this run: \d+ items in [\d.]+ s, \d+ items\/s\)/)
        expect(checkpointIn(checkpoint).complete).toBe(true)
        yield* expectEachOnce("Kept", 40_000)
        expect(ownCheckpoints("Kept")).toEqual([])

        const { last } = yield* dev<{ last: number }>("/requests?limit=1")
        const third = yield* Effect.promise(() => cli(args))
        expect(third.code).toBe(1)
        expect(third.stdout.split("\n")).toEqual([
          `${input} was imported into Kept by an earlier run: 40000 inserted, 0 updated, 0 skipped, 2 failed; nothing was sent now`,
          expect.stringMatching(/^ {2}line 40001: invalid JSON/),
          "  line 40002: n must be a number, not a string",
          `  the checkpoint ${checkpoint} says so; to import the file again, delete it or give another --checkpoint`,
          ""
        ])
        expect(third.stdout).not.toMatch(/items\/s/)
        const sent = yield* dev<{ requests: ReadonlyArray<{ path: string }> }>(`/requests?after=${last}&path=/wix-data/v2/bulk`)
        expect(sent.requests).toEqual([])
        expect(yield* withData((d) => d.count("Kept"))).toBe(40_000)
        const json = JSON.parse((yield* Effect.promise(() => cli([...args, "--json"]))).stdout) as Record<string, unknown>
        expect(json).toMatchObject({ alreadyComplete: true, settledThisRun: 0, inserted: 40_000, failed: 2, interrupted: false, checkpoint })
      }), { timeout: 180_000 })
  })
})
