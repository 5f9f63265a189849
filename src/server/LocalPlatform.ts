/**
 * The local platform: a server on this machine that speaks the platform's wire protocol (OAuth,
 * redirect sessions, identity, members, dev endpoints) on node:sqlite, so clients, the official
 * packages and tests run for real without the cloud.
 *
 * ```ts
 * it.layer(LocalPlatform.layer({}), { excludeTestServices: true })("members", (it) => {
 *   it.effect("logs in", () => Effect.gen(function*() {
 *     const { url, clientId } = yield* LocalPlatform
 *   }))
 * })
 * ```
 */
import * as NodeHttpServer from "@effect/platform-node/NodeHttpServer"
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import type { PlatformError } from "effect/PlatformError"
import * as Redacted from "effect/Redacted"
import * as HttpRouter from "effect/http/HttpRouter"
import * as HttpServer from "effect/http/HttpServer"
import type { ServeError } from "effect/http/HttpServerError"
import { createServer } from "node:http"
import { appLayer } from "./App.ts"
import { withClientErrors } from "./platform/clientErrors.ts"
import { coreLayer, type CoreOptions, type PlatformCore } from "./Core.ts"
import type { SeedName } from "../dev/wire/platform.ts"
import { DEMO_MEMBER_EMAIL, DEMO_MEMBER_PASSWORD, Seeder } from "./accounts/seed.ts"
import { DEFAULT_ACCESS_TOKEN_TTL_SECONDS } from "./platform/Settings.ts"
import { MemberStore } from "./accounts/MemberStore.ts"
import { type SnapshotError, Snapshots } from "./dev/Snapshots.ts"
import type { DeliveryPolicy, WebhookRegistration } from "./events/webhooks/index.ts"

/** Where the platform listens, what it stores in, how it is seeded, and its dev and webhook settings. */
export interface LocalPlatformOptions {
  /** Default 0: an ephemeral port. */
  readonly port?: number
  /** Default `127.0.0.1`. */
  readonly host?: string
  /** `:memory:` (default) or a database file (WAL mode). */
  readonly db?: string
  /** Default `demo`: the site plus a demo member. `none` creates the site only. Not used with `snapshot`. */
  readonly seed?: SeedName
  /**
   * A snapshot to start from instead of a seed: the folder a snapshot was saved or exported to (or its
   * `snapshot.sqlite`). One from another sitefx version whose storage differs is refused.
   */
  readonly snapshot?: string
  /**
   * A folder the platform saves its state to when it stops cleanly (the layer closes: SIGINT or
   * SIGTERM for `sitefx serve`), as a snapshot `snapshot` can start from. The previous one stays whole
   * until the new one is complete.
   */
  readonly exportOnExit?: string
  /** Mounts the `/_sitefx/*` dev endpoints. Default true. */
  readonly dev?: boolean
  /**
   * Web origins whose pages may call the dev endpoints, besides the platform's own pages (e.g. a Vite
   * dev server: `http://localhost:5173`; `http://localhost:*` allows every port). Scripts and tests,
   * which send no `Origin`, need nothing here.
   */
  readonly devOrigins?: ReadonlyArray<string>
  /** Default 14400 (4 hours); a setting, so the dev endpoints can change it later. */
  readonly accessTokenTtlSeconds?: number
  /** Logs requests and outbox messages. Default false. */
  readonly logger?: boolean
  /** A built web app to serve at `/`. */
  readonly appDir?: string
  /** Data request bodies above this many bytes get 413 (default 5 MB). */
  readonly dataMaxPayloadBytes?: number
  /** How many of the latest requests `GET /_sitefx/requests` can show (default 5000). */
  readonly requestLogSize?: number
  /**
   * Webhook subscriptions made at start (and again after a reset), unless the site has one to the same
   * URL already: a URL receives every event type, `{ url, eventTypes }` the types named.
   */
  readonly webhooks?: ReadonlyArray<WebhookRegistration>
  /**
   * How webhooks are delivered: attempts (default 5), the first wait between attempts (default 1000 ms,
   * doubling, with jitter, up to `retryCapMillis`, default 60 000) and the timeout of one attempt
   * (default 10 000 ms). Tests make them small.
   */
  readonly webhookDelivery?: Partial<DeliveryPolicy>
  /**
   * `production` holds apps to the real platform's documented limits (default: none; `POST
   * /_sitefx/profile` switches it while the platform runs): calls made with an API key get 429 past
   * `rateLimit` calls in a window of `rateLimitWindowSeconds`, and a data query that would scan more unindexed items than the
   * plan's timeout stands for is refused as a timed-out call.
   */
  readonly profile?: "none" | "production"
  /** The site's plan, which sets a data call's timeout: `free` (default) and `premium` 5 s, `elite` 10 s. */
  readonly plan?: "free" | "premium" | "elite"
  /** Calls an API key may make in a window under the profile (default 200, the platform's documented limit). */
  readonly rateLimit?: number
  /** The rate limit's window in seconds (default 60, the platform's); a shorter one scales its time down for tests. */
  readonly rateLimitWindowSeconds?: number
  /**
   * Unindexed rows a second that stand for a data call's time (default 500 000, measured on node:sqlite):
   * a query scanning more than the plan's timeout times this is refused under the profile, and advised
   * an index in the request log without it.
   */
  readonly scanRowsPerSecond?: number
}

