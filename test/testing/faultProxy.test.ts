/**
 * FaultProxy over real sockets: it forwards byte for byte, delays, resets the same connections for the
 * same seed, cuts long-lived answers, stalls, refuses targets off this machine and bad plans, and frees
 * its port with its scope.
 */
import { assert, describe, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as Exit from "effect/Exit"
import * as Fiber from "effect/Fiber"
import * as Scope from "effect/Scope"
import { randomBytes } from "node:crypto"
import { createServer as createHttpServer, request } from "node:http"
import { createConnection, createServer, type Server } from "node:net"
import * as Stream from "effect/Stream"
import * as DataItems from "../../src/data/DataItems.ts"
import { live, type LiveEvent } from "../../src/events/Live.ts"
import { DataEventTypes, type DomainEvent } from "../../src/events/protocol.ts"
import { Site } from "../../src/Site.ts"
import { FaultProxy } from "../../src/testing/index.ts"
import { LocalPlatform } from "../../src/server/index.ts"
import { asAdmin, freshCollection } from "../data/support.ts"

/** A server on a free loopback port, closed with the scope. */
const listening = (server: Server) =>
  Effect.acquireRelease(
    Effect.callback<number>((resume) => {
      server.listen({ host: "127.0.0.1", port: 0 }, () => {
        const address = server.address()
        resume(Effect.succeed(typeof address === "object" && address !== null ? address.port : 0))
      })
    }),
    () => Effect.callback<void>((resume) => {
      server.close(() => resume(Effect.void))
    })
  )

/** An echo server: what comes in goes back out. */
const echo = listening(createServer((socket) => {
  socket.on("error", () => {})
  socket.pipe(socket)
}))

/** Sends `bytes` to a TCP port and reads until the answer is as long (or the connection ends). */
const roundTrip = (port: number, bytes: Buffer) =>
  Effect.promise(() =>
    new Promise<{ readonly answer: Buffer; readonly error: string | undefined }>((resolve) => {
      const socket = createConnection({ host: "127.0.0.1", port })
      const chunks: Array<Buffer> = []
      let got = 0
      const done = (error: string | undefined) => {
        socket.destroy()
        resolve({ answer: Buffer.concat(chunks), error })
      }
      socket.on("data", (chunk: Buffer) => {
        chunks.push(chunk)
        got += chunk.length
        if (got >= bytes.length) done(undefined)
      })
      socket.on("error", (e: NodeJS.ErrnoException) => done(e.code ?? e.message))
      socket.on("end", () => done("ended"))
      socket.end(bytes)
    }))

interface Got {
  readonly status: number
  readonly body: string
  readonly error: string | undefined
  readonly ms: number
}

/** One HTTP GET on a new connection, reporting an error or a timeout rather than failing. */
const get = (url: string, timeoutMs = 5000) =>
  Effect.promise(() =>
    new Promise<Got>((resolve) => {
      const started = performance.now()
      let body = ""
      let status = 0
      let settled = false
      const done = (error: string | undefined) => {
        if (settled) return
        settled = true
        resolve({ status, body, error, ms: performance.now() - started })
      }
      const req = request(url, { agent: false, timeout: timeoutMs }, (res) => {
        status = res.statusCode ?? 0
        res.setEncoding("utf8")
        res.on("data", (chunk: string) => (body += chunk))
        res.on("end", () => done(res.complete ? undefined : "incomplete"))
        res.on("error", (e: NodeJS.ErrnoException) => done(e.code ?? e.message))
        res.on("aborted", () => done("aborted"))
      })
      req.on("timeout", () => {
        req.destroy()
        done("timeout")
      })
      req.on("error", (e: NodeJS.ErrnoException) => done(e.code ?? e.message))
      req.end()
    }))

describe("FaultProxy", () => {
  it.live("forwards bytes both ways unchanged, and counts them", () =>
    Effect.scoped(Effect.gen(function*() {
      const port = yield* echo
      const proxy = yield* FaultProxy.start({ target: `127.0.0.1:${port}` })
      assert.strictEqual(proxy.url, `http://127.0.0.1:${proxy.port}`)
      const bytes = randomBytes(512 * 1024)
      const { answer, error } = yield* roundTrip(proxy.port, bytes)
      assert.isUndefined(error)
      assert.isTrue(answer.equals(bytes))
      assert.deepInclude(yield* proxy.stats, { connections: 1, bytesUp: bytes.length, bytesDown: bytes.length, resets: 0, cuts: 0, stalls: 0 })
    })))

  it.live("forwards the platform's answers as they are, each chunk delayed by latencyMs", () =>
    Effect.scoped(Effect.gen(function*() {
      const platform = yield* LocalPlatform
      const proxy = yield* FaultProxy.start({ target: platform.url })
      const direct = yield* get(`${platform.url}/_sitefx/health`)
      const through = yield* get(`${proxy.url}/_sitefx/health`)
      assert.strictEqual(through.status, 200)
      assert.strictEqual(through.body, direct.body)
      yield* proxy.set({ latencyMs: 150 })
      const late = yield* get(`${proxy.url}/_sitefx/health`)
      assert.strictEqual(late.body, direct.body)
      assert.isAtLeast(late.ms, 290) // the request up and the answer down
    }).pipe(Effect.provide(LocalPlatform.layer({})))))

  it.live("resetRate with a seed resets the same connections every run", () =>
    Effect.scoped(Effect.gen(function*() {
      const platform = yield* LocalPlatform
      const run = (seed: number) =>
        Effect.scoped(Effect.gen(function*() {
          const proxy = yield* FaultProxy.start({ target: platform.url, seed, plan: { resetRate: 0.4 } })
          const failed: Array<number> = []
          for (let i = 0; i < 20; i++) {
            const got = yield* get(`${proxy.url}/_sitefx/health`)
            if (got.error !== undefined) failed.push(i)
            else assert.strictEqual(got.status, 200)
          }
          assert.strictEqual((yield* proxy.stats).resets, failed.length)
          return failed
        }))
      const first = yield* run(7)
      assert.isAbove(first.length, 2)
      assert.isBelow(first.length, 18)
      assert.deepStrictEqual(yield* run(7), first)
      assert.notDeepEqual(yield* run(8), first)
    }).pipe(Effect.provide(LocalPlatform.layer({})))))

  it.live("cutEveryMs cuts a long-lived answer; cutAll cuts every open connection now", () =>
    Effect.scoped(Effect.gen(function*() {
      const endless = createHttpServer((_req, res) => {
        res.writeHead(200, { "content-type": "text/event-stream" })
        const timer = setInterval(() => res.write("data: tick\n\n"), 20)
        res.on("close", () => clearInterval(timer))
      })
      const port = yield* listening(endless)
      const proxy = yield* FaultProxy.start({ target: `http://127.0.0.1:${port}`, plan: { cutEveryMs: 300 } })
      const cut = yield* get(proxy.url)
      assert.isDefined(cut.error)
      assert.include(cut.body, "data: tick")
      assert.isAtMost(cut.ms, 1000)
      assert.isAtLeast((yield* proxy.stats).cuts, 1)

      yield* proxy.set({})
      const before = (yield* proxy.stats).cuts
      const fiber = yield* Effect.forkChild(get(proxy.url))
      yield* Effect.sleep("150 millis")
      yield* proxy.cutAll
      const now = yield* Fiber.join(fiber) // cut, not left running
      assert.isDefined(now.error)
      assert.strictEqual((yield* proxy.stats).cuts, before + 1)
    })))

  it.live("Events.live through cuts every 250 ms and a delay: every event once, in order", () =>
    Effect.scoped(Effect.gen(function*() {
      const platform = yield* LocalPlatform
      const proxy = yield* FaultProxy.start({ target: platform.url, seed: 3 })
      const admin = Site.apiKey({ baseUrl: proxy.url, apiKey: platform.apiKey, siteId: platform.siteId })
      const c = yield* freshCollection("Proxied")
      const seen: Array<LiveEvent> = []
      const fiber = yield* Effect.forkChild(
        Stream.runForEach(Stream.provide(live({ eventTypes: [DataEventTypes.itemCreated], reconnect: { baseMillis: 20 } }), admin), (e) =>
          Effect.sync(() => seen.push(e)))
      )
      // the stream has a resume point once it has seen an event; only then do the cuts begin
      for (let k = 0; k < 20 && seen.length === 0; k++) {
        yield* asAdmin(DataItems.insert(c, { _id: `warm-${k}` }))
        for (let i = 0; i < 10 && seen.length === 0; i++) yield* Effect.sleep("25 millis")
      }
      const warm = seen.length
      assert.isAbove(warm, 0)
      yield* proxy.set({ cutEveryMs: 250, latencyMs: 5 })
      for (let i = 0; i < 12; i++) {
        yield* asAdmin(DataItems.insert(c, { _id: `item-${i}`, i }))
        yield* Effect.sleep("100 millis")
      }
      for (let i = 0; i < 100 && seen.length < warm + 12; i++) yield* Effect.sleep("25 millis")
      yield* Effect.sleep("300 millis") // a duplicate would have arrived by now
      yield* Fiber.interrupt(fiber)
      const ids = seen.map((e) => (JSON.parse(e.envelope.data) as DomainEvent).entityId).filter((id) => !id.startsWith("warm-"))
      assert.deepStrictEqual(ids, Array.from({ length: 12 }, (_, i) => `item-${i}`))
      assert.isAtLeast((yield* proxy.stats).cuts, 3)
    }).pipe(Effect.provide(LocalPlatform.layer({ seed: "demo" })))), { timeout: 20_000 })

  it.live("stallRate: a connection takes the request and never answers", () =>
    Effect.scoped(Effect.gen(function*() {
      const platform = yield* LocalPlatform
      const proxy = yield* FaultProxy.start({ target: platform.url, plan: { stallRate: 1 } })
      const stalled = yield* get(`${proxy.url}/_sitefx/health`, 400)
      assert.strictEqual(stalled.error, "timeout")
      assert.strictEqual(stalled.status, 0)
      assert.deepInclude(yield* proxy.stats, { connections: 1, stalls: 1, bytesUp: 0 })
      yield* proxy.set({})
      assert.strictEqual((yield* get(`${proxy.url}/_sitefx/health`)).status, 200)
    }).pipe(Effect.provide(LocalPlatform.layer({})))))

  it.live("refuses a target off this machine and a bad plan with a typed error", () =>
    Effect.scoped(Effect.gen(function*() {
      for (const target of ["http://10.0.0.1:80", "http://example.com:8787", "192.168.1.2:22", "http://[2001:db8::1]:80"]) {
        const error = yield* Effect.flip(FaultProxy.start({ target }))
        assert.strictEqual(error._tag, "FaultProxyError")
        assert.strictEqual(error.reason, "NotLoopback", target)
      }
      assert.strictEqual((yield* Effect.flip(FaultProxy.start({ target: "not a target" }))).reason, "BadTarget")
      assert.strictEqual((yield* Effect.flip(FaultProxy.start({ target: "127.0.0.1:1", plan: { resetRate: 2 } }))).message, "resetRate is a probability from 0 to 1")
      const proxy = yield* FaultProxy.start({ target: "http://localhost:1" })
      assert.strictEqual((yield* Effect.flip(proxy.set({ latencyMs: -1 }))).reason, "BadPlan")
    })))

  it.live("closing its scope closes open connections and frees the port", () =>
    Effect.gen(function*() {
      const scope = yield* Scope.make()
      const echoPort = yield* echo.pipe(Scope.provide(scope))
      const proxyScope = yield* Scope.make()
      const proxy = yield* FaultProxy.start({ target: `127.0.0.1:${echoPort}` }).pipe(Scope.provide(proxyScope))
      const socket = createConnection({ host: "127.0.0.1", port: proxy.port })
      const closed = new Promise<void>((resolve) => socket.on("close", () => resolve()))
      socket.on("error", () => {})
      yield* Effect.promise(() => new Promise<void>((resolve) => socket.on("connect", () => resolve())))
      yield* Scope.close(proxyScope, Exit.void)
      yield* Effect.promise(() => closed)
      // the port is free again: another server listens on it
      const again = createServer()
      yield* Effect.callback<void>((resume) => {
        again.once("error", (e) => resume(Effect.die(e)))
        again.listen({ host: "127.0.0.1", port: proxy.port }, () => resume(Effect.void))
      })
      yield* Effect.callback<void>((resume) => {
        again.close(() => resume(Effect.void))
      })
      yield* Scope.close(scope, Exit.void)
    }))
})
