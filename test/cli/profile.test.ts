/**
 * The batch command against the local platform's production profile: with its rate limit scaled down to
 * 3 calls a second, `sitefx data import` and `export` take the limit the platform announces, pace
 * themselves to it and finish with every item once; told not to pace (`--rate-limit none`), the import
 * meets the platform's 429s, waits each one out, and still writes every row once. A movement job under
 * the same limit moves every item once.
 */
import { describe, expect, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as Stream from "effect/Stream"
import { readFileSync, writeFileSync } from "node:fs"
import { join } from "node:path"
import { LocalPlatform } from "../support/platform.ts"
import { run, scratchDir, withData } from "./support.ts"

const dir = scratchDir("sitefx-cli-profile-")
const ROWS = 12_000 // 12 bulk calls of 1000
const LIMIT = { requests: 3, windowSeconds: 1 }

const createCollection = (id: string) =>
  Effect.gen(function*() {
    writeFileSync(join(dir, `${id}.json`), JSON.stringify({ id, fields: [{ key: "n", type: "NUMBER" }], permissions: { read: "ANYONE", insert: "ADMIN", update: "ADMIN", remove: "ADMIN" } }))
    const created = yield* run(["data", "collections", "create", join(dir, `${id}.json`)])
    expect([created.code, created.stderr]).toEqual([0, ""])
  })

const rows = (name: string): string => {
  const path = join(dir, name)
  writeFileSync(path, Array.from({ length: ROWS }, (_, n) => JSON.stringify({ _id: `r${n}`, n })).join("\n"))
  return path
}

/** What a command said on stderr besides its progress (JSON progress lines under --json). */
const said = (stderr: string) => stderr.split("\n").filter((l) => l !== "" && !l.startsWith(`{"progress":`))

/** Every row once: as many items as rows, and as many distinct numbers. */
const expectEachOnce = (collection: string) =>
  Effect.gen(function*() {
    expect(yield* withData((d) => d.count(collection))).toBe(ROWS)
    const ns = new Set<number>()
    yield* withData((d) => d.query(collection).fields("n").stream.pipe(Stream.runForEach((i) => Effect.sync(() => ns.add(i["n"] as number)))))
    expect(ns.size).toBe(ROWS)
  })

/** The windows `calls` calls at the limit open: a paced command meets at most a 429 at each one's edge. */
const edges = (calls: number) => Math.ceil(calls / LIMIT.requests)

/** The least time `calls` calls can take at the limit under a fixed window: the windows before the last one's. */
const floorSeconds = (calls: number) => (Math.ceil(calls / LIMIT.requests) - 1) * LIMIT.windowSeconds

describe("sitefx data import and export under the production profile", { timeout: 120_000 }, () => {
  it.layer(
    LocalPlatform.layer({ seed: "none", profile: "production", rateLimit: LIMIT.requests, rateLimitWindowSeconds: LIMIT.windowSeconds }),
    { excludeTestServices: true }
  )((it) => {
    it.effect("take the announced limit, pace themselves to it, and move every item once", () =>
      Effect.gen(function*() {
        yield* createCollection("Paced")
        const imported = yield* run(["data", "import", "Paced", rows("paced.jsonl"), "--json"], { timeoutMs: 90_000 })
        expect([imported.code, said(imported.stderr)]).toEqual([0, []])
        const report = JSON.parse(imported.stdout.trim().split("\n").pop()!)
        expect(report).toMatchObject({ inserted: ROWS, failed: 0, pacing: { limit: "3/1s" } })
        // 12 bulk calls and the command's own reads, 3 a second: at least 4 windows waited
        expect(report.pacing.calls).toBeGreaterThanOrEqual(12)
        expect(report.seconds).toBeGreaterThanOrEqual(floorSeconds(12))
        // the limit was kept: a 429 comes only of a call that crossed a window's edge in flight (the platform
        // opens its window when the first call arrives, the command counts from when it sent it), never of a burst
        expect(report.pacing.throttled).toBeLessThanOrEqual(edges(report.pacing.calls))
        yield* expectEachOnce("Paced")

        const out = join(dir, "paced-export.jsonl")
        const exported = yield* run(["data", "export", "Paced", "--out", out, "--json"], { timeoutMs: 90_000 })
        expect([exported.code, said(exported.stderr)]).toEqual([0, []])
        const summary = JSON.parse(exported.stdout.trim().split("\n").pop()!)
        expect(summary).toMatchObject({ items: ROWS, pacing: { limit: "3/1s" } })
        expect(summary.seconds).toBeGreaterThanOrEqual(floorSeconds(12))
        expect(summary.pacing.throttled).toBeLessThanOrEqual(edges(summary.pacing.calls))
        const ids = readFileSync(out, "utf8").trim().split("\n").map((line) => JSON.parse(line)._id as string)
        expect(ids.length).toBe(ROWS)
        expect(new Set(ids).size).toBe(ROWS)

        // a movement job's submission and its polls are paced too; the job moves every item once
        yield* createCollection("Moved")
        const moved = yield* run(["data", "jobs", "submit", "Paced", "--to", "Moved", "--json"], { timeoutMs: 90_000 })
        expect([moved.code, said(moved.stderr)]).toEqual([0, []])
        yield* expectEachOnce("Moved")

        // the person at a terminal reads the same in the summary line
        const human = yield* run(["data", "export", "Paced", "--out", join(dir, "again.jsonl")], { timeoutMs: 90_000 })
        expect(human.code).toBe(0)
        expect(human.stdout).toMatch(/^exported 12000 items of Paced to .* in [\d.]+ s; paced at 3\/1s, \d+ calls, \d+ × 429/)
      }))

    it.effect("told not to pace, the import meets 429s, waits them out, and still writes every row once", () =>
      Effect.gen(function*() {
        yield* createCollection("Unpaced")
        const imported = yield* run(["data", "import", "Unpaced", rows("unpaced.jsonl"), "--json", "--rate-limit", "none"], { timeoutMs: 90_000 })
        expect([imported.code, said(imported.stderr)]).toEqual([0, []])
        const report = JSON.parse(imported.stdout.trim().split("\n").pop()!)
        expect(report).toMatchObject({ inserted: ROWS, failed: 0, pacing: { limit: null } })
        expect(report.pacing.throttled).toBeGreaterThan(0)
        yield* expectEachOnce("Unpaced")
      }))
  })
})
