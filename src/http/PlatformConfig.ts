/**
 * Where the platform lives and how to talk to it. Real hosts by default; one `baseUrl` points every
 * call at the local platform (or set `SITEFX_BASE_URL`).
 */
import * as ConfigProvider from "effect/ConfigProvider"
import * as Context from "effect/Context"
import * as Data from "effect/Data"
import type * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import { DEFAULT_API_URL, DEFAULT_EDGE_URL, trimSlash } from "./hosts.ts"
import { inputMillis } from "./time.ts"
import { DEFAULT_TIMEOUT_MILLIS } from "./timeout.ts"
import type { Transport } from "./transport.ts"

export { DEFAULT_API_URL, DEFAULT_EDGE_URL }

/** How transient failures (429, 502, 503, 504, connection resets) of idempotent calls are retried. */
export interface RetryPolicy {
  /** Retries after the first attempt; 0 turns retrying off. */
  readonly times: number
  /** First backoff; doubles each time. */
  readonly base: Duration.Input
  /** No single wait is longer than this (a `Retry-After` is honoured up to it as well). */
  readonly cap: Duration.Input
}

export const defaultRetryPolicy: RetryPolicy = { times: 3, base: "100 millis", cap: "5 seconds" }

export interface PlatformConfigShape {
  /** Host of the token endpoint, identity, redirects and API-key calls (`https://www.wixapis.com`). */
  readonly apiUrl: string
  /** Host of a visitor/member client's module calls when the CDN is on (`https://edge.wixapis.com`). */
  readonly edgeUrl: string
  /** Send visitor/member module calls through the CDN host. */
  readonly cdn: boolean
  /** The OAuth client id of the site's headless app; needed by sessions, not by API-key scripts. */
  readonly clientId: Option.Option<string>
  readonly retry: RetryPolicy
  /**
   * How long one attempt of a call may take, its whole answer read, before it is aborted and fails with
   * a `timeout` TransportError (retried when the call is idempotent). `withTimeout` changes it for the
   * calls of one effect. The live event stream is not a call: it keeps its connection open.
   */
  readonly timeout: Duration.Input
  /** Sends the current trace's `traceparent` and `b3` headers (for those who trace to their own backend). */
  readonly tracePropagation: boolean
  /**
   * Paces every attempt the wire sends: `Site.apiKey` sets a `RateLimiter` here, and its wires (over fetch,
   * or `viaHttpClient`) send through `pacer.pace(transport)`. A wire of your own applies it with
   * `pacedTransport`. None by default: a session's calls are not paced.
   */
  readonly pacer?: { readonly pace: (transport: Transport) => Transport } | undefined
}

export interface PlatformConfigOptions {
  /** One base URL for every host, e.g. the local platform `http://127.0.0.1:8787`. */
  readonly baseUrl?: string | undefined
  readonly apiUrl?: string | undefined
  readonly edgeUrl?: string | undefined
  readonly cdn?: boolean | undefined
  readonly clientId?: string | undefined
  readonly retry?: Partial<RetryPolicy> | undefined
  /** Each attempt's timeout (default 30 seconds). */
  readonly timeout?: Duration.Input | undefined
  /**
   * Off by default: the platform's own clients send no trace headers, and a browser's CORS preflight
   * against the real hosts may refuse headers they do not expect.
   */
  readonly tracePropagation?: boolean | undefined
}

/** Resolves options to a full configuration (pure; exported for tests and the CLI). */
export const makeConfig = (options: PlatformConfigOptions = {}): PlatformConfigShape => ({
  apiUrl: trimSlash(options.apiUrl ?? options.baseUrl ?? DEFAULT_API_URL),
  edgeUrl: trimSlash(options.edgeUrl ?? options.baseUrl ?? DEFAULT_EDGE_URL),
  cdn: options.cdn ?? true,
  clientId: Option.fromUndefinedOr(options.clientId),
  retry: { ...defaultRetryPolicy, ...options.retry },
  timeout: options.timeout ?? DEFAULT_TIMEOUT_MILLIS,
  tracePropagation: options.tracePropagation ?? false
})

export class PlatformConfig extends Context.Service<PlatformConfig, PlatformConfigShape>()("sitefx/PlatformConfig") {
  /** Configuration from code. */
  static readonly layer = (options: PlatformConfigOptions = {}): Layer.Layer<PlatformConfig> =>
    Layer.succeed(PlatformConfig, makeConfig(options))

