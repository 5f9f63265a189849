/**
 * `sitefx events tail` as a process: it prints the site's events as they happen, filtered by type,
 * resumes after an earlier tail's event, and stops after `--count`.
 */
import { describe, expect, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Redacted from "effect/Redacted"
import { DataItems } from "../../src/data/DataItems.ts"
import { Site } from "../../src/Site.ts"
import { LocalPlatform } from "../support/platform.ts"
import { cli, startCli } from "./support.ts"

const insert = (title: string) =>
  Effect.gen(function*() {
    const platform = yield* LocalPlatform
    return yield* Effect.provide(Effect.gen(function*() {
      const data = yield* DataItems
      return yield* data.insert("Posts", { title })
    }), Layer.fresh(Site.apiKey({ apiKey: Redacted.value(platform.apiKey), baseUrl: platform.url })))
  }).pipe(Effect.orDie)

describe("sitefx events tail", () => {
  it.layer(LocalPlatform.layer({ seed: "demo" }), { excludeTestServices: true })((it) => {
    it.effect("prints each event as it happens, as lines or JSON, only the types asked for, and resumes with --since", () =>
      Effect.gen(function*() {
        const platform = yield* LocalPlatform
        const tail = startCli(["events", "tail", "--type", "wix.data.v2.data_item_created", "--count", "2", "--json", "--base-url", platform.url])
        // the stream is open once the platform has a subscriber; give it a moment, then write
        yield* Effect.sleep("1500 millis")
        const first = yield* insert("tail one")
        yield* Effect.provide(Effect.gen(function*() {
          const data = yield* DataItems
          yield* data.remove("Posts", first._id)
        }), Layer.fresh(Site.apiKey({ apiKey: Redacted.value(platform.apiKey), baseUrl: platform.url }))).pipe(Effect.orDie)
        const second = yield* insert("tail two")
        const done = yield* Effect.promise(() => tail.done)
        expect(done.code).toBe(0)
        const events = done.stdout.trim().split("\n").map((l) => JSON.parse(l) as { id: string; type: string; about: string; identity: { identityType: string } })
        // the removal between the two inserts is not of the type asked for
        expect(events.map((e) => e.type)).toEqual(["wix.data.v2.data_item_created", "wix.data.v2.data_item_created"])
        expect(events.map((e) => e.about)).toEqual([`Posts/${first._id}`, `Posts/${second._id}`])
        expect(events[0]!.identity.identityType).toBe("WIX_USER")

        // after the first event: the second again, as a line
        const since = yield* Effect.promise(() => cli(["events", "tail", "--since", events[0]!.id, "--count", "2", "--base-url", platform.url], { timeoutMs: 20_000 }))
        expect(since.code).toBe(0)
        const lines = since.stdout.trim().split("\n")
        expect(lines[0]).toMatch(new RegExp(`wix\\.data\\.v2\\.data_item_deleted  Posts/${first._id}  by admin`))
        expect(lines[1]).toMatch(new RegExp(`wix\\.data\\.v2\\.data_item_created  Posts/${second._id}  by admin .*\\(#${events[1]!.id}\\)$`))
      }))

    it.effect("a refused key or an expired --since is one line and exit 2", () =>
      Effect.gen(function*() {
        const platform = yield* LocalPlatform
        const refused = yield* Effect.promise(() => cli(["events", "tail", "--api-key", "sfx_key_wrong", "--base-url", platform.url], { timeoutMs: 20_000 }))
        expect(refused.code).toBe(2)
        expect(refused.stderr.trim().split("\n").filter((l) => l.startsWith("sitefx:"))).toHaveLength(1)
        const badSince = yield* Effect.promise(() => cli(["events", "tail", "--since", "not-an-id", "--base-url", platform.url], { timeoutMs: 20_000 }))
        expect(badSince.code).toBe(2)
        expect(badSince.stderr).toMatch(/^sitefx: /m)
      }))
  })
})
