/**
 * `sitefx logs` as a process against a local platform: the latest requests as lines (time, status,
 * method, path, duration, caller, a refusal's rule) or JSON, the platform's filters, `--follow` until
 * Ctrl-C, and what a bad filter or a missing platform says.
 */
import { describe, expect, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as Redacted from "effect/Redacted"
import { createServer } from "node:net"
import { LocalPlatform } from "../support/platform.ts"
import { cli, startCli, waitFor } from "./support.ts"

/** One plain call to the platform, answered whatever its status. */
const send = (path: string, body?: unknown, authorization?: string) =>
  Effect.flatMap(LocalPlatform, (platform) =>
    Effect.promise(() =>
      fetch(`${platform.url}${path}`, {
        method: body === undefined ? "GET" : "POST",
        headers: { "content-type": "application/json", ...(authorization === undefined ? {} : { authorization }) },
        ...(body === undefined ? {} : { body: JSON.stringify(body) })
      }).then(async (r) => ({ status: r.status, body: await r.json() as any }))
    ))

const visitorToken = Effect.flatMap(LocalPlatform, (platform) =>
  Effect.map(send("/oauth2/token", { clientId: platform.clientId, grantType: "anonymous" }), (a) => a.body.access_token as string))

describe("sitefx logs", () => {
  it.layer(LocalPlatform.layer({ seed: "demo" }), { excludeTestServices: true })((it) => {
    it.effect("prints the latest requests, a refusal with its rule; filters; --json", () =>
      Effect.gen(function*() {
        const platform = yield* LocalPlatform
        const token = yield* visitorToken
        const whoami = yield* send("/_sitefx/whoami", undefined, token)
        const refused = yield* send("/wix-data/v2/items", { dataCollectionId: "Posts", dataItem: { data: { title: "x" } } }, token)
        expect(refused.status).toBe(403)
        yield* send("/wix-data/v2/items/count", { dataCollectionId: "Posts" }, token)

        const all = yield* Effect.promise(() => cli(["logs", "--base-url", platform.url]))
        expect(all.code).toBe(0)
        const lines = all.stdout.trim().split("\n")
        expect(lines.at(-2)).toMatch(
          new RegExp(
            `^\\d\\d:\\d\\d:\\d\\d\\.\\d{3}  403 POST /wix-data/v2/items  \\d+\\.\\dms  visitor:${whoami.body.id}  data\\.permission: insert on the Posts collection requires ADMIN; the caller is a visitor$`
          )
        )
        expect(lines.at(-1)).toMatch(new RegExp(`  200 POST /wix-data/v2/items/count  \\d+\\.\\dms  visitor:${whoami.body.id}$`))
        // dev endpoints only with --dev; the log's own reads never
        expect(all.stdout).not.toContain("/_sitefx/")
        const withDev = yield* Effect.promise(() => cli(["logs", "--dev", "--base-url", platform.url]))
        expect(withDev.stdout).toContain(" GET /_sitefx/whoami ")
        expect(withDev.stdout).not.toContain("/_sitefx/requests")

        const refusals = yield* Effect.promise(() => cli(["logs", "--status", "4xx", "--caller", "visitor", "--path", "/wix-data", "--base-url", platform.url]))
        expect(refusals.stdout.trim().split("\n").every((l) => / 4\d\d POST \/wix-data\//.test(l))).toBe(true)

        const json = yield* Effect.promise(() => cli(["logs", "--json", "--limit", "2", "--base-url", platform.url]))
        const records = json.stdout.trim().split("\n").map((l) => JSON.parse(l))
        expect(records.map((r) => [r.method, r.path, r.status, r.code])).toEqual([
          ["POST", "/wix-data/v2/items", 403, "WDE0027"],
          ["POST", "/wix-data/v2/items/count", 200, undefined]
        ])
        expect(records[0].rule).toEqual(refused.body.details.rule)
        expect(records[1].seq).toBeGreaterThan(records[0].seq)
      }))

    it.effect("--advice prints only the data queries that scan a collection without an index, with their advice", () =>
      Effect.gen(function*() {
        const platform = yield* LocalPlatform
        const token = yield* visitorToken
        // more posts than the threshold below
        const added = yield* send("/wix-data/v2/bulk/items/insert", {
          dataCollectionId: "Posts",
          dataItems: Array.from({ length: 6 }, (_, i) => ({ data: { title: `Scanned ${i}` } }))
        }, Redacted.value(platform.apiKey))
        expect(added.status).toBe(200)
        const posts = yield* send("/wix-data/v2/items/count", { dataCollectionId: "Posts" }, token)
        // one item a second stands for a free plan's 5 s: any collection past 5 items is advised an index
        expect((yield* send("/_sitefx/profile", { scanRowsPerSecond: 1 })).status).toBe(200)
        const scanning = yield* send("/wix-data/v2/items/query", { dataCollectionId: "Posts", query: { filter: { title: { $startsWith: "no such" } } } }, token)
        expect(scanning.status).toBe(200)
        yield* send("/wix-data/v2/items/query", { dataCollectionId: "Posts", query: { paging: { limit: 1 } } }, token)
        expect((yield* send("/_sitefx/profile", { scanRowsPerSecond: 500_000 })).status).toBe(200)
        expect(posts.body.totalCount).toBeGreaterThan(5)

        const advised = yield* Effect.promise(() => cli(["logs", "--advice", "--base-url", platform.url]))
        expect(advised.code).toBe(0)
        const lines = advised.stdout.trim().split("\n")
        expect(lines).toHaveLength(1)
        expect(lines[0]).toMatch(new RegExp(`  200 POST /wix-data/v2/items/query  .*  index advice: Posts \\(title\\), ${posts.body.totalCount} items scanned$`))
      }))

    it.effect("--follow prints new requests as they come, only those the filters let through, until Ctrl-C", () =>
      Effect.gen(function*() {
        const platform = yield* LocalPlatform
        // the first test's count was a visitor's: nothing matches until the count below
        const follow = startCli(["logs", "--follow", "--path", "/wix-data/v2/items/count", "--caller", "none", "--base-url", platform.url])
        yield* Effect.promise(() => waitFor("the follower to start", () => follow.output().stderr.includes("Ctrl-C stops")))
        yield* send("/wix-data/v2/items/query", { dataCollectionId: "Posts" })
        yield* send("/wix-data/v2/items/count", { dataCollectionId: "Posts", filter: { title: "followed" } })
        yield* Effect.promise(() => waitFor("the followed request", () => follow.output().stdout.includes("\n")))
        follow.child.kill("SIGINT")
        const done = yield* Effect.promise(() => follow.done)
        expect(done.code).toBe(0)
        const added = done.stdout.trim().split("\n")
        expect(added).toHaveLength(1)
        expect(added[0]).toMatch(/  200 POST \/wix-data\/v2\/items\/count  \d+\.\dms  -$/)
      }))

    it.effect("a bad filter is the platform's own refusal, exit 2", () =>
      Effect.gen(function*() {
        const platform = yield* LocalPlatform
        const bad = yield* Effect.promise(() => cli(["logs", "--status", "99x", "--base-url", platform.url]))
        expect(bad.code).toBe(2)
        expect(bad.stderr).toContain("answered 400: status is 2xx, 3xx, 4xx, 5xx or one status such as 404")
      }))
  })

  it("without a platform it says so, exit 2", async () => {
    // a port nothing listens on: taken, then freed
    const port = await new Promise<number>((resolve) => {
      const server = createServer().listen(0, "127.0.0.1", () => {
        const address = server.address()
        server.close(() => resolve(typeof address === "object" && address !== null ? address.port : 0))
      })
    })
    const result = await cli(["logs", "--base-url", `http://127.0.0.1:${port}`])
    expect(result.code).toBe(2)
    expect(result.stderr).toContain(`no platform at http://127.0.0.1:${port} (nothing answers there)`)
  })
})