/** A started platform: where it listens, and what a client needs to reach its site. */
export interface LocalPlatformShape {
  /** `http://127.0.0.1:PORT`: a client's base URL. */
  readonly url: string
  /** The OAuth client id of the seeded site (`LOCAL_CLIENT_ID`). */
  readonly clientId: string
  /** The seeded site's id (`LOCAL_SITE_ID`). */
  readonly siteId: string
  /** The site's admin API key, for the calls that need one. */
  readonly apiKey: Redacted.Redacted<string>
  /** The seeded member, with the `demo` seed. */
  readonly demoMember: { readonly email: string; readonly password: Redacted.Redacted<string> } | undefined
  /** Whether the `/_sitefx/*` dev endpoints are mounted. */
  readonly dev: boolean
}

const UNSPECIFIED = new Set(["0.0.0.0", "::", "[::]"])

const urlOf = (address: HttpServer.HttpServer["Service"]["address"]): string => {
  if (address._tag === "UnixPathAddress") return `http://unix:${address.path}`
  const formatted = new URL(HttpServer.formatAddress(address))
  if (UNSPECIFIED.has(formatted.hostname)) formatted.hostname = "127.0.0.1"
  return formatted.origin
}

/**
 * A local platform running on this machine: its layer starts the server (closed with the layer) and
 * provides its address and seeded values.
 *
 * @example
 * // a test against a fresh site on an ephemeral port
 * import { it } from "@effect/vitest"
 * it.layer(LocalPlatform.layer({ seed: "demo" }), { excludeTestServices: true })("members", (it) => {
 *   it.effect("has the demo member", () => Effect.gen(function* () {
 *     const { url, clientId, demoMember } = yield* LocalPlatform
 *     yield* Effect.log(url, clientId, demoMember?.email)
 *   }))
 * })
 *
 * @example
 * // a process serving a site kept in a file, as `sitefx serve` does
 * import * as NodeRuntime from "@effect/platform-node/NodeRuntime"
 * const main = Effect.gen(function* () {
 *   const { url, clientId } = yield* LocalPlatform
 *   yield* Effect.log(`the local platform is at ${url} (client ${clientId})`)
 *   return yield* Effect.never
 * })
 * main.pipe(Effect.provide(LocalPlatform.layer({ port: 8787, db: "sitefx.db" })), NodeRuntime.runMain)
 */
export class LocalPlatform extends Context.Service<LocalPlatform, LocalPlatformShape>()("sitefx/LocalPlatform") {
  /** Starts the platform (closed with the layer) and provides its address and seeded values. */
  static layer(options: LocalPlatformOptions = {}): Layer.Layer<LocalPlatform, ServeError | PlatformError | SnapshotError> {
    return layerWithCore(options)
  }
}

/** What only this repository's tests tune: how often due carts are abandoned as time passes. */
export type CoreTuning = Pick<CoreOptions, "abandonSweepInterval">

