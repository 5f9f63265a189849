/**
 * `sitefx serve`: runs the local platform as a process until SIGINT or SIGTERM, and prints what a
 * developer needs to connect (the only place the platform prints a secret).
 */
import * as Console from "effect/Console"
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import * as Redacted from "effect/Redacted"
import { Command, Flag } from "effect/cli"
import type { ServeError } from "effect/http/HttpServerError"
import { existsSync } from "node:fs"
import { resolve } from "node:path"
import { fileURLToPath } from "node:url"
import { webhookUrlProblem } from "../events/wire/subscriptions.ts"
import { crossSite } from "../session/crossSite.ts"
import { terminalLoggerLayer } from "./log.ts"
import { paceOf, parseRateLimit } from "../http/RateLimit.ts"
import { DEFAULT_RATE_LIMIT, DEFAULT_RATE_WINDOW_SECONDS } from "../server/platform/Profile.ts"
import { isLoopback } from "./connection.ts"
import { ExitCode, stopsBySignal } from "./output.ts"

/**
 * A port already in use is the usual reason the platform cannot start (a `npm start` still running): one
 * line that says what to do, not a stack trace; so are a port the process may not use and a host that is
 * none of this machine's. Anything else fails as it is.
 */
const portTaken = (error: ServeError, host: string, port: number) => {
  const cause = error.cause as { readonly code?: unknown } | undefined
  const said = (line: string, code: number) =>
    Console.error(`sitefx: ${line}`).pipe(Effect.andThen(Effect.sync(() => process.exit(code))), Effect.andThen(Effect.never))
  switch (cause?.code) {
    case "EADDRINUSE":
      return said(`${host}:${port} is in use (another sitefx serve or npm start?); stop it, or pick another port: --port ${port + 1}`, 1)
    case "EACCES":
      return said(`not allowed to listen on ${host}:${port} (ports below 1024 need privileges); pick another port, e.g. --port 8787`, ExitCode.usage)
    case "EADDRNOTAVAIL":
      return said(`cannot listen on ${host}: no interface of this machine has that address; e.g. --host 127.0.0.1`, ExitCode.usage)
    case "ENOTFOUND":
      return said(`cannot listen on ${host}: no such host name; e.g. --host 127.0.0.1`, ExitCode.usage)
    default:
      return Effect.fail(error)
  }
}

/**
 * Runs until the process that started the platform is gone. `npm start` runs it under npm, and npm
 * stopped by a signal it does not pass on would leave the platform running, holding its port; a
 * platform whose parent went away stops (cleanly: the scope closes the server and the database).
 */
const parentGone = Effect.gen(function*() {
  const parent = process.ppid
  while (process.ppid === parent) yield* Effect.sleep("1 second")
  yield* Console.log("sitefx: the process that started the platform is gone; stopping")
})

/** The built web app, when there is one. */
const builtApp = (): string | undefined => {
  const dir = fileURLToPath(new URL("../../app/dist", import.meta.url))
  return existsSync(`${dir}/index.html`) ? dir : undefined
}

/** The platform's rate limit as `--rate-limit` writes it (`200` a minute, `5/1s`), in the profile's terms; throws its problem. */
export const serveRateLimit = (text: string): { readonly requests: number; readonly windowSeconds: number } => {
  const limit = parseRateLimit(text)
  const pace = limit === undefined || limit === "none" ? "a number of calls a minute (200) or calls per window (5/1s)" : paceOf(limit)
  if (typeof pace !== "object") throw pace
  if (pace.windowMillis > 86_400_000) throw "a rate limit's window is at most a day"
  return { requests: pace.requests, windowSeconds: pace.windowMillis / 1000 }
}

const describeServeLimit = (limit: { readonly requests: number; readonly windowSeconds: number }) =>
  limit.windowSeconds === 60 ? `${limit.requests} API-key calls a minute` : `${limit.requests} API-key calls every ${limit.windowSeconds} s`

