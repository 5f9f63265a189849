/**
 * The local platform under hostile input, over real HTTP: fast-check sends every route damaged requests
 * as every kind of caller (no token, a visitor, a member, the admin key) and checks each answer: never a
 * 5xx, never a hang, always a request id, and a refusal always in the platform's error shape.
 *
 * First only requests that cannot be valid (malformed JSON, broken UTF-8, nesting over the bounds,
 * too-deep items, unreadable escapes, `.r` that is not an object): afterwards every table of the
 * database is exactly as before. Then anything at all (random JSON in every field, edge numbers, huge
 * strings, prototype keys in bodies and GET parameter names), except to the dev endpoints that wipe or
 * steer the platform: afterwards no prototype was touched and nothing leaked into later answers.
 *
 * `FUZZ_SEED` replays a run (the seed is printed on failure), `FUZZ_RUNS` scales it.
 */
import { assert, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Redacted from "effect/Redacted"
import fc from "fast-check"
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { LocalPlatform } from "../../../src/server/index.ts"
import { snapshotTables } from "../support.ts"
import { memberToken, visitorToken } from "../data/support.ts"
import { type RouteCase, ROUTES } from "./routes.ts"

const SEED = process.env["FUZZ_SEED"] === undefined ? 20261123 : Number(process.env["FUZZ_SEED"])
const RUNS = process.env["FUZZ_RUNS"] === undefined ? 1 : Number(process.env["FUZZ_RUNS"])
const TIMEOUT_MS = 10_000

interface Caller {
  readonly name: string
  readonly headers: Record<string, string>
}

/** A request as bytes on the wire: the path's parameters, a query string, a body. */
interface Wire {
  readonly params: ReadonlyArray<string>
  readonly search: string
  readonly body?: Uint8Array | string
  readonly contentType?: string
  /** The body may be answered 200: a bulk write whose items are refused one by one. */
  readonly itemsMayFail?: boolean
}

interface Answer {
  readonly status: number
  readonly headers: Headers
  readonly text: string
}

const send = async (base: string, route: RouteCase, wire: Wire, caller: Caller): Promise<Answer> => {
  let i = 0
  const path = route.path.replace(/:[A-Za-z]+/g, () => wire.params[i++] ?? "x")
  const res = await fetch(`${base}${path}${wire.search === "" ? "" : `?${wire.search}`}`, {
    method: route.method,
    redirect: "manual",
    headers: { ...caller.headers, ...(wire.contentType === undefined ? {} : { "content-type": wire.contentType }) },
    ...(wire.body === undefined ? {} : { body: wire.body as BodyInit }),
    signal: AbortSignal.timeout(TIMEOUT_MS)
  })
  return { status: res.status, headers: res.headers, text: await res.text() }
}

/** What every answer must be; a string saying what is wrong, or undefined. */
const problem = (route: RouteCase, answer: Answer): string | undefined => {
  if (answer.status >= 500) return `answered ${answer.status}: ${answer.text.slice(0, 300)}`
  if (answer.headers.get("x-wix-request-id") === null) return "no x-wix-request-id"
  if (answer.headers.get("x-any") !== null) return "a planted header came back"
  if (answer.status < 400 || route.page === true) return undefined
  let body: any
  try {
    body = JSON.parse(answer.text)
  } catch {
    return `a ${answer.status} without a JSON body: ${answer.text.slice(0, 200)}`
  }
  if (typeof body?.message !== "string") return `a ${answer.status} without a message`
  const details = body.details
  if (!Array.isArray(details?.validationError?.fieldViolations) && details?.applicationError?.code === undefined) {
    return `a ${answer.status} without field violations or an application code: ${answer.text.slice(0, 200)}`
  }
  return undefined
}

// ---- requests that cannot be valid ------------------------------------------------------------------

const encoder = new TextEncoder()
const bytes = (...parts: ReadonlyArray<string | Uint8Array>) =>
  Buffer.concat(parts.map((p) => (typeof p === "string" ? encoder.encode(p) : p)))

/** JSON text of `depth` nested arrays or objects. */
const nested = (depth: number, kind: "array" | "object") =>
  kind === "array" ? "[".repeat(depth) + "]".repeat(depth) : "{\"a\":".repeat(depth) + "1" + "}".repeat(depth)

/** The sample's JSON text with one more field, `value` written as is. */
const withField = (sample: Record<string, unknown>, value: string, field = "z") => {
  const text = JSON.stringify(sample)
  return text === "{}" ? `{${JSON.stringify(field)}:${value}}` : `${text.slice(0, -1)},${JSON.stringify(field)}:${value}}`
}

/** The top-level fields of a sample (a route reads each of them), or `z` for a route that takes none. */
const readFields = (sample: Record<string, unknown>) => (Object.keys(sample).length === 0 ? ["z"] : Object.keys(sample))

const omit = (sample: Record<string, unknown>, field: string) => Object.fromEntries(Object.entries(sample).filter(([k]) => k !== field))

const BROKEN_UTF8 = [[0xff], [0xc3, 0x28], [0xe0, 0xa4], [0xed, 0xa0, 0x80], [0xf8, 0x88, 0x80, 0x80, 0x80], [0x80]].map((b) => Uint8Array.from(b))
const BROKEN_JSON = ["{", "{\"a\":", "[1,2", "nul", "{\"a\":1}}", "{'a':1}", "{\"a\":01}", "\"unterminated", "{\"a\":1,}", "\u0000"]
const BROKEN_ESCAPES = ["%ff", "%E0%A4%A", "%zz", "%", "%C0%AF", "%ED%A0%80"]

/** The data of `sample`'s item (or each of its items) nested deeper than an item may be. */
const tooDeepItems = (sample: Record<string, unknown>, depth: number): string | undefined => {
  const deep = JSON.parse(nested(depth, "object"))
  if (typeof sample["dataItem"] === "object") return JSON.stringify({ ...sample, dataItem: { data: deep } })
  if (Array.isArray(sample["dataItems"])) return JSON.stringify({ ...sample, dataItems: [{ data: deep }] })
  if (typeof sample["patch"] === "object") {
    return JSON.stringify({ ...sample, patch: { dataItemId: "welcome", fieldModifications: [{ fieldPath: "x", action: "SET_FIELD", setFieldOptions: { value: deep } }] } })
  }
  return undefined
}

const invalidBody = (route: RouteCase): fc.Arbitrary<Omit<Wire, "params">> => {
  const json = (body: Uint8Array | string, itemsMayFail = false) => ({ search: "", body, contentType: "application/json", itemsMayFail })
  const cases: Array<fc.Arbitrary<Omit<Wire, "params">>> = [
    fc.tuple(fc.constantFrom(...BROKEN_JSON), fc.string({ maxLength: 20 })).map(([broken, tail]) => json(broken + tail)),
    fc.tuple(fc.constantFrom(...BROKEN_UTF8), fc.string({ maxLength: 10 })).map(([bad, text]) => {
      const body = withField(route.sample, "\"\u0001\"")
      const at = body.lastIndexOf("\u0001")
      return json(bytes(body.slice(0, at), text.replace(/["\\]/g, ""), bad, body.slice(at + 1)))
    }),
    // in place of a field the route reads (a body's unknown fields are never walked, so their depth is harmless)
    fc.tuple(fc.integer({ min: 257, max: 20_000 }), fc.constantFrom("array" as const, "object" as const), fc.constantFrom(...readFields(route.sample)))
      .map(([depth, kind, field]) => json(withField(omit(route.sample, field), nested(depth, kind), field)))
  ]
  if (route.input === "form") {
    cases.push(fc.constantFrom(...BROKEN_ESCAPES).map((e) => ({ search: "", body: `email=${e}&password=x`, contentType: "application/x-www-form-urlencoded" })))
  }
  const deepItems = tooDeepItems(route.sample, 101)
  if (deepItems !== undefined) {
    cases.push(fc.integer({ min: 101, max: 250 }).map((depth) => json(tooDeepItems(route.sample, depth)!, Array.isArray(route.sample["dataItems"]))))
  }
  return fc.oneof(...cases)
}

const dotR = (json: string) => `.r=${Buffer.from(json).toString("base64url")}`

const invalidQuery: fc.Arbitrary<Omit<Wire, "params">> = fc.oneof(
  fc.constantFrom(...BROKEN_ESCAPES).map((e) => ({ search: `dataCollectionId=${e}` })),
  fc.constantFrom("[1,2]", "3", "\"x\"", "null", "{", "").map((json) => ({ search: dotR(json) })),
  fc.integer({ min: 257, max: 5000 }).map((depth) => ({ search: dotR(`{"query":${nested(depth, "array")}}`) })),
  fc.constantFrom("__proto__", "constructor.prototype", "prototype", "a.__proto__").map((key) => ({ search: `${key}.dataCollectionId=Authors&dataCollectionId=Posts` }))
)

const hostileParam = fc.oneof(fc.constantFrom(...BROKEN_ESCAPES), fc.string({ minLength: 1, maxLength: 3000 }).map((s) => `fuzz-${encodeURIComponent(s)}`))

// ---- anything at all ---------------------------------------------------------------------------------

const INFINITY = "\u0000infinity\u0000"

const edgeValue: fc.Arbitrary<unknown> = fc.oneof(
  fc.jsonValue({ maxDepth: 4 }),
  fc.constantFrom(1e20, 2 ** 63, -0, Number.MAX_SAFE_INTEGER + 2, -1, 0.5, 1e308, -1e308, INFINITY, "", "\u0000", "a\"b", "__proto__"),
  fc.constantFrom({ __proto__: { polluted: true } }, JSON.parse("{\"__proto__\":{\"headers\":{\"x-any\":\"1\"}}}"), { constructor: { prototype: { x: 1 } } }),
  fc.integer({ min: 0, max: 300 }).map((n) => Array.from({ length: n * 10 }, (_, i) => ({ [`k${i}`]: i }))),
  fc.string({ maxLength: 200_000 })
)

/** `value` at a random place of `sample` (a key of the top level or of an object below it). */
const mutate = (sample: Record<string, unknown>): fc.Arbitrary<unknown> => {
  const places: Array<ReadonlyArray<string>> = [[]]
  const walk = (v: unknown, at: ReadonlyArray<string>) => {
    if (typeof v !== "object" || v === null) return
    for (const [k, inner] of Object.entries(v)) {
      places.push([...at, k])
      if (at.length < 4) walk(inner, [...at, k])
    }
  }
  walk(sample, [])
  return fc.tuple(fc.constantFrom(...places), edgeValue, fc.boolean()).map(([place, value, extraKey]) => {
    const copy = JSON.parse(JSON.stringify(sample))
    if (place.length === 0) return value
    let target = copy
    for (const k of place.slice(0, -1)) target = target[k]
    if (typeof target === "object" && target !== null) target[extraKey ? `${place[place.length - 1]}_x` : place[place.length - 1]!] = value
    return copy
  })
}

const jsonText = (value: unknown) => (JSON.stringify(value) ?? "null").replaceAll(JSON.stringify(INFINITY), "1e400")

/** GET parameters: the payload flattened (dotted keys, repeated arrays) or as `.r`, plus junk. */
const flatten = (value: unknown, prefix: string, out: Array<string>) => {
  if (Array.isArray(value)) for (const v of value) flatten(v, prefix, out)
  else if (typeof value === "object" && value !== null) for (const [k, v] of Object.entries(value)) flatten(v, prefix === "" ? k : `${prefix}.${k}`, out)
  else out.push(`${encodeURIComponent(prefix || "x")}=${encodeURIComponent(String(value))}`)
}

const anyWire = (route: RouteCase): fc.Arbitrary<Omit<Wire, "params">> => {
  const payload = fc.oneof({ weight: 4, arbitrary: mutate(route.sample) }, { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 6 }) })
  if (route.input === "json") return payload.map((p) => ({ search: "", body: jsonText(p), contentType: "application/json" }))
  if (route.input === "form") {
    const keys = [...new Set(["redirectSession", "email", "password", "__proto__", "x", ...Object.keys(route.sample)])]
    return fc.dictionary(fc.constantFrom(...keys), fc.oneof(fc.string({ maxLength: 50 }), fc.string({ maxLength: 5000 }))).map((form) => ({
      search: "",
      body: new URLSearchParams(form).toString(),
      contentType: "application/x-www-form-urlencoded"
    }))
  }
  const junk = fc.array(fc.tuple(fc.constantFrom("__proto__.x", "constructor.prototype.y", "a..b", ".r", "paging.limit", "query.filter"), fc.string({ maxLength: 30 })), { maxLength: 3 })
  return fc.tuple(payload, fc.boolean(), junk).map(([p, asR, extra]) => {
    const parts: Array<string> = []
    if (asR) parts.push(dotR(jsonText(p)))
    else flatten(p, "", parts)
    for (const [k, v] of extra) parts.push(`${k}=${encodeURIComponent(v)}`)
    return { search: parts.join("&") }
  })
}

const anyParam = fc.oneof(fc.constantFrom("Posts", "Authors", "welcome", "ada", "query", "TOTP", "nobody"), fc.string({ minLength: 1, maxLength: 40 }).map(encodeURIComponent))

// ---- the runs --------------------------------------------------------------------------------------------

const paramsFor = (route: RouteCase, param: fc.Arbitrary<string>) => fc.array(param, { minLength: (route.path.match(/:/g) ?? []).length, maxLength: (route.path.match(/:/g) ?? []).length })

it.live("hostile requests: no 5xx, no hang, the platform's error shape, and refusals change nothing", () => {
  const dir = mkdtempSync(join(tmpdir(), "sitefx-fuzz-"))
  const file = join(dir, "platform.db")
  return Effect.scoped(Effect.gen(function*() {
    const context = yield* Layer.build(LocalPlatform.layer({ db: file }))
    yield* Effect.provideContext(
      Effect.gen(function*() {
        const platform = yield* LocalPlatform
        const key = Redacted.value(platform.apiKey)
        const callers: ReadonlyArray<Caller> = [
          { name: "nobody", headers: {} },
          { name: "visitor", headers: { authorization: yield* visitorToken } },
          { name: "member", headers: { authorization: (yield* memberToken).token } },
          { name: "admin", headers: { authorization: key, "wix-site-id": platform.siteId } }
        ]
        const prototypeBefore = Object.getOwnPropertyNames(Object.prototype).sort()
        const before = snapshotTables(file)
        const failures: Array<string> = []
        const check = async (route: RouteCase, wire: Wire, caller: Caller, mustRefuse: boolean) => {
          const label = `${caller.name} ${route.method} ${route.path} ${wire.params.join("/")} ?${wire.search.slice(0, 120)} ${String(wire.body ?? "").slice(0, 1000)}`
          let answer: Answer
          try {
            answer = await send(platform.url, route, wire, caller)
          } catch (error) {
            failures.push(`${label}: no answer (${String(error)})`)
            return false
          }
          const wrong = problem(route, answer) ??
            (mustRefuse && answer.status < 400 && !(wire.itemsMayFail === true && answer.status === 200) ? `a request that cannot be valid answered ${answer.status}` : undefined)
          if (wrong !== undefined) failures.push(`${label.slice(0, 1200)}: ${wrong}`)
          return wrong === undefined
        }

        // 1. requests that cannot be valid, to every route that reads what it is sent: they must change nothing
        yield* Effect.promise(() =>
          fc.assert(
            fc.asyncProperty(
              fc.constantFrom(...ROUTES.filter((r) => r.takesNothing !== true)).chain((route) =>
                fc.record({
                  route: fc.constant(route),
                  caller: fc.constantFrom(...callers),
                  params: paramsFor(route, hostileParam),
                  wire: route.input === "query" ? invalidQuery : invalidBody(route)
                })
              ),
              ({ caller, params, route, wire }) => check(route, { ...wire, params }, caller, route.input !== "query" && route.page !== true)
            ),
            { seed: SEED, numRuns: 1000 * RUNS, endOnFailure: true }
          ).catch((e) => failures.push(`seed ${SEED}: ${String(e).split("\n")[0]}`))
        )
        const after = snapshotTables(file)
        for (const table of Object.keys(before)) {
          if (JSON.stringify(before[table]) !== JSON.stringify(after[table])) failures.push(`refused requests changed the table ${table}`)
        }

        // 2. anything at all, except what wipes or steers the platform on purpose
        const open = ROUTES.filter((r) => r.wipes !== true && r.steers !== true)
        yield* Effect.promise(() =>
          fc.assert(
            fc.asyncProperty(
              fc.constantFrom(...open).chain((route) =>
                fc.record({ route: fc.constant(route), caller: fc.constantFrom(...callers), params: paramsFor(route, anyParam), wire: anyWire(route) })
              ),
              ({ caller, params, route, wire }) => check(route, { ...wire, params }, caller, false)
            ),
            { seed: SEED + 1, numRuns: 1500 * RUNS, endOnFailure: true }
          ).catch((e) => failures.push(`seed ${SEED + 1}: ${String(e).split("\n")[0]}`))
        )

        // nothing a request sent reached a prototype or another client's answers
        const prototypeAfter = Object.getOwnPropertyNames(Object.prototype).sort()
        if (JSON.stringify(prototypeAfter) !== JSON.stringify(prototypeBefore)) failures.push(`Object.prototype now holds ${prototypeAfter.join(", ")}`)
        const probe = yield* Effect.promise(() =>
          send(platform.url, ROUTES.find((r) => r.path === "/wix-data/v2/items/query" && r.method === "POST")!, { params: [], search: "", body: "{}", contentType: "application/json" }, callers[3]!)
        )
        if (probe.status !== 400) failures.push(`a query without a collection answered ${probe.status} after the run: ${probe.text.slice(0, 200)}`)
        if (probe.headers.get("x-any") !== null) failures.push("a planted header is in later answers")
        assert.deepStrictEqual(failures.slice(0, 20), [], `${failures.length} failures (FUZZ_SEED=${SEED})`)
      }),
      context
    )
  })).pipe(Effect.ensuring(Effect.sync(() => rmSync(dir, { recursive: true, force: true }))))
}, 120_000)
