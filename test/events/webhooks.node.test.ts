/**
 * `Webhooks.toNodeHandler` on node:http's own server: the local platform delivers a real event to it;
 * it answers what `toFetchHandler` answers, body for body; and it takes the body a framework's parser
 * left (bytes as Express's `raw()` leaves them, text as its `text()` and Fastify's parser do), reads a
 * stream a parser passed by, and refuses what a parser turned into something else.
 */
import { assert, describe, it } from "@effect/vitest"
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as ManagedRuntime from "effect/ManagedRuntime"
import * as Redacted from "effect/Redacted"
import { createServer, type IncomingMessage, request as httpRequest, type Server, type ServerResponse } from "node:http"
import type { AddressInfo } from "node:net"
import * as DataItems from "../../src/data/DataItems.ts"
import type { EventOf } from "../../src/events/Event.ts"
import { DataEventTypes, EventPaths } from "../../src/events/protocol.ts"
import * as Webhooks from "../../src/events/Webhooks.ts"
import { asVisitor, freshCollection } from "../data/support.ts"
import { domainEvent, envelope, rsaKeys, serveFetch, signEvent } from "../support/events.ts"
import { LocalPlatform } from "../support/platform.ts"

type NodeListener = (req: IncomingMessage, res: ServerResponse) => void

/** A node:http server on a free loopback port. */
const listen = async (listener: NodeListener): Promise<{ readonly url: string; readonly server: Server; readonly close: () => Promise<void> }> => {
  const server = createServer(listener)
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    server,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      })
  }
}

const keys = rsaKeys()
const itemCreated = (id: string) =>
  signEvent(keys.privateKey, envelope(DataEventTypes.itemCreated, domainEvent("wix.data.v2.data_item", id, {
    createdEvent: { entity: { id, dataCollectionId: "Books", data: { _id: id, title: "Dune" } } }
  })))
const itemDeleted = (id: string) =>
  signEvent(keys.privateKey, envelope(DataEventTypes.itemDeleted, domainEvent("wix.data.v2.data_item", id, { deletedEvent: {} })))

const MAX = 64 * 1024

/** A processor recording the ids of created items; deletions fail. */
const recording = () => {
  const ids: Array<string> = []
  const processor = Webhooks.handler({
    publicKey: keys.publicKey,
    maxBodyBytes: MAX,
    handlers: {
      [DataEventTypes.itemCreated]: (event) => Effect.sync(() => void ids.push(event.entityId)),
      [DataEventTypes.itemDeleted]: () => Effect.fail("nope")
    }
  })
  return { ids, processor }
}

interface Answered {
  readonly status: number
  readonly contentType: string | null
  readonly allow: string | null
  readonly body: unknown
}

const answered = async (response: Response): Promise<Answered> => ({
  status: response.status,
  contentType: response.headers.get("content-type"),
  allow: response.headers.get("allow"),
  body: await response.json()
})

const post = (url: string, body: BodyInit, headers: Record<string, string> = { "content-type": "text/plain; charset=utf-8" }) =>
  fetch(url, { method: "POST", body, headers, ...(body instanceof ReadableStream ? { duplex: "half" } : {}) } as RequestInit).then(answered)

/** A body sent in chunks without a length, as a client that streams it does. */
const streamed = (size: number) => {
  let sent = 0
  return new ReadableStream<Uint8Array>({
    pull(controller) {
      if (sent >= size) return controller.close()
      const chunk = new Uint8Array(Math.min(8 * 1024, size - sent)).fill(0x61)
      sent += chunk.byteLength
      controller.enqueue(chunk)
    }
  })
}

