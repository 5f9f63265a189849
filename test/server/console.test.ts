/**
 * The console's route: served only in dev mode, under the dev guard like every dev endpoint (a page of
 * another site, an iframe of one, a rebound Host are refused before a byte of it is read), with a CSP
 * that allows only its own scripts and forbids framing; only the page and its built assets are served.
 */
import { assert, describe, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import { readFileSync } from "node:fs"
import { request } from "node:http"
import { join } from "node:path"
import { LocalPlatform } from "../../src/server/index.ts"
import { CONSOLE_PATH, consoleDir } from "../../src/server/dev/consoleRoutes.ts"

interface Raw {
  readonly status: number
  readonly headers: Record<string, string | Array<string> | undefined>
  readonly text: string
}

/** One request exactly as given (path bytes, Host and browser headers), which `fetch` would not send. */
const raw = (path: string, headers: Record<string, string> = {}) =>
  Effect.flatMap(LocalPlatform, (platform) =>
    Effect.promise(() =>
      new Promise<Raw>((resolve, reject) => {
        const url = new URL(platform.url)
        const req = request({ host: url.hostname, port: url.port, path, method: "GET", headers }, (res) => {
          let text = ""
          res.setEncoding("utf8")
          res.on("data", (chunk: string) => (text += chunk))
          res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, text }))
        })
        req.on("error", reject)
        req.end()
      })
    ))

/** The built console's page, which the test run's global setup builds. */
const built = () => {
  const dir = consoleDir()
  if (dir === undefined) throw new Error("console/dist is missing: the test run's global setup builds it")
  return { dir, html: readFileSync(join(dir, "index.html"), "utf8") }
}

describe("the console's route", () => {
  it.layer(LocalPlatform.layer({ devOrigins: ["http://localhost:5173"] }), { excludeTestServices: true })((it) => {
    it.effect("serves the page and its assets with a CSP of its own scripts only, never framed", () =>
      Effect.gen(function*() {
        const { html } = built()
        for (const path of [CONSOLE_PATH, `${CONSOLE_PATH}/`]) {
          const page = yield* raw(path)
          assert.strictEqual(page.status, 200, path)
          assert.strictEqual(page.text, html)
          assert.strictEqual(page.headers["content-type"], "text/html; charset=utf-8")
          const csp = String(page.headers["content-security-policy"])
          assert.include(csp, "script-src 'self'")
          assert.include(csp, "frame-ancestors 'none'")
          assert.include(csp, "connect-src 'self'")
          assert.notInclude(csp, "unsafe-inline")
          assert.strictEqual(page.headers["x-frame-options"], "DENY")
          assert.strictEqual(page.headers["x-content-type-options"], "nosniff")
        }
        // every script is a file of its own: nothing inline for the CSP to allow
        const scripts = [...html.matchAll(/<script\b[^>]*>/g)].map((m) => m[0])
        assert.isAbove(scripts.length, 0)
        for (const tag of scripts) assert.match(tag, /\bsrc="\/_sitefx\/console\/assets\/[^"]+\.js"/)
        const asset = /src="(\/_sitefx\/console\/assets\/[^"]+\.js)"/.exec(html)![1]!
        const script = yield* raw(asset)
        assert.strictEqual(script.status, 200)
        assert.strictEqual(script.headers["content-type"], "text/javascript; charset=utf-8")
        assert.strictEqual(script.headers["x-frame-options"], "DENY")
      }))

    it.effect("serves nothing but the page and its assets", () =>
      Effect.gen(function*() {
        for (const path of [
          `${CONSOLE_PATH}/assets/nothing.js`,
          `${CONSOLE_PATH}/vite.config.ts`,
          `${CONSOLE_PATH}/assets/..%2F..%2F..%2Fpackage.json`,
          `${CONSOLE_PATH}/assets/../index.html`,
          `${CONSOLE_PATH}/..%2Fsrc%2Fmain.tsx`
        ]) {
          const res = yield* raw(path)
          assert.notStrictEqual(res.status, 200, path)
          assert.notInclude(res.text, "\"name\": \"sitefx\"", path)
        }
      }))

    it.effect("obeys the dev guard: another site's page, its frame and a rebound Host are refused; an allowed origin is not", () =>
      Effect.gen(function*() {
        const host = new URL((yield* LocalPlatform).url).host
        const cases: ReadonlyArray<readonly [string, Record<string, string>]> = [
          ["a page of another origin", { origin: "http://evil.example", "sec-fetch-site": "cross-site" }],
          ["a frame in another site's page", { "sec-fetch-site": "cross-site", "sec-fetch-dest": "iframe" }],
          ["a frame in a same-site page", { "sec-fetch-site": "same-site", "sec-fetch-dest": "iframe" }],
          ["a rebound host name", { host: `evil.example:${host.split(":")[1]}` }]
        ]
        for (const [what, headers] of cases) {
          for (const path of [CONSOLE_PATH, `${CONSOLE_PATH}/assets/x.js`]) {
            const res = yield* raw(path, headers)
            assert.strictEqual(res.status, 403, `${what}: ${path}`)
            assert.strictEqual(JSON.parse(res.text).details.applicationError.code, "DEV_ACCESS_DENIED")
            // a page reads its refusal (and nothing else); a frame or a rebound name is given nothing
            assert.strictEqual(res.headers["access-control-allow-origin"], headers["origin"], what)
          }
        }
        // typed into the address bar, or opened by a page the developer allowed
        assert.strictEqual((yield* raw(CONSOLE_PATH, { "sec-fetch-site": "none", "sec-fetch-dest": "document" })).status, 200)
        assert.strictEqual((yield* raw(CONSOLE_PATH, { origin: "http://localhost:5173" })).status, 200)
      }))
  })

  it.layer(LocalPlatform.layer({ dev: false }), { excludeTestServices: true })((it) => {
    it.effect("is not served when the dev endpoints are off", () =>
      Effect.gen(function*() {
        built()
        const res = yield* raw(CONSOLE_PATH)
        assert.strictEqual(res.status, 404)
        assert.notInclude(res.text, "<script")
      }))
  })
})