/**
 * How long the platform keeps an idle connection open. node:sqlite is synchronous, so a long statement (an
 * index built over a big collection, a restore) holds the platform's thread for seconds; with Node's
 * default of 5 s, a request a client sent on an idle kept-alive connection during that wait met a reset,
 * the connection's idle timer having run out meanwhile (test/server/keepAlive.test.ts). A minute is longer
 * than any such statement, and than the idle time Node's and browsers' clients keep a connection for.
 */
const KEEP_ALIVE_MS = 65_000

/**
 * {@link LocalPlatform.layer}, also providing the platform's own services, for the tests and tools of this
 * repository that use them in-process (the event log, the stores); not part of `sitefx/server`.
 */
export const layerWithCore = (
  options: LocalPlatformOptions & CoreTuning = {}
): Layer.Layer<LocalPlatform | PlatformCore, ServeError | PlatformError | SnapshotError> => {
  const seed = options.seed ?? "demo"
  const dev = options.dev ?? true
  const core = coreLayer({
    db: options.db ?? ":memory:",
    accessTokenTtlSeconds: options.accessTokenTtlSeconds ?? DEFAULT_ACCESS_TOKEN_TTL_SECONDS,
    log: options.logger ?? false,
    dataMaxPayloadBytes: options.dataMaxPayloadBytes,
    requestLogSize: options.requestLogSize,
    webhooks: { webhooks: options.webhooks, delivery: options.webhookDelivery },
    abandonSweepInterval: options.abandonSweepInterval,
    profile: {
      ...(options.profile === undefined ? {} : { profile: options.profile }),
      ...(options.plan === undefined ? {} : { plan: options.plan }),
      ...(options.rateLimit === undefined ? {} : { rateLimit: options.rateLimit }),
      ...(options.rateLimitWindowSeconds === undefined ? {} : { rateLimitWindowSeconds: options.rateLimitWindowSeconds }),
      ...(options.scanRowsPerSecond === undefined ? {} : { scanRowsPerSecond: options.scanRowsPerSecond })
    }
  })
  const seeded = Layer.effectDiscard(Effect.gen(function*() {
    const snapshots = yield* Snapshots
    if (options.snapshot === undefined) yield* Seeder.use((seeder) => seeder.seed(seed))
    else yield* snapshots.importFrom(options.snapshot)
    const exportTo = options.exportOnExit
    if (exportTo !== undefined) {
      // a finalizer of this layer runs after the server's (no request changes the state any more) and
      // before the database closes
      yield* Effect.addFinalizer(() =>
        snapshots.exportTo(exportTo).pipe(
          Effect.flatMap((saved) => Effect.logInfo(`sitefx: saved the platform's state to ${exportTo} (${saved.counts.items} items, ${saved.counts.members} members)`)),
          Effect.catch((error) => Effect.logError(`sitefx: the platform's state could not be saved to ${exportTo}: ${error.message}`))
        )
      )
    }
  }))
  const host = options.host ?? "127.0.0.1"
  const devAccess = { origins: options.devOrigins ?? [], host }
  const server = HttpRouter.serve(appLayer({ dev, appDir: options.appDir, devAccess }), {
    disableLogger: options.logger !== true,
    disableListenLog: true
  }).pipe(
    Layer.provideMerge(NodeHttpServer.layer(() => withClientErrors(createServer({ keepAliveTimeout: KEEP_ALIVE_MS })), { port: options.port ?? 0, host })),
    // the site exists before the first request can arrive
    Layer.provide(seeded),
    Layer.provideMerge(core)
  )
  const platform = Layer.effect(
    LocalPlatform,
    Effect.gen(function*() {
      const httpServer = yield* HttpServer.HttpServer
      const site = (yield* Seeder).site()
      return LocalPlatform.of({
        url: urlOf(httpServer.address),
        clientId: site.clientId,
        siteId: site.siteId,
        apiKey: site.apiKey,
        demoMember: (options.snapshot === undefined ? seed === "demo" : (yield* MemberStore).byEmail(DEMO_MEMBER_EMAIL) !== undefined)
          ? { email: DEMO_MEMBER_EMAIL, password: Redacted.make(DEMO_MEMBER_PASSWORD, { label: "demo member password" }) }
          : undefined,
        dev
      })
    })
  )
  return platform.pipe(Layer.provideMerge(server))
}
