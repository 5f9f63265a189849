/**
 * PlatformConfig: defaults, the one-base-URL shortcut, and configuration from the environment where
 * options given in code win.
 */
import { assert, describe, it } from "@effect/vitest"
import * as ConfigProvider from "effect/ConfigProvider"
import * as Effect from "effect/Effect"
import * as Exit from "effect/Exit"
import * as Option from "effect/Option"
import {
  DEFAULT_API_URL,
  DEFAULT_EDGE_URL,
  defaultRetryPolicy,
  makeConfig,
  PlatformConfig,
  type PlatformConfigOptions
} from "../../src/http/PlatformConfig.ts"

const fromEnv = (env: Record<string, string>, options?: PlatformConfigOptions) =>
  Effect.gen(function*() {
    return yield* PlatformConfig
  }).pipe(
    Effect.provide(PlatformConfig.layerConfig(options), { local: true }),
    Effect.provide(ConfigProvider.layer(ConfigProvider.fromEnvRecord(env)))
  )

describe("makeConfig", () => {
  it("defaults to the real hosts, the CDN on, no client id and the default retry policy", () => {
    const config = makeConfig()
    assert.strictEqual(config.apiUrl, "https://www.wixapis.com")
    assert.strictEqual(config.edgeUrl, "https://edge.wixapis.com")
    assert.strictEqual(DEFAULT_API_URL, "https://www.wixapis.com")
    assert.strictEqual(DEFAULT_EDGE_URL, "https://edge.wixapis.com")
    assert.isTrue(config.cdn)
    assert.isTrue(Option.isNone(config.clientId))
    assert.deepStrictEqual(config.retry, { times: 3, base: "100 millis", cap: "5 seconds" })
    assert.deepStrictEqual(config.retry, defaultRetryPolicy)
  })

  it("baseUrl sets both hosts, trailing slashes trimmed", () => {
    const config = makeConfig({ baseUrl: "http://127.0.0.1:8787//" })
    assert.strictEqual(config.apiUrl, "http://127.0.0.1:8787")
    assert.strictEqual(config.edgeUrl, "http://127.0.0.1:8787")
  })

  it("apiUrl and edgeUrl override baseUrl for their own host", () => {
    const config = makeConfig({ baseUrl: "http://local", edgeUrl: "http://edge.local/" })
    assert.strictEqual(config.apiUrl, "http://local")
    assert.strictEqual(config.edgeUrl, "http://edge.local")
  })

  it("a partial retry policy keeps the other defaults; cdn false and a client id are kept", () => {
    const config = makeConfig({ retry: { times: 0 }, cdn: false, clientId: "app-1" })
    assert.deepStrictEqual(config.retry, { times: 0, base: "100 millis", cap: "5 seconds" })
    assert.isFalse(config.cdn)
    assert.deepStrictEqual(config.clientId, Option.some("app-1"))
  })

  it("does not share the default retry object", () => {
    assert.notStrictEqual(makeConfig().retry, defaultRetryPolicy)
  })
})

