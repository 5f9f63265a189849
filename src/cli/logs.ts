/**
 * `sitefx logs`: the local platform's latest requests, one line each (time, status, method, path,
 * duration, caller, for a refusal the rule that refused it, and for a data query that scanned past the
 * plan's threshold the index it needs), read from its dev endpoint
 * `GET /_sitefx/requests`. `--follow` then long-polls for new ones until Ctrl-C; the filters are the
 * endpoint's own (`--status 4xx`, `--caller member`, `--path /wix-data`, ...), checked by the platform;
 * `--json` prints each request as one JSON object per line.
 */
import * as Data from "effect/Data"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import * as Schema from "effect/Schema"
import { Command, Flag } from "effect/cli"
import { type RequestRecord, RequestsResponse } from "../dev/wire/platform.ts"
import { connectionFlags, resolveBaseUrl } from "./connection.ts"
import { stopsBySignal, usage } from "./output.ts"

/** How long one poll of a follower waits on the platform before asking again. */
const FOLLOW_WAIT_SECONDS = 25

/** What a refusal's line ends with: its rule's id and message. */
const ruleText = (r: RequestRecord): string => (r.rule === undefined ? "" : `  ${r.rule.id}: ${r.rule.message}`)

/**
 * What a line of a read that scanned past the plan's threshold ends with: the index it needs, or, for a
 * read of every item that no index serves (a group of the whole collection), that it needs a first filter.
 */
const adviceText = (r: RequestRecord): string =>
  r.advice === undefined
    ? ""
    : `  index advice: ${r.advice.collection} (${r.advice.fields.length === 0 ? "no index serves it: filter first on indexed fields" : r.advice.fields.join(", ")}), ${r.advice.rowsScanned} items scanned`

/** The caller as `--caller` takes it: `member:<id>`, `admin:<key id>`, `visitor:<id>`, or `-` for none. */
const callerText = (r: RequestRecord): string => (r.caller.kind === "none" ? "-" : `${r.caller.kind}:${r.caller.id ?? ""}`)

/** One request as a line: `12:01:02.345  403 POST /wix-data/v2/items  2.1ms  visitor:…  data.permission: …`. */
export const describeRequest = (r: RequestRecord): string =>
  `${r.time.slice(11, 23)}  ${r.status} ${r.method} ${r.path}  ${r.durationMs.toFixed(1)}ms  ${callerText(r)}${ruleText(r)}${adviceText(r)}`

const decode = Schema.decodeUnknownEffect(Schema.fromJsonString(RequestsResponse))

interface Filters {
  readonly status: Option.Option<string>
  readonly caller: Option.Option<string>
  readonly path: Option.Option<string>
  readonly method: Option.Option<string>
  readonly dev: boolean
  readonly advice: boolean
}

const queryOf = (filters: Filters, extra: Record<string, string | number>): string => {
  const params = new URLSearchParams()
  for (const key of ["status", "caller", "path", "method"] as const) {
    const value = Option.getOrUndefined(filters[key])
    if (value !== undefined) params.set(key, value)
  }
  if (filters.dev) params.set("dev", "true")
  if (filters.advice) params.set("advice", "true")
  for (const [key, value] of Object.entries(extra)) params.set(key, String(value))
  return params.toString()
}

/** No answer from the platform: the first read says so and ends; a follower waits for the platform to be back. */
class Unreachable extends Data.TaggedError("Unreachable")<{ readonly message: string }> {}

