/**
 * Which site a batch command talks to, and as whom. Flags win over the environment:
 *
 * - `--base-url` / `SITEFX_BASE_URL`: where the platform answers; the local platform at
 *   http://127.0.0.1:8787 by default, `https://www.wixapis.com` for a real site;
 * - `--api-key` / `SITEFX_API_KEY` and `--site-id` / `SITEFX_SITE_ID`: an admin API key and its site;
 * - `--rate-limit` / `SITEFX_RATE_LIMIT`: how the key's calls are paced (`none`, `200` a minute, `20/2s`);
 *   by default the platform's 200 a minute on its own hosts, elsewhere the limit its answers announce.
 *
 * Without a key, a platform on this machine (started by `npm start` or `sitefx serve`) is asked for its
 * own through its dev endpoint `/_sitefx/site`, which answers only scripts on this machine and pages of
 * allowed origins. So against the local platform no key is copied by hand.
 */
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import * as Redacted from "effect/Redacted"
import { Flag } from "effect/cli"
import * as NodeHttpClient from "@effect/platform-node/NodeHttpClient"
import { PlatformError } from "../http/PlatformError.ts"
import { makeRateLimiter, paceOf, parseRateLimit, type RateLimiter } from "../http/RateLimit.ts"
import { retrying } from "../http/retry.ts"
import { fetchTransport } from "../http/transport.ts"
import { viaHttpClient } from "../http/viaHttpClient.ts"
import { Site } from "../Site.ts"
import { SitePacing, usage } from "./output.ts"

export const DEFAULT_BASE_URL = "http://127.0.0.1:8787"

/** A host only this machine reaches: a platform there may hand out its key, and serves dev endpoints by default. */
export const isLoopback = (host: string): boolean =>
  host === "localhost" || host === "::1" || host === "[::1]" || /^127\.\d+\.\d+\.\d+$/.test(host)

export const connectionFlags = {
  apiKey: Flag.Redacted("api-key").pipe(
    Flag.withDescription("Admin API key of the site (default: SITEFX_API_KEY, or the local platform's own key)"),
    Flag.optional
  ),
  siteId: Flag.String("site-id").pipe(Flag.withDescription("Site id the key acts on (default: SITEFX_SITE_ID)"), Flag.optional),
  baseUrl: Flag.String("base-url").pipe(
    Flag.withDescription(`Where the platform answers (default: SITEFX_BASE_URL, else the local platform at ${DEFAULT_BASE_URL}; a real site: https://www.wixapis.com)`),
    Flag.optional
  ),
  rateLimit: Flag.String("rate-limit").pipe(
    Flag.withDescription("How the key's calls are paced: none, calls a minute (200), or calls per window (20/2s) (default: SITEFX_RATE_LIMIT, else 200 a minute on the platform's own hosts and the limit a platform announces elsewhere)"),
    Flag.optional
  )
}

export interface ConnectionFlags {
  readonly apiKey: Option.Option<Redacted.Redacted<string>>
  readonly siteId: Option.Option<string>
  readonly baseUrl: Option.Option<string>
  readonly rateLimit?: Option.Option<string> | undefined
}

export interface Connection {
  readonly baseUrl: string
  readonly apiKey: Redacted.Redacted<string>
  readonly siteId: string | undefined
  /** How the key was found, for messages: "flag", "environment" or "local platform". */
  readonly keyFrom: string
  /** The limiter every call of the connection waits on (its pace shows on progress lines). */
  readonly pacer?: RateLimiter | undefined
}

/** `--rate-limit`, else SITEFX_RATE_LIMIT, as a limiter; a usage error when it is no limit. */
export const resolvePacer = (flag: Option.Option<string> | undefined) =>
  Effect.gen(function*() {
    const given = (flag === undefined ? undefined : Option.getOrUndefined(flag)) ?? env("SITEFX_RATE_LIMIT")
    if (given === undefined) return makeRateLimiter()
    const limit = parseRateLimit(given)
    const pace = limit === undefined ? "it is none of them" : paceOf(limit)
    if (typeof pace === "string") {
      return yield* usage(`--rate-limit ${JSON.stringify(given)}: give none, calls a minute (200) or calls per window (20/2s); ${pace}`)
    }
    return makeRateLimiter(pace ?? "none")
  })

const env = (name: string): string | undefined => {
  const value = process.env[name]
  return value === undefined || value.trim() === "" ? undefined : value.trim()
}

const hostOf = (url: string): string | undefined => {
  try {
    return new URL(url).hostname
  } catch {
    return undefined
  }
}

const SITE_PATH = "/_sitefx/site"

/**
 * Asks a platform on this machine for its site and key, through the client's own transport and retry
 * loop: a connection that breaks on the way is tried again (up to four times in all), one that nothing
 * accepts is not (nothing answers there).
 */