describe("Webhooks.toNodeHandler: the local platform's delivery", () => {
  it.layer(LocalPlatform.layer({ seed: "demo" }), { excludeTestServices: true })((it) => {
    it.effect("a data item inserted on the site reaches the typed handler behind a node:http server, answered 200", () =>
      Effect.scoped(Effect.gen(function*() {
        const platform = yield* LocalPlatform
        const key = Redacted.value(platform.apiKey)
        const { publicKey } = yield* Effect.promise(() => fetch(`${platform.url}${EventPaths.publicKey}`).then((r) => r.json() as Promise<{ publicKey: string }>))
        const received: Array<EventOf<typeof DataEventTypes.itemCreated>> = []
        const statuses: Array<number> = []
        const handle = Webhooks.toNodeHandler(Webhooks.handler({
          publicKey,
          handlers: { [DataEventTypes.itemCreated]: (event) => Effect.sync(() => void received.push(event)) }
        }))
        const receiver = yield* Effect.acquireRelease(
          Effect.promise(() => listen((req, res) => void handle(req, res).then(() => statuses.push(res.statusCode)))),
          (s) => Effect.promise(() => s.close())
        )
        const registered = yield* Effect.promise(() =>
          fetch(`${platform.url}${EventPaths.webhooks}`, {
            method: "POST",
            headers: { authorization: key, "content-type": "application/json" },
            body: JSON.stringify({ url: `${receiver.url}/hooks`, eventTypes: [DataEventTypes.itemCreated] })
          })
        )
        assert.strictEqual(registered.status, 200)
        const c = yield* freshCollection("NodeHooked")
        const item = yield* asVisitor(DataItems.insert(c, { title: "by node:http" }))
        for (let i = 0; i < 200 && received.length === 0; i++) yield* Effect.sleep("25 millis")
        assert.strictEqual(received.length, 1)
        const event = received[0]!
        assert.strictEqual(event.type, DataEventTypes.itemCreated)
        assert.strictEqual(event.entityId, item._id)
        assert.strictEqual(event.identity?.identityType, "ANONYMOUS_VISITOR")
        assert.strictEqual(event.instanceId, platform.siteId)
        assert.strictEqual(event.change._tag, "Created")
        if (event.change._tag === "Created") {
          assert.strictEqual(event.change.entity.dataCollectionId, c)
          assert.strictEqual(event.change.entity.data?.["title"], "by node:http")
        }
        assert.deepStrictEqual(statuses, [200])
      })))
  })
})

