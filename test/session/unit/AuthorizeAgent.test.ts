/**
 * Authorize agents: the hidden-iframe agent with an injected window (origin and state checks, error
 * answers, the 120 s timeout on the TestClock, cleanup), callback parsing, and the HTTP agent against
 * a tiny server that redirects.
 */
import { afterAll, assert, beforeAll, describe, it } from "@effect/vitest"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Exit from "effect/Exit"
import * as Fiber from "effect/Fiber"
import * as Option from "effect/Option"
import { TestClock } from "effect/testing"
import { createServer, type Server } from "node:http"
import type { AddressInfo } from "node:net"
import { AuthorizeAgent, type FrameWindow, parseCallback } from "../../../src/session/AuthorizeAgent.ts"
import { OAuthError } from "../../../src/session/OAuthError.ts"

// ---------------------------------------------------------------------------------------------------
// A fake window

type MessageListener = (event: { readonly data: unknown; readonly origin: string }) => void

interface FakeFrame {
  style: { display: string }
  src: string
  removed: boolean
  remove(): void
}

const fakeWindow = () => {
  const listeners = new Set<MessageListener>()
  const created: Array<FakeFrame> = []
  const attached: Array<FakeFrame> = []
  const win: FrameWindow = {
    document: {
      createElement: () => {
        const frame: FakeFrame = {
          style: { display: "" },
          src: "",
          removed: false,
          remove() {
            frame.removed = true
            const i = attached.indexOf(frame)
            if (i >= 0) attached.splice(i, 1)
          }
        }
        created.push(frame)
        return frame
      },
      body: {
        appendChild: <T>(node: T): T => {
          attached.push(node as FakeFrame)
          return node
        }
      }
    },
    addEventListener: (_type, listener) => {
      listeners.add(listener)
    },
    removeEventListener: (_type, listener) => {
      listeners.delete(listener)
    }
  }
  /** Delivers a message to every listener, as `window.postMessage` from `origin` would. */
  const post = (data: unknown, origin: string) => {
    for (const l of [...listeners]) l({ data, origin })
  }
  return { win, listeners, created, attached, post }
}

const AUTHORIZE_ORIGIN = "https://site.example.com"
const FULL_URL = `${AUTHORIZE_ORIGIN}/_api/oauth2/authorize?clientId=c&state=st-1&responseMode=web_message`
const STATE = "st-1"

const iframeAgent = (win: FrameWindow, timeout?: Duration.Input) =>
  AuthorizeAgent.use((a) => Effect.succeed(a)).pipe(
    Effect.provide(AuthorizeAgent.iframe(timeout === undefined ? { window: win } : { window: win, timeout }), { local: true })
  )

/** Lets forked fibers run up to their next real wait. */
const settle = Effect.gen(function*() {
  for (let i = 0; i < 10; i++) yield* Effect.yieldNow
})

const failureOf = <A, E>(exit: Exit.Exit<A, E>): E => {
  const error = Exit.findErrorOption(exit)
  if (Option.isNone(error)) throw new Error(`expected a failure, got ${String(exit)}`)
  return error.value
}