describe("PlatformConfig.layerConfig", () => {
  it.effect("reads SITEFX_BASE_URL, SITEFX_CLIENT_ID, SITEFX_CDN and SITEFX_RETRY_TIMES", () =>
    Effect.gen(function*() {
      const config = yield* fromEnv({
        SITEFX_BASE_URL: "http://127.0.0.1:8787/",
        SITEFX_CLIENT_ID: "client-from-env",
        SITEFX_CDN: "false",
        SITEFX_RETRY_TIMES: "7"
      })
      assert.strictEqual(config.apiUrl, "http://127.0.0.1:8787")
      assert.strictEqual(config.edgeUrl, "http://127.0.0.1:8787")
      assert.deepStrictEqual(config.clientId, Option.some("client-from-env"))
      assert.isFalse(config.cdn)
      assert.deepStrictEqual(config.retry, { ...defaultRetryPolicy, times: 7 })
    }))

  it.effect("reads SITEFX_API_URL and SITEFX_EDGE_URL", () =>
    Effect.gen(function*() {
      const config = yield* fromEnv({ SITEFX_API_URL: "http://api.local", SITEFX_EDGE_URL: "http://edge.local" })
      assert.strictEqual(config.apiUrl, "http://api.local")
      assert.strictEqual(config.edgeUrl, "http://edge.local")
    }))

  it.effect("trace headers are off unless code or SITEFX_TRACE_PROPAGATION turns them on", () =>
    Effect.gen(function*() {
      assert.isFalse(makeConfig().tracePropagation)
      assert.isTrue((yield* fromEnv({ SITEFX_TRACE_PROPAGATION: "true" })).tracePropagation)
      assert.isFalse((yield* fromEnv({ SITEFX_TRACE_PROPAGATION: "true" }, { tracePropagation: false })).tracePropagation)
    }))

  it.effect("an empty environment gives the defaults", () =>
    Effect.gen(function*() {
      assert.deepStrictEqual(yield* fromEnv({}), makeConfig())
    }))

  it.effect("code options win over the environment", () =>
    Effect.gen(function*() {
      const config = yield* fromEnv(
        { SITEFX_BASE_URL: "http://env", SITEFX_CLIENT_ID: "env-client", SITEFX_CDN: "false", SITEFX_RETRY_TIMES: "7" },
        { baseUrl: "http://code", clientId: "code-client", cdn: true, retry: { times: 1 } }
      )
      assert.strictEqual(config.apiUrl, "http://code")
      assert.strictEqual(config.edgeUrl, "http://code")
      assert.deepStrictEqual(config.clientId, Option.some("code-client"))
      assert.isTrue(config.cdn)
      assert.strictEqual(config.retry.times, 1)
    }))

  it.effect("a baseUrl in code beats per-host URLs from the environment", () =>
    Effect.gen(function*() {
      const config = yield* fromEnv({ SITEFX_API_URL: "https://www.wixapis.com", SITEFX_EDGE_URL: "https://edge.wixapis.com" }, {
        baseUrl: "http://127.0.0.1:8787"
      })
      assert.strictEqual(config.apiUrl, "http://127.0.0.1:8787")
      assert.strictEqual(config.edgeUrl, "http://127.0.0.1:8787")
    }))

  it.effect("a per-host URL in code overrides only its host; the other comes from SITEFX_BASE_URL", () =>
    Effect.gen(function*() {
      const config = yield* fromEnv({ SITEFX_BASE_URL: "http://env" }, { edgeUrl: "http://edge.code" })
      assert.strictEqual(config.apiUrl, "http://env")
      assert.strictEqual(config.edgeUrl, "http://edge.code")
    }))

  it.effect("reads SITEFX_TIMEOUT as milliseconds or as a duration, refuses anything else, and defaults to 30 seconds", () =>
    Effect.gen(function*() {
      assert.strictEqual((yield* fromEnv({ SITEFX_TIMEOUT: "2500" })).timeout, 2500)
      assert.strictEqual((yield* fromEnv({ SITEFX_TIMEOUT: "10 seconds" })).timeout, 10_000)
      assert.strictEqual((yield* fromEnv({})).timeout, 30_000)
      assert.strictEqual((yield* fromEnv({ SITEFX_TIMEOUT: "2500" }, { timeout: "1 second" })).timeout, "1 second")
      for (const bad of ["soon", "0", "-5"]) {
        const error = yield* Effect.flip(fromEnv({ SITEFX_TIMEOUT: bad }))
        assert.match(error.message, /^SITEFX_TIMEOUT must be milliseconds or a duration/)
      }
    }))

  it.effect("a partial retry policy in code keeps SITEFX_RETRY_TIMES from the environment", () =>
    Effect.gen(function*() {
      const config = yield* fromEnv({ SITEFX_RETRY_TIMES: "5" }, { retry: { base: "1 millis" } })
      assert.deepStrictEqual(config.retry, { times: 5, base: "1 millis", cap: "5 seconds" })
    }))

  it.effect("undefined code options do not hide the environment", () =>
    Effect.gen(function*() {
      const config = yield* fromEnv({ SITEFX_CLIENT_ID: "env-client" }, { clientId: undefined, baseUrl: undefined })
      assert.deepStrictEqual(config.clientId, Option.some("env-client"))
    }))

  it.effect("an invalid SITEFX_RETRY_TIMES or SITEFX_CDN fails the layer with a PlatformConfigError naming the variable", () =>
    Effect.gen(function*() {
      for (const [env, message] of [
        [{ SITEFX_RETRY_TIMES: "many" }, 'SITEFX_RETRY_TIMES must be a whole number, not "many"'],
        [{ SITEFX_RETRY_TIMES: "2.5" }, 'SITEFX_RETRY_TIMES must be a whole number, not "2.5"'],
        [{ SITEFX_CDN: "maybe" }, 'SITEFX_CDN must be true or false, not "maybe"']
      ] as const) {
        const exit = yield* Effect.exit(fromEnv(env))
        assert.isTrue(Exit.isFailure(exit), JSON.stringify(env))
        const error = Exit.findErrorOption(exit)
        assert.deepStrictEqual(Option.isSome(error) ? [(error.value as { _tag: string })._tag, (error.value as Error).message] : [], ["PlatformConfigError", message])
      }
    }))

  it.effect("booleans read as the usual words, in any case", () =>
    Effect.gen(function*() {
      for (const [text, cdn] of [["TRUE", true], ["yes", true], ["1", true], ["on", true], ["False", false], ["no", false], ["0", false], ["off", false]] as const) {
        assert.strictEqual((yield* fromEnv({ SITEFX_CDN: text })).cdn, cdn, text)
      }
    }))
})