describe("Webhooks.toNodeHandler over node:http", () => {
  it.live("answers what toFetchHandler answers: 200, 401, 400, 500, 413 (declared and streamed), 405 with allow, 400 for an empty body", () =>
    Effect.promise(async () => {
      const node = recording()
      const fetched = recording()
      const nodeServer = await listen(Webhooks.toNodeHandler(node.processor))
      const fetchServer = await serveFetch(Webhooks.toFetchHandler(fetched.processor))
      try {
        const forged = signEvent(rsaKeys().privateKey, envelope(DataEventTypes.itemCreated, domainEvent("wix.data.v2.data_item", "f-1", { deletedEvent: {} })))
        const cases: ReadonlyArray<readonly [string, (url: string) => Promise<Answered>]> = [
          ["valid", (url) => post(url, itemCreated("n-1"))],
          ["bad signature", (url) => post(url, forged)],
          ["not a token", (url) => post(url, "not a token")],
          ["empty", (url) => post(url, "")],
          ["handler failure", (url) => post(url, itemDeleted("n-2"))],
          ["too large, declared", (url) => post(url, "a".repeat(MAX + 1))],
          ["too large, streamed", (url) => post(url, streamed(MAX + 1024))],
          ["wrong method", (url) => fetch(url).then(answered)],
          ["wrong method, PUT", (url) => fetch(url, { method: "PUT", body: itemCreated("n-3") }).then(answered)]
        ]
        const statuses: Array<[string, number]> = []
        for (const [name, send] of cases) {
          const fromNode = await send(`${nodeServer.url}/hooks`)
          const fromFetch = await send(`${fetchServer.url}/hooks`)
          assert.deepStrictEqual(fromNode, fromFetch, name)
          statuses.push([name, fromNode.status])
        }
        assert.deepStrictEqual(statuses, [
          ["valid", 200],
          ["bad signature", 401],
          ["not a token", 400],
          ["empty", 400],
          ["handler failure", 500],
          ["too large, declared", 413],
          ["too large, streamed", 413],
          ["wrong method", 405],
          ["wrong method, PUT", 405]
        ])
        assert.deepStrictEqual(node.ids, ["n-1"])
        // the connection an oversized body came on still serves
        assert.strictEqual((await post(`${nodeServer.url}/hooks`, itemCreated("n-4"))).status, 200)
        assert.deepStrictEqual(node.ids, ["n-1", "n-4"])
      } finally {
        await nodeServer.close()
        await fetchServer.close()
      }
    }))

  it.live("with a runner: handlers that need services get them from a ManagedRuntime", () =>
    Effect.promise(async () => {
      class Inbox extends Context.Service<Inbox, { readonly ids: Array<string> }>()("test/events/NodeInbox") {}
      const ids: Array<string> = []
      const runtime = ManagedRuntime.make(Layer.succeed(Inbox, Inbox.of({ ids })))
      const processor = Webhooks.handler({
        publicKey: keys.publicKey,
        handlers: { [DataEventTypes.itemCreated]: (event) => Inbox.use((inbox) => Effect.sync(() => void inbox.ids.push(event.entityId))) }
      })
      const server = await listen(Webhooks.toNodeHandler(processor, runtime))
      try {
        assert.strictEqual((await post(server.url, itemCreated("r-1"))).status, 200)
        assert.deepStrictEqual(ids, ["r-1"])
      } finally {
        await server.close()
        await runtime.dispose()
      }
    }))

  it.live("a streamed body over the limit is answered 413 as soon as it passes the limit, not once it ends", () =>
    Effect.promise(async () => {
      const { processor } = recording()
      const server = await listen(Webhooks.toNodeHandler(processor))
      try {
        const { port } = server.server.address() as AddressInfo
        const upload = httpRequest({ host: "127.0.0.1", port, method: "POST", path: "/hooks", headers: { "content-type": "text/plain" } })
        let answer: { status: number; body: string } | undefined
        upload.on("response", (response) => {
          let body = ""
          response.on("data", (c: Buffer) => (body += c.toString("utf8")))
          response.on("end", () => (answer = { status: response.statusCode ?? 0, body }))
        })
        const chunk = Buffer.alloc(8 * 1024, 0x61)
        let sent = 0
        const CAP = 8 * 1024 * 1024
        while (answer === undefined && sent < CAP) {
          sent += chunk.byteLength
          if (!upload.write(chunk)) await new Promise((resolve) => upload.once("drain", resolve))
          else await new Promise((resolve) => setImmediate(resolve))
        }
        upload.end()
        assert.isBelow(sent, CAP, "the answer came while the body was still being sent")
        assert.deepStrictEqual(answer, { status: 413, body: JSON.stringify({ error: "TooLarge", message: `The body is larger than ${MAX} bytes` }) })
      } finally {
        await server.close()
      }
    }))

  it.live("a request cut off mid-body settles the handler without an answer to anyone and without an unhandled error", () =>
    Effect.promise(async () => {
      const { ids, processor } = recording()
      const handle = Webhooks.toNodeHandler(processor)
      let settled: () => void = () => undefined
      const done = new Promise<void>((resolve) => (settled = resolve))
      const server = await listen((req, res) => void handle(req, res).then(() => settled()))
      try {
        const { port } = server.server.address() as AddressInfo
        const cut = httpRequest({ host: "127.0.0.1", port, method: "POST", path: "/hooks", headers: { "content-length": "1000" } })
        cut.on("error", () => undefined)
        cut.write(itemCreated("cut").slice(0, 100))
        await new Promise((resolve) => setTimeout(resolve, 50))
        cut.destroy()
        await done
        assert.deepStrictEqual(ids, [])
        assert.strictEqual((await post(`${server.url}/hooks`, itemCreated("after"))).status, 200)
      } finally {
        await server.close()
      }
    }))
})

/** A node:http server that runs `parser` (what a framework's body parser does to the request) before the handler. */
const behind = (parser: (req: IncomingMessage & { body?: unknown }, body: Buffer) => void, handle: ReturnType<typeof Webhooks.toNodeHandler>) =>
  listen((req, res) => {
    const chunks: Array<Buffer> = []
    req.on("data", (c: Buffer) => chunks.push(c))
    req.on("end", () => {
      parser(req, Buffer.concat(chunks))
      void handle(req, res)
    })
  })

