/**
 * `sitefx events tail` as a process: it prints the site's events as they happen, filtered by type,
 * resumes after an earlier tail's event, and stops after `--count`.
 */
import { describe, expect, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Redacted from "effect/Redacted"
import * as Stream from "effect/Stream"
import { createServer } from "node:http"
import type { AddressInfo } from "node:net"
import { describeIdentity } from "../../src/cli/events.ts"
import * as DataItems from "../../src/data/DataItems.ts"
import { Site } from "../../src/Site.ts"
import { LocalPlatform } from "../support/platform.ts"
import { cli, startCli } from "./support.ts"

const insert = (title: string) =>
  Effect.gen(function*() {
    const platform = yield* LocalPlatform
    return yield* Effect.provide(Effect.gen(function*() {
      return yield* DataItems.insert("Posts", { title })
    }), Layer.fresh(Site.apiKey({ apiKey: Redacted.value(platform.apiKey), baseUrl: platform.url })))
  }).pipe(Effect.orDie)

// each run of the command takes a second or two, several on a busy machine: a test of a few runs gets two minutes
describe("sitefx events tail", { timeout: 120_000 }, () => {
  it.layer(LocalPlatform.layer({ seed: "demo" }), { excludeTestServices: true })((it) => {
    it.effect("prints each event as it happens, as lines or JSON, only the types asked for, and resumes with --since", () =>
      Effect.gen(function*() {
        const platform = yield* LocalPlatform
        const tail = startCli(["events", "tail", "--type", "wix.data.v2.data_item_created", "--count", "2", "--json", "--base-url", platform.url])
        // the command may take a while to start on a busy machine: write until the tail prints its first
        // event (events before it subscribed are not its to print), and go on from the item it names
        let first: { readonly _id: string } | undefined
        for (let attempt = 0; first === undefined && attempt < 30; attempt++) {
          const written = yield* insert(`tail one (${attempt})`)
          for (let wait = 0; wait < 20 && tail.output().stdout === ""; wait++) yield* Effect.sleep("100 millis")
          const line = tail.output().stdout.split("\n")[0]
          if (line !== undefined && line !== "") {
            const about = (JSON.parse(line) as { about: string }).about
            first = about === `Posts/${written._id}` ? written : { _id: about.slice("Posts/".length) }
          }
        }
        if (first === undefined) throw new Error("the tail printed no event")
        yield* Effect.provide(Effect.gen(function*() {
          yield* DataItems.remove("Posts", first._id)
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
        // the local platform's admin key is called "admin": said once
        expect(lines[0]).toMatch(new RegExp(`wix\\.data\\.v2\\.data_item_deleted  Posts/${first._id}  by admin  \\(#[^)]+\\)$`))
        expect(lines[1]).toMatch(new RegExp(`wix\\.data\\.v2\\.data_item_created  Posts/${second._id}  by admin  \\(#${events[1]!.id}\\)$`))
      }))

    it.effect("webhooks: add a subscription that then receives the site's events, list it, remove it", () =>
      Effect.gen(function*() {
        const platform = yield* LocalPlatform
        // a receiver that records the subscription id of each delivery
        const received: Array<string> = []
        const receiver = createServer((req, res) => {
          req.resume()
          received.push(String(req.headers["x-sitefx-webhook-id"]))
          res.end("ok")
        })
        yield* Effect.promise(() => new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve)))
        yield* Effect.addFinalizer(() => Effect.sync(() => receiver.close()))
        const url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`
        const at = ["--base-url", platform.url]

        const added = yield* Effect.promise(() => cli(["events", "webhooks", "add", url, "--type", "wix.data.v2.data_item_created", "--json", ...at]))
        expect(added.code).toBe(0)
        const webhook = (JSON.parse(added.stdout) as { webhook: { id: string; url: string; eventTypes: Array<string> } }).webhook
        expect(webhook).toMatchObject({ url, eventTypes: ["wix.data.v2.data_item_created"] })
        const listed = yield* Effect.promise(() => cli(["events", "webhooks", ...at]))
        expect(listed.stdout).toMatch(new RegExp(`^${webhook.id}  ${url.replace(/[.]/g, "\\.")}  wix\\.data\\.v2\\.data_item_created`, "m"))

        yield* insert("delivered by webhook")
        for (let i = 0; i < 100 && received.length === 0; i++) yield* Effect.sleep("50 millis")
        expect(received).toEqual([webhook.id])

        const removed = yield* Effect.promise(() => cli(["events", "webhooks", "remove", webhook.id, ...at]))
        expect(removed.stdout.trim()).toBe(`removed ${webhook.id}`)
        const none = yield* Effect.promise(() => cli(["events", "webhooks", "--json", ...at]))
        expect(JSON.parse(none.stdout)).toEqual({ webhooks: [] })

        const badUrl = yield* Effect.promise(() => cli(["events", "webhooks", "add", "ftp://example.com/x", ...at]))
        expect(badUrl.code).toBe(2)
        expect(badUrl.stderr).toMatch(/^sitefx: .* refused the request: .*http or https URL/)
        const unknown = yield* Effect.promise(() => cli(["events", "webhooks", "remove", "no-such-webhook", ...at]))
        expect(unknown.code).toBe(1)
        expect(unknown.stderr).toMatch(/WEBHOOK_NOT_FOUND/)
      }).pipe(Effect.scoped))

    it.effect("a reader that stops early (`| head`) ends the tail quietly with 0, not an EPIPE stack trace", () =>
      Effect.gen(function*() {
        const platform = yield* LocalPlatform
        yield* insert("for a short reader")
        const tail = startCli(["events", "tail", "--since", "0", "--base-url", platform.url], { timeoutMs: 20_000 })
        yield* Effect.promise(async () => {
          while (!tail.output().stdout.includes("\n")) await new Promise((r) => setTimeout(r, 20))
        })
        tail.child.stdout!.destroy() // the reader goes away; the next event written meets a closed pipe
        yield* insert("after the reader left")
        const done = yield* Effect.promise(() => tail.done)
        expect(done.code).toBe(0)
        expect(done.stderr).not.toMatch(/EPIPE|\n\s+at /)
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
        // past the kept window: one clause, and the way on (resuming from the same point would fail again)
        yield* Effect.provide(
          DataItems.bulkInsert("Posts", Stream.range(1, 13_000).pipe(Stream.map((i) => ({ title: `filler ${i}` })))),
          Layer.fresh(Site.apiKey({ apiKey: Redacted.value(platform.apiKey), baseUrl: platform.url }))
        ).pipe(Effect.orDie)
        const expired = yield* Effect.promise(() => cli(["events", "tail", "--since", "1", "--base-url", platform.url], { timeoutMs: 20_000 }))
        expect(expired.code).toBe(2)
        expect(expired.stderr.trim().split("\n").filter((l) => l.startsWith("sitefx:"))).toEqual([
          "sitefx: the events after 1 are no longer kept; run without --since to follow from now"
        ])
      }))
  })

  it("names who caused an event once: its kind and its id, never the kind twice", () => {
    expect(describeIdentity({ identityType: "MEMBER", memberId: "m-123" })).toBe("member m-123")
    expect(describeIdentity({ identityType: "ANONYMOUS_VISITOR", anonymousVisitorId: "v-9" })).toBe("visitor v-9")
    expect(describeIdentity({ identityType: "APP", appId: "app-1" })).toBe("app app-1")
    expect(describeIdentity({ identityType: "WIX_USER", wixUserId: "6c3d0a" })).toBe("admin 6c3d0a")
    expect(describeIdentity({ identityType: "WIX_USER", wixUserId: "admin" })).toBe("admin")
    expect(describeIdentity({ identityType: "MEMBER" })).toBe("a member")
    expect(describeIdentity({ identityType: "UNKNOWN" })).toBe("an unknown caller")
    expect(describeIdentity({})).toBe("an unknown caller")
  })
})