/** One read of the log; a refusal is said as the platform words it (a bad filter, dev endpoints off). */
const read = (baseUrl: string, query: string) =>
  Effect.tryPromise({
    try: async (signal) => {
      const response = await fetch(`${baseUrl}/_sitefx/requests?${query}`, { signal })
      return { status: response.status, text: await response.text() }
    },
    catch: (cause) => {
      const inner = (cause as { cause?: { code?: string; message?: string } }).cause
      const why = inner?.code === "ECONNREFUSED" ? "nothing answers there" : inner?.code ?? inner?.message ?? String(cause)
      return new Unreachable({ message: `no platform at ${baseUrl} (${why}); start it with \`npm start\` or \`sitefx serve\`, or name it with --base-url` })
    }
  }).pipe(
    Effect.flatMap(({ status, text }) => {
      if (status === 200) {
        return decode(text).pipe(Effect.mapError(() => usage(`${baseUrl}/_sitefx/requests did not answer a request log; is it a sitefx local platform?`)))
      }
      let message = text.slice(0, 300)
      try {
        const body = JSON.parse(text) as { message?: unknown }
        if (typeof body.message === "string") message = body.message
      } catch {
        // the text as it came
      }
      const hint = status === 404 ? " (are its dev endpoints on? `sitefx serve` mounts them on loopback hosts)" : ""
      return Effect.fail(usage(`${baseUrl}/_sitefx/requests answered ${status}: ${message}${hint}`))
    })
  )

export const logs = Command.make(
  "logs",
  {
    baseUrl: connectionFlags.baseUrl,
    follow: Flag.Boolean("follow").pipe(Flag.withAlias("f"), Flag.withDescription("Keep printing new requests as they come (Ctrl-C stops)"), Flag.withDefault(false)),
    status: Flag.String("status").pipe(Flag.withDescription("Only these statuses: 2xx, 4xx, 5xx, or one status such as 404"), Flag.optional),
    caller: Flag.String("caller").pipe(
      Flag.withDescription("Only this caller: visitor, member, admin, none, or one of them: member:<id>, admin:<key id>"),
      Flag.optional
    ),
    path: Flag.String("path").pipe(Flag.withDescription("Only paths starting with this, e.g. /wix-data"), Flag.optional),
    method: Flag.String("method").pipe(Flag.withDescription("Only this method, e.g. POST"), Flag.optional),
    dev: Flag.Boolean("dev").pipe(Flag.withDescription("Also the requests to the dev endpoints (/_sitefx/*)"), Flag.withDefault(false)),
    advice: Flag.Boolean("advice").pipe(Flag.withDescription("Only the data queries that carry an index advice (they scan a collection without an index)"), Flag.withDefault(false)),
    limit: Flag.Int("limit").pipe(Flag.withAlias("n"), Flag.withDescription("Print the newest this many (default 100; at most 1000)"), Flag.optional),
    json: Flag.Boolean("json").pipe(Flag.withDescription("One JSON object per request, for jq and scripts"), Flag.withDefault(false))
  },
  (flags) =>
    Effect.gen(function*() {
      const { baseUrl } = yield* resolveBaseUrl(flags.baseUrl)
      const print = (records: ReadonlyArray<RequestRecord>) =>
        Effect.sync(() => {
          if (records.length === 0) return
          process.stdout.write(`${records.map((r) => (flags.json ? JSON.stringify(r) : describeRequest(r))).join("\n")}\n`)
        })
      const limit = Option.getOrUndefined(flags.limit)
      const first = yield* read(baseUrl, queryOf(flags, limit === undefined ? {} : { limit })).pipe(
        Effect.catchTag("Unreachable", (e) => Effect.fail(usage(e.message)))
      )
      yield* print(first.requests)
      if (!flags.follow) return
      stopsBySignal()
      if (!flags.json) process.stderr.write(`following the requests of ${baseUrl}; Ctrl-C stops\n`)
      let after = first.last
      let away = false
      for (;;) {
        const next = yield* Effect.result(read(baseUrl, queryOf(flags, { after, wait: FOLLOW_WAIT_SECONDS, limit: 1000 })))
        if (next._tag === "Failure") {
          if (next.failure._tag !== "Unreachable") return yield* next.failure
          if (!away) process.stderr.write(`${next.failure.message}; waiting for it\n`)
          away = true
          yield* Effect.sleep("1 second")
          continue
        }
        away = false
        yield* print(next.success.requests)
        // a log behind where the follower was (the platform restarted) is followed from its start
        after = next.success.last < after ? 0 : next.success.last
      }
    })
).pipe(Command.withDescription("Print the local platform's latest requests (status, caller, the rule of a refusal); --follow for new ones as they come"))