  /**
   * Configuration from the environment: `SITEFX_BASE_URL`, `SITEFX_API_URL`, `SITEFX_EDGE_URL`,
   * `SITEFX_CDN` (true/false), `SITEFX_CLIENT_ID`, `SITEFX_RETRY_TIMES`, `SITEFX_TIMEOUT` (milliseconds, or a
   * duration such as `10 seconds`). Code options win over env.
   */
  static readonly layerConfig = (options: PlatformConfigOptions = {}) =>
    Layer.effect(PlatformConfig, Effect.map(fromEnv, (env) => makeConfig(overEnv(env, defined(options)))))
}

/** Code options over env ones: a code `baseUrl` replaces every host from env, a partial code retry policy keeps env's other fields. */
const overEnv = (env: PlatformConfigOptions, code: PlatformConfigOptions): PlatformConfigOptions => ({
  ...(code.baseUrl === undefined ? env : { ...env, apiUrl: undefined, edgeUrl: undefined }),
  ...code,
  retry: { ...env.retry, ...code.retry }
})

/** A `SITEFX_*` variable that is set but cannot be read as what it configures. */
export class PlatformConfigError extends Data.TaggedError("PlatformConfigError")<{ readonly message: string }> {}

/**
 * A variable of the current ConfigProvider (the environment unless provided), as text. Read without
 * effect/Config: that module decodes with Schema, which a browser page would otherwise carry for
 * settings it never has.
 */
export const readEnv = (name: string): Effect.Effect<string | undefined, PlatformConfigError> =>
  Effect.flatMap(ConfigProvider.ConfigProvider, (provider) => provider.load([name])).pipe(
    Effect.map((node) => (node?._tag === "Value" ? node.value : undefined)),
    Effect.mapError((error) => new PlatformConfigError({ message: `${name}: ${error.message}` }))
  )

const BOOLEANS: Readonly<Record<string, boolean>> = { true: true, yes: true, on: true, "1": true, false: false, no: false, off: false, "0": false }

const readBoolean = (name: string) =>
  Effect.flatMap(readEnv(name), (text) => {
    if (text === undefined) return Effect.succeed(undefined)
    const value = BOOLEANS[text.trim().toLowerCase()]
    return value === undefined ? Effect.fail(new PlatformConfigError({ message: `${name} must be true or false, not ${JSON.stringify(text)}` })) : Effect.succeed(value)
  })

const readInt = (name: string) =>
  Effect.flatMap(readEnv(name), (text) => {
    if (text === undefined) return Effect.succeed(undefined)
    const value = Number(text)
    return text.trim() === "" || !Number.isSafeInteger(value)
      ? Effect.fail(new PlatformConfigError({ message: `${name} must be a whole number, not ${JSON.stringify(text)}` }))
      : Effect.succeed(value)
  })

const readDuration = (name: string) =>
  Effect.flatMap(readEnv(name), (text) => {
    if (text === undefined) return Effect.succeed(undefined)
    const trimmed = text.trim()
    const millis = /^\d+(\.\d+)?$/.test(trimmed) ? Number(trimmed) : inputMillis(trimmed as Duration.Input)
    return millis > 0
      ? Effect.succeed(millis)
      : Effect.fail(new PlatformConfigError({ message: `${name} must be milliseconds or a duration such as "10 seconds", not ${JSON.stringify(text)}` }))
  })

// one variable after another, as Effect.all would, without its machinery (about 0.6 KB gzip in a browser page)
const fromEnv: Effect.Effect<PlatformConfigOptions, PlatformConfigError> = Effect.gen(function*() {
  const retryTimes = yield* readInt("SITEFX_RETRY_TIMES")
  return defined({
    baseUrl: yield* readEnv("SITEFX_BASE_URL"),
    apiUrl: yield* readEnv("SITEFX_API_URL"),
    edgeUrl: yield* readEnv("SITEFX_EDGE_URL"),
    cdn: yield* readBoolean("SITEFX_CDN"),
    clientId: yield* readEnv("SITEFX_CLIENT_ID"),
    retry: retryTimes === undefined ? undefined : { times: retryTimes },
    timeout: yield* readDuration("SITEFX_TIMEOUT"),
    tracePropagation: yield* readBoolean("SITEFX_TRACE_PROPAGATION")
  })
})

const defined = <T extends object>(o: T): T =>
  Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as T