const localSite = (baseUrl: string) =>
  retrying(
    fetchTransport({ method: "GET", url: `${baseUrl}${SITE_PATH}`, body: undefined, headers: {}, timeoutMillis: 5000 }).pipe(
      Effect.mapError((reason) => new PlatformError({ method: "GET", path: SITE_PATH, reason }))
    ),
    { times: 3, base: 100, cap: 1000 },
    (error) => error.reason._tag === "TransportError" && error.reason.kind !== "unreachable"
  ).pipe(
    Effect.mapError((error) => {
      const inner = (error.reason._tag === "TransportError" ? error.reason.cause as { cause?: { code?: string; message?: string } } | undefined : undefined)?.cause
      const why = inner?.code === "ECONNREFUSED" ? "nothing answers there" : inner?.code ?? inner?.message ?? error.reason.message
      return usage(`no platform at ${baseUrl} (${why}); start the local platform with \`npm start\` or \`sitefx serve\`, or give a site with --base-url and --api-key`)
    }),
    Effect.flatMap(({ status, text }) => {
      if (status !== 200) {
        return Effect.fail(usage(`the platform at ${baseUrl} does not hand out its key (GET /_sitefx/site answered ${status}; dev endpoints off?); pass --api-key or set SITEFX_API_KEY`))
      }
      try {
        const body = JSON.parse(text) as { apiKey?: unknown; siteId?: unknown }
        if (typeof body.apiKey === "string" && typeof body.siteId === "string") {
          return Effect.succeed({ apiKey: body.apiKey, siteId: body.siteId })
        }
      } catch {
        // answered below
      }
      return Effect.fail(usage(`${baseUrl}/_sitefx/site did not answer a site connection; is it a sitefx local platform? Pass --api-key or set SITEFX_API_KEY`))
    })
  )

/** Where the platform answers: `--base-url`, else SITEFX_BASE_URL, else the local platform; a usage error unless it is an http(s) URL. */
export const resolveBaseUrl = (flag: Option.Option<string>) =>
  Effect.gen(function*() {
    const baseUrl = (Option.getOrUndefined(flag) ?? env("SITEFX_BASE_URL") ?? DEFAULT_BASE_URL).replace(/\/+$/, "")
    const host = hostOf(baseUrl)
    if (host === undefined || !/^https?:\/\//i.test(baseUrl)) {
      return yield* usage(`--base-url ${JSON.stringify(baseUrl)} is not an http(s) URL; e.g. ${DEFAULT_BASE_URL} or https://www.wixapis.com`)
    }
    return { baseUrl, host }
  })

/** Resolves flags, environment and (for a local platform) its dev endpoint to one connection. */
export const resolveConnection = (flags: ConnectionFlags) =>
  Effect.gen(function*() {
    const { baseUrl, host } = yield* resolveBaseUrl(flags.baseUrl)
    const pacer = yield* resolvePacer(flags.rateLimit)
    const siteId = Option.getOrUndefined(flags.siteId) ?? env("SITEFX_SITE_ID")
    if (Option.isSome(flags.apiKey)) return { baseUrl, apiKey: flags.apiKey.value, siteId, keyFrom: "flag", pacer } satisfies Connection
    const fromEnv = env("SITEFX_API_KEY")
    if (fromEnv !== undefined) return { baseUrl, apiKey: Redacted.make(fromEnv, { label: "api key" }), siteId, keyFrom: "environment", pacer } satisfies Connection
    if (!isLoopback(host)) {
      return yield* usage(`no API key for ${baseUrl}: pass --api-key or set SITEFX_API_KEY (an admin key of the site)`)
    }
    const local = yield* localSite(baseUrl)
    return {
      baseUrl,
      apiKey: Redacted.make(local.apiKey, { label: "api key" }),
      siteId: siteId ?? local.siteId,
      keyFrom: "local platform",
      pacer
    } satisfies Connection
  })

/** The API-key client of a connection: the data client, the wire for the catalog, events and members. */
export const siteLayer = (connection: Connection) =>
  Site.apiKey({
    apiKey: connection.apiKey,
    siteId: connection.siteId,
    baseUrl: connection.baseUrl,
    // Node's own HTTP client with kept-alive connections: for a batch job it is faster than fetch and
    // leaves far less garbage per page, which is what keeps a million-item export's memory flat
    transport: viaHttpClient(NodeHttpClient.layerNodeHttpOptions({ keepAlive: true })),
    // batch work rides out a busy platform longer than an interactive page would
    retry: { times: 6, base: "200 millis", cap: "10 seconds" },
    rateLimit: connection.pacer
  })

/** Runs `use` with the site the flags name provided. */
export const withSite = <A, E, R>(flags: ConnectionFlags, use: (connection: Connection) => Effect.Effect<A, E, R>) =>
  Effect.flatMap(resolveConnection(flags), (connection) => {
    const pacer = connection.pacer
    return Effect.provide(use(connection), Layer.fresh(siteLayer(connection))).pipe(
      Effect.provideService(SitePacing, pacer === undefined ? undefined : () => pacer.stats())
    )
  })