describe("iframe agent", () => {
  it.effect("where there is no page (Node), fails with OAuthError NoBrowser instead of throwing", () =>
    Effect.gen(function*() {
      assert.strictEqual(typeof (globalThis as { document?: unknown }).document, "undefined")
      const agent = yield* AuthorizeAgent.pipe(Effect.provide(AuthorizeAgent.iframe()))
      const failure = yield* Effect.flip(agent.authorize("http://127.0.0.1:1/oauth2/authorize?state=s", "s"))
      assert.instanceOf(failure, OAuthError)
      assert.strictEqual(failure.reason._tag, "NoBrowser")
    }))

  it.effect("asks for web_message and sends no redirect URI", () =>
    Effect.gen(function*() {
      const agent = yield* iframeAgent(fakeWindow().win)
      assert.strictEqual(agent.responseMode, "web_message")
      assert.isUndefined(agent.redirectUri)
    }))

  it.effect("loads the URL in a hidden iframe and resolves on {code, state} from the authorize page's origin only", () =>
    Effect.gen(function*() {
      const w = fakeWindow()
      const agent = yield* iframeAgent(w.win)
      const fiber = yield* Effect.forkChild(agent.authorize(FULL_URL, STATE))
      yield* settle
      assert.strictEqual(w.attached.length, 1)
      assert.strictEqual(w.attached[0]!.src, FULL_URL)
      assert.strictEqual(w.attached[0]!.style.display, "none")
      assert.strictEqual(w.listeners.size, 1)

      // another origin (also same host over http, or another port), another state, or junk: ignored
      w.post({ code: "evil", state: STATE }, "https://evil.example")
      w.post({ code: "evil", state: STATE }, "http://site.example.com")
      w.post({ code: "evil", state: STATE }, "https://site.example.com:8443")
      w.post({ code: "other", state: "another-login" }, AUTHORIZE_ORIGIN)
      w.post("code=c&state=st-1", AUTHORIZE_ORIGIN)
      w.post(null, AUTHORIZE_ORIGIN)
      w.post({ code: 5, state: STATE }, AUTHORIZE_ORIGIN)
      yield* settle
      assert.isUndefined(fiber.pollUnsafe())

      w.post({ code: "the-code", state: STATE }, AUTHORIZE_ORIGIN)
      assert.deepStrictEqual(yield* Fiber.join(fiber), { code: "the-code", state: STATE })
      assert.strictEqual(w.listeners.size, 0)
      assert.strictEqual(w.attached.length, 0)
      assert.isTrue(w.created.every((f) => f.removed))
    }))

  it.effect("trustedOrigins widens who may answer; the state check still applies", () =>
    Effect.gen(function*() {
      const w = fakeWindow()
      const agent = yield* Effect.provide(
        AuthorizeAgent.use(Effect.succeed),
        AuthorizeAgent.iframe({ window: w.win, trustedOrigins: ["https://login.example.net"] }),
        { local: true }
      )
      const fiber = yield* Effect.forkChild(agent.authorize(FULL_URL, STATE))
      yield* settle
      w.post({ code: "evil", state: STATE }, "https://evil.example")
      w.post({ code: "other", state: "another-login" }, "https://login.example.net")
      yield* settle
      assert.isUndefined(fiber.pollUnsafe())
      w.post({ code: "from-login-host", state: STATE }, "https://login.example.net")
      assert.deepStrictEqual(yield* Fiber.join(fiber), { code: "from-login-host", state: STATE })
    }))

  it.effect("fails with AuthorizationFailed on {error, error_description, state}", () =>
    Effect.gen(function*() {
      const w = fakeWindow()
      const agent = yield* iframeAgent(w.win)
      const fiber = yield* Effect.forkChild(Effect.exit(agent.authorize(FULL_URL, STATE)))
      yield* settle
      w.post({ error: "login_required", error_description: "The user is not logged in", state: "not-ours" }, AUTHORIZE_ORIGIN)
      yield* settle
      assert.isUndefined(fiber.pollUnsafe())
      w.post({ error: "login_required", error_description: "The user is not logged in", state: STATE }, AUTHORIZE_ORIGIN)
      const error = failureOf(yield* Fiber.join(fiber))
      assert.instanceOf(error, OAuthError)
      assert.strictEqual(error.reason._tag, "AuthorizationFailed")
      assert.strictEqual(error.error, "login_required")
      assert.strictEqual(error.errorDescription, "The user is not logged in")
      assert.strictEqual(error.message, "login_required: The user is not logged in")
      assert.strictEqual(w.listeners.size, 0)
      assert.strictEqual(w.attached.length, 0)
    }))

  it.effect("an error without a description keeps the bare error", () =>
    Effect.gen(function*() {
      const w = fakeWindow()
      const agent = yield* iframeAgent(w.win)
      const fiber = yield* Effect.forkChild(Effect.exit(agent.authorize(FULL_URL, STATE)))
      yield* settle
      w.post({ error: "access_denied", state: STATE }, AUTHORIZE_ORIGIN)
      const error = failureOf(yield* Fiber.join(fiber))
      assert.strictEqual(error.message, "access_denied")
      assert.isFalse("errorDescription" in error && error.errorDescription !== undefined)
    }))

  it.effect("times out after the default 120 s with 'OAuth flow timed out' and cleans up", () =>
    Effect.gen(function*() {
      const w = fakeWindow()
      const agent = yield* iframeAgent(w.win)
      const fiber = yield* Effect.forkChild(Effect.exit(agent.authorize(FULL_URL, STATE)))
      yield* settle
      yield* TestClock.adjust("119 seconds")
      assert.isUndefined(fiber.pollUnsafe())
      assert.strictEqual(w.attached.length, 1)
      yield* TestClock.adjust("1 second")
      const error = failureOf(yield* Fiber.join(fiber))
      assert.instanceOf(error, OAuthError)
      assert.strictEqual(error.reason._tag, "TimedOut")
      assert.strictEqual(error.message, "OAuth flow timed out")
      assert.strictEqual(w.listeners.size, 0)
      assert.strictEqual(w.attached.length, 0)
      // a late answer changes nothing
      w.post({ code: "late", state: STATE }, AUTHORIZE_ORIGIN)
    }))

  it.live("honours a short timeout option", () =>
    Effect.gen(function*() {
      const w = fakeWindow()
      const agent = yield* iframeAgent(w.win, "30 millis")
      const started = Date.now()
      const error = failureOf(yield* Effect.exit(agent.authorize(FULL_URL, STATE)))
      assert.strictEqual(error.message, "OAuth flow timed out")
      assert.isBelow(Date.now() - started, 1000)
      assert.strictEqual(w.listeners.size, 0)
      assert.strictEqual(w.attached.length, 0)
    }))

  it.effect("interruption also removes the listener and the iframe", () =>
    Effect.gen(function*() {
      const w = fakeWindow()
      const agent = yield* iframeAgent(w.win)
      const fiber = yield* Effect.forkChild(agent.authorize(FULL_URL, STATE))
      yield* settle
      assert.strictEqual(w.listeners.size, 1)
      yield* Fiber.interrupt(fiber)
      assert.strictEqual(w.listeners.size, 0)
      assert.strictEqual(w.attached.length, 0)
    }))

  it.effect("two logins at once each take only their own state", () =>
    Effect.gen(function*() {
      const w = fakeWindow()
      const agent = yield* iframeAgent(w.win)
      const a = yield* Effect.forkChild(agent.authorize(FULL_URL, "state-a"))
      const b = yield* Effect.forkChild(agent.authorize(FULL_URL, "state-b"))
      yield* settle
      assert.strictEqual(w.attached.length, 2)
      w.post({ code: "code-b", state: "state-b" }, AUTHORIZE_ORIGIN)
      assert.deepStrictEqual(yield* Fiber.join(b), { code: "code-b", state: "state-b" })
      assert.isUndefined(a.pollUnsafe())
      w.post({ code: "code-a", state: "state-a" }, AUTHORIZE_ORIGIN)
      assert.deepStrictEqual(yield* Fiber.join(a), { code: "code-a", state: "state-a" })
      assert.strictEqual(w.listeners.size, 0)
      assert.strictEqual(w.attached.length, 0)
    }))
})

