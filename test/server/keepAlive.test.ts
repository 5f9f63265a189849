/**
 * A connection a client keeps alive survives the platform being busy. node:sqlite is synchronous, so a
 * long statement (an index built over a big collection, a restore) holds the platform's only thread for
 * seconds; a request sent meanwhile on an idle kept-alive connection must be answered when the statement
 * ends, not meet a reset because the connection's idle timer ran out during the wait (Node's default of
 * 5 s did exactly that to the benchmark's index case). Here the busy thread is this test's own: platform
 * and client share one process, so a synchronous wait blocks both, as a long statement blocks the platform.
 */
import { assert, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import { stat } from "node:fs"
import * as http from "node:http"
import { LocalPlatform } from "../../src/server/index.ts"

const BUSY_MS = 7_000

/** GET `path` on `agent`'s connection; the answer's status, or the failure's code. */
const request = (agent: http.Agent, url: URL, path: string): Promise<number | string> =>
  new Promise((resolve) => {
    const req = http.request({ host: url.hostname, port: url.port, path, agent }, (res) => {
      res.resume()
      res.on("end", () => resolve(res.statusCode ?? 0))
    })
    req.on("error", (error: NodeJS.ErrnoException) => resolve(error.code ?? error.message))
    req.end()
  })

it.layer(LocalPlatform.layer({}), { excludeTestServices: true })("a kept-alive connection and a busy platform", (it) => {
  it.effect("a request sent on an idle connection while the platform is busy for 7 s is answered", () =>
    Effect.gen(function*() {
      const platform = yield* LocalPlatform
      const url = new URL(platform.url)
      const agent = new http.Agent({ keepAlive: true, maxSockets: 1 })
      const first = yield* Effect.promise(() => request(agent, url, "/_sitefx/health"))
      assert.strictEqual(first, 200)
      // idle a moment, as a client polling the platform is
      yield* Effect.sleep("500 millis")
      // from an I/O callback, as a request's handler runs a statement: the request goes out, then the
      // thread is held; when it is free, the connection's timers run before its pending request is read
      const second = yield* Effect.promise(() =>
        new Promise<number | string>((resolve) =>
          stat(".", () => {
            request(agent, url, "/_sitefx/health").then(resolve)
            setImmediate(() => {
              const until = Date.now() + BUSY_MS
              while (Date.now() < until) {
                // the platform's thread, held as a long synchronous statement holds it
              }
            })
          })
        )
      )
      agent.destroy()
      assert.strictEqual(second, 200)
    }), 30_000)
})