export const serve = Command.make(
  "serve",
  {
    port: Flag.Int("port").pipe(
      Flag.withDescription("Port to listen on, 1 to 65535 (0 picks a free one)"),
      // said as a usage error here: out of range, the server's listen would throw it with a stack trace
      Flag.filter((port) => port >= 0 && port <= 65535, () => "a port number from 0 to 65535 (0 picks a free one)"),
      Flag.withDefault(8787)
    ),
    host: Flag.String("host").pipe(Flag.withDescription("Interface to listen on"), Flag.withDefault("127.0.0.1")),
    db: Flag.String("db").pipe(
      Flag.withDescription("Database file (WAL mode), or :memory: for a throwaway platform"),
      Flag.withDefault(":memory:")
    ),
    seed: Flag.Literals("seed", ["demo", "none"]).pipe(
      Flag.withDescription("demo: the site plus a demo member; none: the site only"),
      Flag.withDefault("demo" as const)
    ),
    dev: Flag.Boolean("dev").pipe(
      Flag.withDescription("Mount the /_sitefx dev endpoints (default: on for loopback hosts)"),
      Flag.optional
    ),
    devOrigin: Flag.String("dev-origin").pipe(
      Flag.withDescription("A web origin whose pages may call the dev endpoints, e.g. a dev server at http://localhost:5173 (repeatable)"),
      Flag.atLeast(0)
    ),
    webhook: Flag.String("webhook").pipe(
      Flag.withDescription("A URL that receives every event of the site as a signed webhook (repeatable)"),
      Flag.atLeast(0)
    ),
    importFrom: Flag.String("import").pipe(
      Flag.withDescription("Start from a snapshot: a folder saved by --export-on-exit or /_sitefx/snapshots (instead of --seed)"),
      Flag.optional
    ),
    exportOnExit: Flag.String("export-on-exit").pipe(
      Flag.withDescription("Save the platform's state to this folder when it stops by Ctrl-C or SIGTERM (the previous one stays whole until the new one is written)"),
      Flag.optional
    ),
    log: Flag.Boolean("log").pipe(Flag.withDescription("Log requests and outbox messages"), Flag.withDefault(true)),
    profile: Flag.Literals("profile", ["none", "production"]).pipe(
      Flag.withDescription("production: hold API-key calls to the platform's rate limit and refuse data queries that would scan past the plan's timeout"),
      Flag.withDefault("none" as const)
    ),
    plan: Flag.Literals("plan", ["free", "premium", "elite"]).pipe(
      Flag.withDescription("The site's plan under --profile production: free and premium time data calls out at 5 s, elite at 10 s"),
      Flag.withDefault("free" as const)
    ),
    rateLimit: Flag.String("rate-limit").pipe(
      Flag.withDescription("API-key calls allowed under --profile production: a number a minute (the platform's documented 200), or calls per window (5/1s) to scale its time down"),
      Flag.mapTryCatch(serveRateLimit, (error) => String(error)),
      Flag.withDefault({ requests: DEFAULT_RATE_LIMIT, windowSeconds: DEFAULT_RATE_WINDOW_SECONDS })
    )
  },
  (config) =>
    Effect.scoped(Effect.gen(function*() {
      stopsBySignal()
      const dev = Option.getOrElse(config.dev, () => isLoopback(config.host))
      for (const url of config.webhook) {
        const problem = webhookUrlProblem(url)
        if (problem !== undefined) {
          return yield* Console.error(`sitefx: --webhook ${url}: ${problem}`).pipe(
            Effect.andThen(Effect.sync(() => process.exit(1))),
            Effect.andThen(Effect.never)
          )
        }
      }
      // `--import state --export-on-exit state` keeps a site between runs; its first run has no state yet
      const importFrom = Option.filter(config.importFrom, (dir) =>
        existsSync(dir) || Option.getOrUndefined(config.exportOnExit) === undefined ||
        resolve(dir) !== resolve(Option.getOrElse(config.exportOnExit, () => "")))
      // loaded here, not with the command: the batch commands never carry the platform's code
      const { LocalPlatform } = yield* Effect.promise(() => import("../server/index.ts"))
      const { CONSOLE_PATH, consoleDir } = yield* Effect.promise(() => import("../server/dev/consoleRoutes.ts"))
      const appDir = builtApp()
      const context = yield* Layer.build(LocalPlatform.layer({
        port: config.port,
        host: config.host,
        db: config.db,
        seed: config.seed,
        ...Option.match(importFrom, { onNone: () => ({}), onSome: (snapshot) => ({ snapshot }) }),
        ...Option.match(config.exportOnExit, { onNone: () => ({}), onSome: (exportOnExit) => ({ exportOnExit }) }),
        dev,
        devOrigins: config.devOrigin,
        webhooks: config.webhook,
        logger: config.log,
        profile: config.profile,
        plan: config.plan,
        rateLimit: config.rateLimit.requests,
        rateLimitWindowSeconds: config.rateLimit.windowSeconds,
        ...(appDir === undefined ? {} : { appDir })
      })).pipe(
        Effect.catchTag("ServeError", (error) => portTaken(error, config.host, config.port)),
        Effect.catchTag("SnapshotError", (error) =>
          Console.error(`sitefx: --import ${Option.getOrElse(config.importFrom, () => "")}: ${error.message}`).pipe(
            Effect.andThen(Effect.sync(() => process.exit(1))),
            Effect.andThen(Effect.never)
          ))
      )
      const platform = Context.get(context, LocalPlatform)
      const lines = [
        `sitefx local platform listening on ${platform.url}`,
        `  client id      ${platform.clientId}`,
        `  site id        ${platform.siteId}`,
        `  API key        ${Redacted.value(platform.apiKey)}   (admin: keep it private)`,
        ...(platform.demoMember === undefined
          ? []
          : [`  demo member    ${platform.demoMember.email} / ${Redacted.value(platform.demoMember.password)}`]),
        `  database       ${config.db}`,
        ...Option.match(config.importFrom, {
          onNone: () => [],
          onSome: (dir) => [Option.isSome(importFrom) ? `  started from   ${dir}` : `  started from   the ${config.seed} seed (${dir} is saved on exit)`]
        }),
        ...Option.match(config.exportOnExit, { onNone: () => [], onSome: (dir) => [`  saves on exit  ${dir}`] }),
        ...(config.profile === "production"
          ? [`  profile        production: ${config.plan} plan, ${describeServeLimit(config.rateLimit)}`]
          : []),
        `  dev endpoints  ${dev ? `${platform.url}/_sitefx` : "off"}`,
        // a dev server at localhost with the platform at 127.0.0.1: two sites, so the platform's cookie never reaches its pages' login frame
        ...config.devOrigin.map((origin) =>
          `  dev origin     ${origin}${
            crossSite(origin, platform.url) === undefined
              ? ""
              : `   (another site than ${platform.url}: a silent login in its pages finds no session; open both at one host name)`
          }`
        ),
        ...(dev && consoleDir() !== undefined ? [`  console        ${platform.url}${CONSOLE_PATH}`] : []),
        ...config.webhook.map((url) => `  webhook        ${url}`),
        ...(appDir === undefined ? [] : [`  app            ${platform.url}/`])
      ]
      yield* Console.log(lines.join("\n"))
      return yield* parentGone
    })).pipe(Effect.provide(terminalLoggerLayer))
).pipe(Command.withDescription("Run the local platform"))
