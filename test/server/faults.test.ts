/**
 * The local platform's injected faults over real HTTP, each request on a connection of its own: status
 * answers, delays, connections reset before and after the route, answers cut short or sent slowly,
 * method filters, counted and seeded-rate faults, their ids and hits, refusals of bad faults, and the
 * guard that keeps them to dev mode.
 */
import { assert, describe, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as Redacted from "effect/Redacted"
import { request } from "node:http"
import { LocalPlatform } from "../../src/server/index.ts"
import { call, dev } from "./support.ts"
import { count, data, freshCollection, ok } from "./data/support.ts"

interface Raw {
  /** 0 when no answer's head arrived. */
  readonly status: number
  readonly headers: Record<string, string | Array<string> | undefined>
  readonly body: Buffer
  /** The error the client met: a reset, a hang up, an answer cut short. */
  readonly error: string | undefined
  readonly ms: number
}

/** One request on a new connection, reporting what arrived before any error rather than failing. */
const raw = (method: string, path: string, body?: unknown, headers: Record<string, string> = {}) =>
  Effect.flatMap(LocalPlatform, (platform) =>
    Effect.promise(() =>
      new Promise<Raw>((resolve) => {
        const url = new URL(platform.url)
        const started = performance.now()
        const text = body === undefined ? undefined : JSON.stringify(body)
        let status = 0
        let head: Raw["headers"] = {}
        const chunks: Array<Buffer> = []
        let done = false
        const finish = (error: string | undefined) => {
          if (done) return
          done = true
          resolve({ status, headers: head, body: Buffer.concat(chunks), error, ms: performance.now() - started })
        }
        const req = request(
          {
            host: url.hostname,
            port: url.port,
            path,
            method,
            agent: false,
            headers: {
              authorization: Redacted.value(platform.apiKey),
              ...(text === undefined ? {} : { "content-type": "application/json" }),
              ...headers
            }
          },
          (res) => {
            status = res.statusCode ?? 0
            head = res.headers
            res.on("data", (chunk: Buffer) => chunks.push(chunk))
            res.on("end", () => finish(res.complete ? undefined : "incomplete"))
            res.on("error", (e) => finish((e as NodeJS.ErrnoException).code ?? e.message))
            res.on("aborted", () => finish("aborted"))
          }
        )
        req.on("error", (e) => finish((e as NodeJS.ErrnoException).code ?? e.message))
        req.end(text)
      })
    ))

const addFault = (fault: Record<string, unknown>) => Effect.map(dev("POST", "/faults", fault), (r) => r.fault)
const clearFaults = dev("DELETE", "/faults")
const query = (c: string) => raw("POST", "/wix-data/v2/items/query", { dataCollectionId: c })
const insert = (c: string, id: string) => raw("POST", "/wix-data/v2/items", { dataCollectionId: c, dataItem: { id, data: { title: id } } })

it.layer(LocalPlatform.layer({}), { excludeTestServices: true })("injected faults", (it) => {
  it.effect("a status fault answers each status (Retry-After when given) without running the route", () =>
    Effect.gen(function*() {
      yield* clearFaults
      const c = yield* freshCollection()
      for (const status of [429, 500, 502, 503, 504]) {
        yield* addFault({ path: "/wix-data/v2/items", status, count: 1, ...(status === 503 ? { retryAfter: 4 } : {}) })
        const answer = yield* insert(c, `s${status}`)
        assert.strictEqual(answer.status, status)
        assert.isUndefined(answer.error)
        assert.strictEqual(answer.headers["retry-after"], status === 503 ? "4" : undefined)
        const rule = JSON.parse(answer.body.toString()).details.rule
        assert.deepInclude(rule, { kind: "fault", id: "dev.fault", status, fault: "status", path: "/wix-data/v2/items" })
      }
      assert.strictEqual(yield* count(c), 0)
      assert.strictEqual((yield* insert(c, "after")).status, 200)
    }))

  it.effect("a latency fault delays the request by ms, which then goes ahead", () =>
    Effect.gen(function*() {
      yield* clearFaults
      const c = yield* freshCollection()
      const quick = yield* query(c)
      yield* addFault({ path: "/wix-data", kind: "latency", ms: 400, count: 1 })
      const slow = yield* insert(c, "late")
      assert.strictEqual(slow.status, 200)
      assert.isAtLeast(slow.ms, 390)
      assert.isBelow(quick.ms, 390)
      assert.strictEqual(yield* count(c), 1)
    }))

  it.effect("a reset before the route: the client meets a reset and nothing changes; the next request is answered", () =>
    Effect.gen(function*() {
      yield* clearFaults
      const c = yield* freshCollection()
      yield* addFault({ path: "/wix-data/v2/items", method: "POST", kind: "reset", count: 1 })
      const answer = yield* insert(c, "never")
      assert.strictEqual(answer.status, 0)
      assert.isDefined(answer.error)
      assert.strictEqual(yield* count(c), 0)
      assert.strictEqual((yield* insert(c, "next")).status, 200)
      assert.strictEqual(yield* count(c), 1)
    }))

  it.effect("a reset after the route: the write is there although the client met a reset", () =>
    Effect.gen(function*() {
      yield* clearFaults
      const c = yield* freshCollection()
      yield* addFault({ path: "/wix-data/v2/items", kind: "reset", when: "after", count: 1 })
      const answer = yield* insert(c, "written")
      assert.strictEqual(answer.status, 0)
      assert.isDefined(answer.error)
      const item = yield* ok("GET", `/items/written?dataCollectionId=${c}`)
      assert.strictEqual(item.dataItem.data.title, "written")
    }))

  it.effect("a truncate fault sends the status, headers and full Content-Length but about half the body", () =>
    Effect.gen(function*() {
      yield* clearFaults
      const c = yield* freshCollection()
      for (let i = 0; i < 5; i++) yield* insert(c, `t${i}`)
      const whole = yield* query(c)
      yield* addFault({ path: "/wix-data/v2/items/query", kind: "truncate", count: 1 })
      const cut = yield* query(c)
      assert.strictEqual(cut.status, 200)
      assert.isDefined(cut.error)
      const length = Number(cut.headers["content-length"])
      assert.strictEqual(length, whole.body.length)
      assert.strictEqual(cut.body.length, Math.floor(length / 2))
      assert.deepStrictEqual(cut.body, whole.body.subarray(0, cut.body.length))
      assert.strictEqual((yield* query(c)).body.length, length)
    }))

  it.effect("a slow fault sends the whole body over ms, its headers first", () =>
    Effect.gen(function*() {
      yield* clearFaults
      const c = yield* freshCollection()
      for (let i = 0; i < 3; i++) yield* insert(c, `s${i}`)
      const whole = yield* query(c)
      yield* addFault({ path: "/wix-data/v2/items/query", kind: "slow", ms: 600, count: 1 })
      const slow = yield* query(c)
      assert.strictEqual(slow.status, 200)
      assert.isUndefined(slow.error)
      assert.deepStrictEqual(slow.body, whole.body)
      assert.isAtLeast(slow.ms, 570)
      assert.isBelow(slow.ms, 3000)
    }))

  it.effect("the method filter: only requests of that method are faulted", () =>
    Effect.gen(function*() {
      yield* clearFaults
      const c = yield* freshCollection()
      yield* insert(c, "m")
      yield* addFault({ path: "/wix-data/v2/items", method: "get", status: 503, count: 1 })
      assert.strictEqual((yield* query(c)).status, 200)
      assert.strictEqual((yield* raw("GET", `/wix-data/v2/items/m?dataCollectionId=${c}`)).status, 503)
      assert.strictEqual((yield* raw("GET", `/wix-data/v2/items/m?dataCollectionId=${c}`)).status, 200)
    }))

  it.effect("a rate with a seed faults the same requests every run; with a count, at most that many", () =>
    Effect.gen(function*() {
      const c = yield* freshCollection()
      const run = (fault: Record<string, unknown>) =>
        Effect.gen(function*() {
          yield* clearFaults
          yield* addFault({ path: "/wix-data/v2/items/query", status: 503, ...fault })
          const faulted: Array<number> = []
          for (let i = 0; i < 24; i++) if ((yield* query(c)).status === 503) faulted.push(i)
          return faulted
        })
      const first = yield* run({ rate: 0.5, seed: 7 })
      assert.deepStrictEqual(yield* run({ rate: 0.5, seed: 7 }), first)
      assert.isAbove(first.length, 3)
      assert.isBelow(first.length, 21)
      assert.notDeepEqual(yield* run({ rate: 0.5, seed: 8 }), first)
      // without a seed: seed 1
      assert.deepStrictEqual(yield* run({ rate: 0.5 }), yield* run({ rate: 0.5, seed: 1 }))
      assert.deepStrictEqual(yield* run({ rate: 1, count: 3 }), [0, 1, 2])
      assert.deepStrictEqual((yield* dev("GET", "/faults")).faults, [])
      yield* clearFaults
    }))

  it.effect("faults are listed with ids and hits, checked in order, removed by id; an unknown id is a 404", () =>
    Effect.gen(function*() {
      yield* clearFaults
      const c = yield* freshCollection()
      const first = yield* addFault({ path: "/wix-data/v2/items/query", status: 502, count: 2 })
      const second = yield* addFault({ path: "/wix-data", kind: "latency", ms: 1, rate: 1 })
      assert.deepStrictEqual(first, { id: first.id, path: "/wix-data/v2/items/query", status: 502, count: 2, hits: 0 })
      assert.notStrictEqual(first.id, second.id)
      assert.strictEqual((yield* query(c)).status, 502)
      assert.strictEqual((yield* query(c)).status, 502)
      assert.strictEqual((yield* query(c)).status, 200)
      assert.deepStrictEqual((yield* dev("GET", "/faults")).faults, [
        { id: second.id, path: "/wix-data", kind: "latency", ms: 1, rate: 1, hits: 1 }
      ])
      yield* addFault({ path: "/wix-data", status: 503, count: 1 })
      assert.strictEqual((yield* query(c)).status, 200) // the latency fault fires first
      assert.strictEqual((yield* dev("DELETE", `/faults/${second.id}`)).ok, undefined)
      assert.strictEqual((yield* query(c)).status, 503)
      const unknown = yield* call("DELETE", `/_sitefx/faults/${second.id}`)
      assert.strictEqual(unknown.status, 404)
      assert.strictEqual(unknown.body.details.applicationError.code, "FAULT_NOT_FOUND")
      assert.deepInclude(unknown.body.details.rule, { kind: "not-found" })
    }))

  it.effect("the request log names each faulted request's fault, a reset with status 0", () =>
    Effect.gen(function*() {
      yield* clearFaults
      const c = yield* freshCollection()
      const fault = yield* addFault({ path: "/wix-data/v2/items", kind: "reset", count: 1 })
      yield* insert(c, "logged")
      yield* addFault({ path: "/wix-data/v2/items/query", kind: "slow", ms: 10, count: 1 })
      yield* query(c)
      const log = (yield* dev("GET", "/requests?path=/wix-data/v2/items&limit=2")).requests
      assert.strictEqual(log.length, 2)
      assert.strictEqual(log[0].status, 0)
      assert.deepInclude(log[0].rule, { kind: "fault", id: "dev.fault", fault: "reset", faultId: fault.id, status: 0 })
      assert.strictEqual(log[1].status, 200)
      assert.deepInclude(log[1].rule, { kind: "fault", fault: "slow", status: 200 })
    }))

  it.effect("bad faults are 400s in the platform's validation shape, with a clear message", () =>
    Effect.gen(function*() {
      yield* clearFaults
      const bad: Array<[Record<string, unknown>, string]> = [
        [{ path: "/x", kind: "reset", status: 503, count: 1 }, "status is for a status fault, not a reset fault"],
        [{ path: "/x", count: 1 }, "A status fault needs a status: 429, 500, 502, 503 or 504"],
        [{ path: "/x", status: 503, rate: 0 }, "rate is a probability above 0 and at most 1"],
        [{ path: "/x", status: 503, rate: 1.5 }, "rate is a probability above 0 and at most 1"],
        [{ path: "/x", status: 503 }, "A fault needs a count, a rate, or both"],
        [{ path: "/x", status: 503, count: 1, seed: 3 }, "seed is for a fault with a rate"],
        [{ path: "/x", kind: "latency", count: 1 }, "A latency fault needs ms"],
        [{ path: "/x", kind: "truncate", ms: 5, count: 1 }, "ms is for a latency or slow fault, not a truncate fault"],
        [{ path: "/x", kind: "latency", ms: 5, when: "after", count: 1 }, "when is for a reset fault, not a latency fault"],
        [{ path: "/x", kind: "slow", ms: 5, retryAfter: 1, count: 1 }, "retryAfter is for a status fault, not a slow fault"],
        [{ path: "/x", status: 503, count: 0 }, "count is a whole number from 1"],
        [{ path: "/x", status: 503, count: 1, method: "G E T" }, "method is an HTTP method such as GET"],
        [{ path: "x", status: 503, count: 1 }, "path is the start of a path: /wix-data"],
        [{ path: "/x", kind: "latency", ms: 10_000_000, count: 1 }, "ms is a whole number from 0 to 300000"]
      ]
      for (const [fault, message] of bad) {
        const answer = yield* call("POST", "/_sitefx/faults", { body: fault })
        assert.strictEqual(answer.status, 400, JSON.stringify(fault))
        assert.include(answer.body.message, message)
        assert.isArray(answer.body.details.validationError.fieldViolations)
      }
      assert.deepStrictEqual((yield* dev("GET", "/faults")).faults, [])
    }))

  it.effect("connections destroyed by faults leave nothing open behind them, and the platform goes on answering", () =>
    Effect.gen(function*() {
      yield* clearFaults
      const c = yield* freshCollection()
      yield* insert(c, "one")
      const sockets = () => process.getActiveResourcesInfo().filter((r) => r.startsWith("TCP")).length
      yield* query(c)
      const before = sockets()
      for (const fault of [{ kind: "reset" }, { kind: "reset", when: "after" }, { kind: "truncate" }, { kind: "slow", ms: 40 }]) {
        yield* addFault({ path: "/wix-data/v2/items/query", count: 15, ...fault })
        const answers = yield* Effect.all(Array.from({ length: 15 }, () => query(c)), { concurrency: 5 })
        assert.strictEqual(answers.filter((a) => a.error !== undefined).length, fault.kind === "slow" ? 0 : 15)
      }
      yield* Effect.sleep("100 millis")
      assert.isAtMost(sockets(), before)
      assert.strictEqual((yield* query(c)).status, 200)
      const logged = (yield* dev("GET", "/requests?path=/wix-data/v2/items/query&limit=61")).requests
      assert.strictEqual(logged.filter((r: any) => r.rule?.kind === "fault").length, 60)
    }))

  it.effect("dev endpoints are never faulted, and the platform answers normally once faults are cleared", () =>
    Effect.gen(function*() {
      yield* clearFaults
      yield* addFault({ path: "/", kind: "reset", rate: 1 })
      const health = yield* raw("GET", "/_sitefx/health")
      assert.strictEqual(health.status, 200)
      assert.strictEqual((yield* raw("GET", "/")).status, 0)
      yield* clearFaults
      assert.strictEqual((yield* raw("GET", "/")).status, 200)
      yield* addFault({ path: "/", status: 503, count: 5 })
      yield* dev("POST", "/reset")
      assert.deepStrictEqual((yield* dev("GET", "/faults")).faults, [])
    }))

  it.effect("a page of another origin cannot add faults: the dev guard refuses it", () =>
    Effect.gen(function*() {
      const refused = yield* raw("POST", "/_sitefx/faults", { path: "/", kind: "reset", rate: 1 }, {
        origin: "http://evil.example",
        "sec-fetch-site": "cross-site"
      })
      assert.strictEqual(refused.status, 403)
      assert.strictEqual(JSON.parse(refused.body.toString()).details.applicationError.code, "DEV_ACCESS_DENIED")
      assert.deepStrictEqual((yield* dev("GET", "/faults")).faults, [])
    }))
})

describe("outside dev mode", () => {
  it.effect("there are no fault endpoints", () =>
    Effect.gen(function*() {
      const added = yield* call("POST", "/_sitefx/faults", { body: { path: "/", kind: "reset", rate: 1 } })
      assert.strictEqual(added.status, 404)
      assert.strictEqual((yield* call("DELETE", "/_sitefx/faults/1")).status, 404)
      assert.strictEqual((yield* call("GET", "/")).status, 200)
    }).pipe(Effect.provide(LocalPlatform.layer({ dev: false }))))
})
