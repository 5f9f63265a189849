/**
 * Sites take any HTTP client: Node's own (with a keep-alive agent, cheaper for batch jobs than `fetch`)
 * carries every request of an API-key job and of a visitor session, with the platform's errors decoded
 * as they are over `fetch`, and its connections are reused.
 */
import * as NodeHttpClient from "@effect/platform-node/NodeHttpClient"
import { assert, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import * as Stream from "effect/Stream"
import * as HttpClient from "effect/http/HttpClient"
import * as http from "node:http"
import * as https from "node:https"
import * as DataItems from "../../src/data/DataItems.ts"
import { Site } from "../../src/Site.ts"
import { viaHttpClient } from "../../src/http/viaHttpClient.ts"
import { LocalPlatform } from "../support/platform.ts"
import { freshCollection, retryFast } from "./support.ts"

/**
 * Node's HTTP client with a keep-alive agent (as the README sets it up for batch jobs), counting the
 * requests that go through it and the connections its agent opens.
 */
const countingNodeClient = () => {
  const sent: Array<string> = []
  const agent = new http.Agent({ keepAlive: true })
  let connections = 0
  const connect = agent.createConnection.bind(agent)
  agent.createConnection = (...args: Parameters<typeof connect>) => {
    connections++
    return connect(...args)
  }
  const agents = Layer.effect(
    NodeHttpClient.HttpAgent,
    Effect.acquireRelease(Effect.sync(() => ({ http: agent, https: new https.Agent() })), (agents) =>
      Effect.sync(() => {
        agents.http.destroy()
        agents.https.destroy()
      }))
  )
  const layer = Layer.effect(
    HttpClient.HttpClient,
    Effect.map(HttpClient.HttpClient, (client) => HttpClient.tapRequest(client, (request) => Effect.sync(() => sent.push(`${request.method} ${new URL(request.url).pathname}`))))
  ).pipe(Layer.provide(NodeHttpClient.layerNodeHttpNoAgent), Layer.provide(agents))
  return { layer, sent, connections: () => connections }
}

it.layer(LocalPlatform.layer({}), { excludeTestServices: true })("a site over Node's HTTP client", (it) => {
  it.effect("an API-key batch job: a streamed bulk insert, a streamed export and a missing item, every request through the given client", () =>
    Effect.gen(function*() {
      const platform = yield* LocalPlatform
      const collection = yield* freshCollection("NodeHttp")
      const { layer, sent, connections } = countingNodeClient()
      const site = Site.apiKey({ baseUrl: platform.url, apiKey: platform.apiKey, siteId: platform.siteId, retry: retryFast, transport: viaHttpClient(layer) })
      const { report, exported, missing } = yield* Effect.gen(function*() {
        const report = yield* DataItems.bulkInsert(collection, Stream.range(1, 2500).pipe(Stream.map((n) => ({ n, at: new Date(Date.UTC(2026, 0, 1) + n) }))), { chunkSize: 1000 })
        const exported = yield* DataItems.query(collection).ascending("n").limit(1000).stream.pipe(Stream.runCollect)
        const missing = yield* DataItems.get(collection, "no-such-item")
        return { report, exported, missing }
      }).pipe(Effect.provide(Layer.fresh(site), { local: true }))
      assert.strictEqual(report.inserted, 2500)
      assert.deepStrictEqual(report.errors, [])
      assert.deepStrictEqual(exported.map((i) => i["n"]), Array.from({ length: 2500 }, (_, i) => i + 1))
      // dates went out as `$date` and came back as Dates
      assert.instanceOf(exported[0]!["at"], Date)
      assert.strictEqual((exported[0]!["at"] as Date).getTime(), Date.UTC(2026, 0, 1) + 1)
      assert.isTrue(Option.isNone(missing))
      assert.strictEqual(sent.filter((s) => s === "POST /wix-data/v2/bulk/items/insert").length, 3)
      // three pages of 1000 (the last one short) and the get
      assert.strictEqual(sent.filter((s) => s.endsWith("/wix-data/v2/items/query")).length, 3)
      assert.isTrue(sent.some((s) => s.startsWith("GET /wix-data/v2/items/no-such-item")))
      // every answer is read to its end, so connections go back to the agent and carry the next requests
      assert.isAtLeast(connections(), 1)
      assert.isAtMost(connections(), 4, `${sent.length} requests over ${connections()} connections`)
    }))

  it.effect("a visitor session: the token request and the data calls go through the given client", () =>
    Effect.gen(function*() {
      const platform = yield* LocalPlatform
      const collection = yield* freshCollection("NodeHttpVisitor")
      const { layer, sent } = countingNodeClient()
      const site = Site.layer({ baseUrl: platform.url, clientId: platform.clientId, retry: retryFast, transport: viaHttpClient(layer) })
      const inserted = yield* Effect.gen(function*() {
        const item = yield* DataItems.insert(collection, { title: "from node:http" })
        return yield* DataItems.get(collection, item._id)
      }).pipe(Effect.provide(Layer.fresh(site), { local: true }))
      assert.strictEqual(Option.getOrThrow(inserted)["title"], "from node:http")
      assert.isTrue(sent.includes("POST /oauth2/token"))
      assert.isTrue(sent.includes("POST /wix-data/v2/items"))
    }))
})