// ---------------------------------------------------------------------------------------------------

describe("parseCallback", () => {
  it("reads code and state from the fragment by default, ignoring the query", () => {
    assert.deepStrictEqual(parseCallback("https://app.example/cb?code=q&state=q#code=abc&state=xyz"), {
      code: "abc",
      state: "xyz",
      error: undefined,
      errorDescription: undefined
    })
  })

  it("reads the query in query mode, ignoring the fragment", () => {
    assert.deepStrictEqual(parseCallback("https://app.example/cb?code=abc&state=xyz#code=f", "query"), {
      code: "abc",
      state: "xyz",
      error: undefined,
      errorDescription: undefined
    })
  })

  it("decodes error and error_description", () => {
    const cb = parseCallback("https://app.example/cb#error=access_denied&error_description=User+said%20no%21&state=s")
    assert.deepStrictEqual(cb, { code: undefined, state: "s", error: "access_denied", errorDescription: "User said no!" })
  })

  it("gives undefined for what is missing, and an empty value as empty", () => {
    assert.deepStrictEqual(parseCallback("https://app.example/cb"), {
      code: undefined,
      state: undefined,
      error: undefined,
      errorDescription: undefined
    })
    assert.strictEqual(parseCallback("https://app.example/cb?code=&state=s", "query").code, "")
  })
})

// ---------------------------------------------------------------------------------------------------