describe("Webhooks.toNodeHandler behind a framework's body parser", () => {
  it.live("bytes as Express's raw() leaves them and text as its text() leaves it are taken, under the same limit", () =>
    Effect.promise(async () => {
      const { ids, processor } = recording()
      const handle = Webhooks.toNodeHandler(processor)
      const raw = await behind((req, body) => void (req.body = body), handle)
      const text = await behind((req, body) => void (req.body = body.toString("utf8")), handle)
      try {
        assert.deepStrictEqual(await post(`${raw.url}/hooks`, itemCreated("raw-1")), { status: 200, contentType: "application/json", allow: null, body: { ok: true } })
        assert.strictEqual((await post(`${text.url}/hooks`, itemCreated("text-1"))).status, 200)
        assert.deepStrictEqual(ids, ["raw-1", "text-1"])
        // no length declared, so only the parsed body's own size can tell
        for (const server of [raw, text]) {
          const big = await post(`${server.url}/hooks`, streamed(MAX + 1))
          assert.deepStrictEqual(big.status, 413)
          assert.deepStrictEqual(big.body, { error: "TooLarge", message: `The body is larger than ${MAX} bytes` })
        }
        const forged = await post(`${raw.url}/hooks`, signEvent(rsaKeys().privateKey, envelope(DataEventTypes.itemCreated, domainEvent("wix.data.v2.data_item", "x", { deletedEvent: {} }))))
        assert.strictEqual(forged.status, 401)
        assert.deepStrictEqual(ids, ["raw-1", "text-1"])
      } finally {
        await raw.close()
        await text.close()
      }
    }))

  it.live("a stream a parser passed by is read (Express 4's json() leaves {} on a text/plain request); a parsed object is refused 400; a body read and dropped answers 500", () =>
    Effect.promise(async () => {
      const { ids, processor } = recording()
      const handle = Webhooks.toNodeHandler(processor)
      // a json() that does not take text/plain sets an empty object and leaves the stream unread
      const passedBy = await listen((req, res) => {
        Object.assign(req, { body: {} })
        void handle(req, res)
      })
      // a parser that took the body whatever its type and made an object of it
      const parsed = await behind((req, body) => void (req.body = { [body.toString("utf8")]: "" }), handle)
      // something that read the body and kept nothing
      const dropped = await behind(() => undefined, handle)
      try {
        assert.strictEqual((await post(`${passedBy.url}/hooks`, itemCreated("json-1"))).status, 200)
        assert.deepStrictEqual(ids, ["json-1"])
        const refused = await post(`${parsed.url}/hooks`, itemCreated("urlencoded-1"))
        assert.strictEqual(refused.status, 400)
        assert.strictEqual((refused.body as { error: string }).error, "Malformed")
        assert.match((refused.body as { message: string }).message, /parsed.*raw/)
        const gone = await post(`${dropped.url}/hooks`, itemCreated("dropped-1"))
        assert.strictEqual(gone.status, 500)
        assert.strictEqual((gone.body as { error: string }).error, "BodyUnavailable")
        // an empty body read by someone else was empty all the same
        assert.strictEqual((await post(`${dropped.url}/hooks`, "")).status, 400)
        assert.deepStrictEqual(ids, ["json-1"])
      } finally {
        await passedBy.close()
        await parsed.close()
        await dropped.close()
      }
    }))

  it.live("a request shaped as Fastify's (method, headers and the text its parser made) answered on the raw response", () =>
    Effect.promise(async () => {
      const { ids, processor } = recording()
      const handle = Webhooks.toNodeHandler(processor)
      const fastifyLike = await listen((req, res) => {
        const chunks: Array<Buffer> = []
        req.on("data", (c: Buffer) => chunks.push(c))
        req.on("end", () => {
          const request = { method: req.method ?? "GET", headers: req.headers, body: Buffer.concat(chunks).toString("utf8"), raw: req }
          void handle(request, res)
        })
      })
      try {
        assert.strictEqual((await post(`${fastifyLike.url}/hooks`, itemCreated("fastify-1"))).status, 200)
        assert.strictEqual((await post(`${fastifyLike.url}/hooks`, itemDeleted("fastify-2"))).status, 500)
        assert.strictEqual((await fetch(`${fastifyLike.url}/hooks`)).status, 405)
        assert.deepStrictEqual(ids, ["fastify-1"])
      } finally {
        await fastifyLike.close()
      }
    }))
})