describe("HTTP agent", () => {
  let server: Server
  let origin = ""
  const hits: Array<string> = []

  beforeAll(async () => {
    server = createServer((req, res) => {
      hits.push(req.url ?? "")
      const path = new URL(req.url ?? "/", "http://x").pathname
      switch (path) {
        case "/authorize-ok":
          res.writeHead(302, { location: `${origin}/callback?code=the-code&state=s-1` })
          break
        case "/authorize-relative":
          res.writeHead(303, { location: "/callback?code=c2&state=s-2" })
          break
        case "/authorize-error":
          res.writeHead(302, { location: `${origin}/callback?error=login_required&error_description=Not+logged+in&state=s-1` })
          break
        case "/authorize-nocode":
          res.writeHead(302, { location: `${origin}/callback?state=s-1` })
          break
        default:
          res.writeHead(200, { "content-type": "text/html" })
      }
      res.end("<html></html>")
    })
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
    origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  })

  afterAll(async () => {
    server.closeAllConnections()
    await new Promise<void>((resolve) => server.close(() => resolve()))
  })

  const httpAgent = (options: Parameters<typeof AuthorizeAgent.http>[0] = {}) =>
    AuthorizeAgent.use((a) => Effect.succeed(a)).pipe(Effect.provide(AuthorizeAgent.http(options), { local: true }))

  it.effect("asks for the query response mode with its redirect URI", () =>
    Effect.gen(function*() {
      const agent = yield* httpAgent()
      assert.strictEqual(agent.responseMode, "query")
      assert.strictEqual(agent.redirectUri, "http://127.0.0.1/sitefx/callback")
      assert.strictEqual((yield* httpAgent({ redirectUri: "http://localhost:3000/cb" })).redirectUri, "http://localhost:3000/cb")
    }))

  it.effect("auto picks the HTTP agent where there is no DOM", () =>
    Effect.gen(function*() {
      const agent = yield* AuthorizeAgent.use((a) => Effect.succeed(a)).pipe(Effect.provide(AuthorizeAgent.auto, { local: true }))
      assert.strictEqual(agent.responseMode, "query")
    }))

  it.live("reads code and state from the redirect without following it", () =>
    Effect.gen(function*() {
      hits.length = 0
      const agent = yield* httpAgent()
      assert.deepStrictEqual(yield* agent.authorize(`${origin}/authorize-ok?x=1`, "s-1"), { code: "the-code", state: "s-1" })
      assert.deepStrictEqual(hits, ["/authorize-ok?x=1"])
    }))

  it.live("resolves a relative Location against the authorize URL", () =>
    Effect.gen(function*() {
      const agent = yield* httpAgent()
      assert.deepStrictEqual(yield* agent.authorize(`${origin}/authorize-relative`, "s-2"), { code: "c2", state: "s-2" })
    }))

  it.live("a redirect with error=login_required fails with AuthorizationFailed", () =>
    Effect.gen(function*() {
      const agent = yield* httpAgent()
      const error = failureOf(yield* Effect.exit(agent.authorize(`${origin}/authorize-error`, "s-1")))
      assert.instanceOf(error, OAuthError)
      assert.strictEqual(error.reason._tag, "AuthorizationFailed")
      assert.strictEqual(error.error, "login_required")
      assert.strictEqual(error.errorDescription, "Not logged in")
    }))

  it.live("an answer without a Location fails with AuthorizationFailed (no_redirect)", () =>
    Effect.gen(function*() {
      const agent = yield* httpAgent()
      const error = failureOf(yield* Effect.exit(agent.authorize(`${origin}/authorize-page`, "s-1")))
      assert.strictEqual(error.reason._tag, "AuthorizationFailed")
      assert.strictEqual(error.error, "no_redirect")
      assert.include(error.message, "200")
    }))

  it.live("a redirect without a code fails with 'Missing code or _state'", () =>
    Effect.gen(function*() {
      const agent = yield* httpAgent()
      const error = failureOf(yield* Effect.exit(agent.authorize(`${origin}/authorize-nocode`, "s-1")))
      assert.strictEqual(error.reason._tag, "MissingCodeOrState")
      assert.strictEqual(error.message, "Missing code or _state")
    }))

  it.live("an unreachable authorize page fails with AuthorizationFailed", () =>
    Effect.gen(function*() {
      const agent = yield* httpAgent({
        fetch: () => Promise.reject(new TypeError("fetch failed"))
      })
      const error = failureOf(yield* Effect.exit(agent.authorize("http://127.0.0.1:1/authorize", "s")))
      assert.strictEqual(error.reason._tag, "AuthorizationFailed")
      assert.match(error.message, /^authorize page unreachable: TypeError: fetch failed/)
    }))

  it.live("uses the injected fetch, asking it not to follow redirects", () =>
    Effect.gen(function*() {
      const calls: Array<{ url: string; redirect: RequestRedirect | undefined }> = []
      const agent = yield* httpAgent({
        fetch: (input, init) => {
          calls.push({ url: String(input), redirect: init?.redirect })
          return Promise.resolve(new Response(null, { status: 302, headers: { location: "https://app/cb?code=k&state=z" } }))
        }
      })
      assert.deepStrictEqual(yield* agent.authorize("https://site/authorize", "z"), { code: "k", state: "z" })
      assert.deepStrictEqual(calls, [{ url: "https://site/authorize", redirect: "manual" }])
    }))
})
