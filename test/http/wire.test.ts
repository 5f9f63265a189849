/**
 * The pure half of the wire layer: how a PlatformRequest becomes a URL and a body (toWire), the `.r`
 * encoding, simple-param flattening, `$date` values and how an error body becomes a PlatformError.
 */
import { assert, describe, it } from "@effect/vitest"
import * as fc from "fast-check"
import { PlatformError, reasonFromResponse } from "../../src/http/PlatformError.ts"
import { SystemError, TransportError, ValidationError } from "../../src/http/reasons.ts"
import { isIdempotent, type PlatformRequest, toWire } from "../../src/http/PlatformRequest.ts"
import { encodeDates, reviveDates } from "../../src/http/wire.ts"
import { base64url, flattenParams, fromBase64url, isComplexPayload, isoString } from "../../src/http/codec.ts"

const BASE = "http://127.0.0.1:9999"

/** The decoded `.r` parameter of a wire URL. */
const rParam = (url: string): unknown => {
  const u = new URL(url)
  assert.deepStrictEqual([...u.searchParams.keys()], [".r"])
  const value = u.searchParams.get(".r") ?? ""
  assert.match(value, /^[A-Za-z0-9_-]+$/)
  return JSON.parse(Buffer.from(value, "base64url").toString("utf8"))
}

describe("base64url", () => {
  it("has no padding and uses - and _ (checked against Node's own base64url)", () => {
    // "???" and "~~~" encode to "/" and "+" in standard base64; the odd length forces padding
    const text = "??~~~>>>\u00e9\u20ac?"
    const standard = Buffer.from(text, "utf8").toString("base64")
    assert.match(standard, /[+/]/)
    assert.match(standard, /=$/)
    const encoded = base64url(text)
    assert.strictEqual(encoded, Buffer.from(text, "utf8").toString("base64url"))
    assert.notMatch(encoded, /[+/=]/)
    assert.strictEqual(fromBase64url(encoded), text)
  })

  it("round trips any unicode string (property)", () => {
    fc.assert(fc.property(fc.string({ unit: "grapheme" }), (s) => {
      const encoded = base64url(s)
      assert.notMatch(encoded, /[+/=]/)
      assert.strictEqual(encoded, Buffer.from(s, "utf8").toString("base64url"))
      assert.strictEqual(fromBase64url(encoded), s)
    }))
  })

  it("latin1 mode encodes raw bytes (as PKCE does)", () => {
    const bytes = Uint8Array.from([0, 255, 254, 62, 63, 128])
    assert.strictEqual(base64url(String.fromCharCode(...bytes), "latin1"), Buffer.from(bytes).toString("base64url"))
  })
})

describe("flattenParams / isComplexPayload", () => {
  it("flattens nested objects with dots and repeats arrays, skipping null and undefined", () => {
    assert.deepStrictEqual(
      flattenParams({ a: { b: 1, c: { d: true } }, ids: ["x", "y"], n: null, u: undefined, s: "t" }),
      [["a.b", "1"], ["a.c.d", "true"], ["ids", "x"], ["ids", "y"], ["s", "t"]]
    )
  })

  it("sends dates as ISO strings", () => {
    assert.deepStrictEqual(flattenParams({ at: new Date(Date.UTC(2024, 0, 2, 3, 4, 5)) }), [["at", "2024-01-02T03:04:05.000Z"]])
  })

  it("calls a payload complex when it holds an object or an array of objects", () => {
    assert.isFalse(isComplexPayload({ a: 1, b: "x", c: ["x", 1], d: new Date(0), e: null }))
    assert.isTrue(isComplexPayload({ query: { filter: {} } }))
    assert.isTrue(isComplexPayload({ sort: [{ fieldName: "a" }] }))
  })
})

describe("toWire", () => {
  it("POST/PUT/PATCH carry a JSON body ({} without payload); DELETE and GET never do", () => {
    assert.deepStrictEqual(toWire({ method: "POST", path: "/p" }, BASE), { method: "POST", url: `${BASE}/p`, body: "{}" })
    assert.deepStrictEqual(toWire({ method: "PATCH", path: "/p", payload: { a: [1] } }, BASE), {
      method: "PATCH",
      url: `${BASE}/p`,
      body: "{\"a\":[1]}"
    })
    assert.deepStrictEqual(toWire({ method: "DELETE", path: "/p/1", payload: { id: "1" } }, BASE), {
      method: "DELETE",
      url: `${BASE}/p/1?id=1`,
      body: undefined
    })
    assert.deepStrictEqual(toWire({ method: "GET", path: "/p" }, BASE), { method: "GET", url: `${BASE}/p`, body: undefined })
    // a body written already goes as it is, whatever the payload says
    const json = `{"b":{"$date":"2020-01-01T00:00:00.000Z"}}`
    assert.deepStrictEqual(toWire({ method: "POST", path: "/p", json, payload: { ignored: true }, dates: true }, BASE), { method: "POST", url: `${BASE}/p`, body: json })
  })

  it("appends params with & when the path already has a query", () => {
    assert.strictEqual(toWire({ method: "GET", path: "/p?x=1", payload: { y: 2 } }, BASE).url, `${BASE}/p?x=1&y=2`)
    const complex = toWire({ method: "GET", path: "/p?x=1", payload: { q: { a: 1 } }, complex: {} }, BASE).url
    assert.isTrue(complex.startsWith(`${BASE}/p?x=1&.r=`))
  })

  it("complex GETs travel as .r; a simple payload stays flattened (as the official client does)", () => {
    const payload = { dataCollectionId: "C", query: { filter: { title: { $startsWith: "a/b+c?" } }, paging: { limit: 2 } } }
    const wire = toWire({ method: "GET", path: "/items/query", payload, complex: {} }, BASE)
    assert.strictEqual(wire.method, "GET")
    assert.isUndefined(wire.body)
    assert.deepStrictEqual(rParam(wire.url), payload)
    assert.strictEqual(
      toWire({ method: "GET", path: "/items/x", payload: { dataCollectionId: "C" }, complex: {} }, BASE).url,
      `${BASE}/items/x?dataCollectionId=C`
    )
  })

  it("with a fallback even a simple payload travels as .r", () => {
    const wire = toWire(
      { method: "GET", path: "/q", payload: { a: 1 }, complex: { fallback: { path: "/q", limit: { kind: "url", max: 2048 } } } },
      BASE
    )
    assert.deepStrictEqual(rParam(wire.url), { a: 1 })
  })

  it("query-kind fallback: the query string (.r=...) is measured, not the URL, with an inclusive maximum", () => {
    const payload = { query: { filter: { name: "x".repeat(500) } } }
    const req = (max: number): PlatformRequest => ({
      method: "GET",
      path: "/products/query",
      payload,
      complex: { fallback: { path: "/products/query-post", limit: { kind: "query", max } } }
    })
    const queryLength = `.r=${base64url(JSON.stringify(payload))}`.length
    const longBase = `http://${"h".repeat(1000)}.example`
    const at = toWire(req(queryLength), longBase)
    assert.strictEqual(at.method, "GET")
    assert.isAbove(at.url.length, queryLength + 1000)
    const over = toWire(req(queryLength - 1), longBase)
    assert.deepStrictEqual(over, { method: "POST", url: `${longBase}/products/query-post`, body: JSON.stringify(payload) })
  })

  it("url-kind fallback measures the whole URL, inclusive", () => {
    const payload = { q: { s: "y".repeat(300) } }
    const req = (max: number): PlatformRequest => ({
      method: "GET",
      path: "/items/query",
      payload,
      complex: { fallback: { path: "/items/query", limit: { kind: "url", max } } }
    })
    const urlLength = toWire(req(1_000_000), BASE).url.length
    assert.strictEqual(toWire(req(urlLength), BASE).method, "GET")
    assert.strictEqual(toWire(req(urlLength - 1), BASE).method, "POST")
  })

  it("dates: true encodes Dates as {$date} in the body; otherwise JSON turns them into plain strings", () => {
    const at = new Date(Date.UTC(2020, 1, 3))
    assert.strictEqual(
      toWire({ method: "POST", path: "/p", payload: { at }, dates: true }, BASE).body,
      "{\"at\":{\"$date\":\"2020-02-03T00:00:00.000Z\"}}"
    )
    assert.strictEqual(toWire({ method: "POST", path: "/p", payload: { at } }, BASE).body, "{\"at\":\"2020-02-03T00:00:00.000Z\"}")
  })

  it("idempotency defaults: GET, PUT, DELETE yes; POST, PATCH no; explicit flag wins", () => {
    assert.isTrue(isIdempotent({ method: "GET", path: "/" }))
    assert.isTrue(isIdempotent({ method: "PUT", path: "/" }))
    assert.isTrue(isIdempotent({ method: "DELETE", path: "/" }))
    assert.isFalse(isIdempotent({ method: "POST", path: "/" }))
    assert.isFalse(isIdempotent({ method: "PATCH", path: "/" }))
    assert.isTrue(isIdempotent({ method: "POST", path: "/", idempotent: true }))
    assert.isFalse(isIdempotent({ method: "GET", path: "/", idempotent: false }))
  })
})

/** The reference for {@link reviveDates}: every `{"$date": iso}` (that key alone, a valid date) made a `Date`, in a copy. */
const decodeDates = (value: unknown): unknown => {
  if (Array.isArray(value)) return value.map(decodeDates)
  if (typeof value === "object" && value !== null) {
    const keys = Object.keys(value)
    const iso = (value as { $date?: unknown }).$date
    if (keys.length === 1 && keys[0] === "$date" && typeof iso === "string") {
      const d = new Date(iso)
      return Number.isNaN(d.getTime()) ? value : d
    }
    const out: Record<string, unknown> = {}
    for (const [k, v] of Object.entries(value)) out[k] = decodeDates(v)
    return out
  }
  return value
}

describe("$date values", () => {
  it("encode and decode nested in arrays and objects", () => {
    const a = new Date(Date.UTC(2021, 5, 6, 7, 8, 9, 10))
    const b = new Date(0)
    const value = { x: a, list: [b, { deep: [a] }], n: 1, s: "s", nul: null }
    const encoded = encodeDates(value)
    assert.deepStrictEqual(encoded, {
      x: { $date: a.toISOString() },
      list: [{ $date: b.toISOString() }, { deep: [{ $date: a.toISOString() }] }],
      n: 1,
      s: "s",
      nul: null
    })
    const decoded = decodeDates(JSON.parse(JSON.stringify(encoded))) as typeof value
    assert.instanceOf(decoded.x, Date)
    assert.strictEqual(decoded.x.getTime(), a.getTime())
    assert.deepStrictEqual(decoded, value)
  })

  it("encodeDates changes nothing it is given and copies only what leads to a Date", () => {
    const a = new Date(Date.UTC(2021, 5, 6, 7, 8, 9, 10))
    const plain = { n: 1, tags: ["x", "y"], nested: { deep: [{ s: "s" }] } }
    assert.strictEqual(encodeDates(plain), plain, "nothing to encode: the value itself")
    const dated = { n: 1, tags: ["x"], when: a, nested: { keep: { s: "s" }, list: [1, { at: a }] } }
    const before = JSON.stringify(dated)
    const encoded = encodeDates(dated) as any
    assert.strictEqual(JSON.stringify(dated), before, "the input is unchanged")
    assert.instanceOf(dated.when, Date)
    assert.notStrictEqual(encoded, dated)
    assert.strictEqual(encoded.tags, dated.tags, "arrays without dates are shared")
    assert.strictEqual(encoded.nested.keep, dated.nested.keep, "objects without dates are shared")
    assert.notStrictEqual(encoded.nested.list, dated.nested.list)
    assert.deepStrictEqual(encoded, { n: 1, tags: ["x"], when: { $date: a.toISOString() }, nested: { keep: { s: "s" }, list: [1, { at: { $date: a.toISOString() } }] } })
    // a key named __proto__ (as JSON.parse makes) stays an own key of the copy
    const proto = JSON.parse(`{"__proto__": {"d": 1}, "x": 1}`) as Record<string, unknown>
    ;(proto["__proto__"] as Record<string, unknown>)["d"] = a
    const encodedProto = encodeDates(proto) as Record<string, unknown>
    assert.isTrue(Object.hasOwn(encodedProto, "__proto__"))
    assert.strictEqual(Object.getPrototypeOf(encodedProto), Object.prototype)
    assert.deepStrictEqual(JSON.parse(JSON.stringify(encodedProto)), JSON.parse(`{"__proto__": {"d": {"$date": "${a.toISOString()}"}}, "x": 1}`))
    assert.instanceOf((proto["__proto__"] as Record<string, unknown>)["d"], Date, "the input is unchanged")
  })

  it("isoString writes what toISOString writes, for every time and outside the four-digit years too", () => {
    const edges = [0, -1, 1, -62_167_219_200_000, -62_167_219_200_001, 253_402_300_799_999, 253_402_300_800_000, 8.64e15, -8.64e15,
      Date.UTC(2000, 1, 29, 23, 59, 59, 999), Date.UTC(1900, 2, 1), Date.UTC(2100, 1, 28, 12), Date.UTC(1600, 1, 29)]
    for (const t of edges) assert.strictEqual(isoString(new Date(t)), new Date(t).toISOString(), String(t))
    fc.assert(fc.property(fc.integer({ min: -8.64e15, max: 8.64e15 }), fc.integer({ min: -1e13, max: 1e13 }), (far, near) => {
      // one time anywhere, one near today; each next to the other so the day cache is used and replaced
      for (const t of [far, near, near + 1, far]) {
        if (isoString(new Date(t)) !== new Date(t).toISOString()) return false
      }
      return true
    }), { numRuns: 2000 })
    assert.throws(() => isoString(new Date(Number.NaN)), RangeError)
  })

  it("leaves look-alikes alone: extra keys, a non-string or an invalid date", () => {
    const lookAlikes = [{ $date: "2020-01-01T00:00:00Z", other: 1 }, { $date: 5 }, { $date: "not a date" }]
    assert.deepStrictEqual(decodeDates(lookAlikes), lookAlikes)
  })

  it("reviveDates: the same result in place (dates exactly as the Date parser reads them), objects kept, look-alikes and __proto__ keys left as they are", () => {
    const a = new Date(Date.UTC(2021, 5, 6, 7, 8, 9, 10))
    const value = { x: a, list: [a, { deep: [a], n: 1 }], s: "s", nul: null, look: { $date: "x" }, more: { $date: a.toISOString(), y: 1 } }
    const text = JSON.stringify(encodeDates(value))
    const parsed = JSON.parse(text) as Record<string, any>
    const inner = parsed["list"][1]
    const revived = reviveDates(parsed) as Record<string, any>
    assert.strictEqual(revived, parsed, "the same object")
    assert.strictEqual(revived["list"][1], inner, "nested objects are kept, not copied")
    assert.deepStrictEqual(revived, decodeDates(JSON.parse(text)))
    assert.instanceOf(revived["list"][1].deep[0], Date)
    const iso = ["2024-02-31T00:00:00.000Z", "2024-13-01T00:00:00.000Z", "2024-01-01T24:00:00.000Z", "2024-01-01T23:60:00.000Z", "2024-01-00T00:00:00.000Z",
      "0000-01-01T00:00:00.000Z", "0099-12-31T23:59:59.999Z", "2024-1a-01T00:00:00.000Z", "2024-01-01T00:00:00Z", "+012024-01-01T00:00:00.000Z",
      "1969-12-31T23:59:59.999Z", ...Array.from({ length: 2000 }, (_, i) => new Date(Math.floor((i - 600) * 1.7e10 + i * 7919)).toISOString())]
    for (const text of iso) {
      const expected = new Date(text)
      const revived = reviveDates({ $date: text })
      if (Number.isNaN(expected.getTime())) assert.deepStrictEqual(revived, { $date: text }, text)
      else assert.strictEqual((revived as Date).getTime(), expected.getTime(), text)
    }
    const proto = JSON.parse(`{"__proto__": {"$date": "${a.toISOString()}"}}`) as object
    reviveDates(proto)
    assert.strictEqual(Object.getPrototypeOf(proto), Object.prototype)
    assert.instanceOf(Object.getOwnPropertyDescriptor(proto, "__proto__")?.value, Date)
  })
})

describe("error bodies", () => {
  it("validation error keeps every field violation", () => {
    const violations = [
      { field: "email", description: "bad", violatedRule: "FORMAT", ruleName: "EMAIL", data: { type: "EMAIL" } },
      { field: "password", description: "short" }
    ]
    const reason = reasonFromResponse({
      status: 400,
      statusText: "Bad Request",
      body: { message: "invalid", details: { validationError: { fieldViolations: violations } } },
      requestId: "r"
    })
    assert.instanceOf(reason, ValidationError)
    assert.deepStrictEqual((reason as ValidationError).fieldViolations, violations)
    assert.strictEqual((reason as ValidationError).requestId, "r")
  })

  it("a body without details is a system error with the message as description; no body uses the status text", () => {
    const withMessage = reasonFromResponse({ status: 403, statusText: "Forbidden", body: { message: "nope" }, requestId: undefined })
    assert.instanceOf(withMessage, SystemError)
    assert.strictEqual((withMessage as SystemError).description, "nope")
    assert.isFalse("requestId" in withMessage)
    const noBody = reasonFromResponse({ status: 418, statusText: "", body: undefined, requestId: undefined })
    assert.strictEqual((noBody as SystemError).description, "HTTP 418")
  })

  it("PlatformError exposes status, code, requestId and a readable message", () => {
    const transport = new PlatformError({ method: "GET", path: "/x", reason: new TransportError({ message: "socket hang up" }) })
    assert.strictEqual(transport.message, "GET /x: socket hang up")
    assert.isUndefined(transport.status)
    assert.strictEqual(transport.code, "TRANSPORT_ERROR")
    assert.isUndefined(transport.requestId)
    assert.deepStrictEqual(transport.fieldViolations, [])
    const system = new PlatformError({
      method: "POST",
      path: "/y",
      reason: new SystemError({ status: 502, message: "m", description: "d", requestId: "rid" })
    })
    assert.strictEqual(system.message, "POST /y: 502 d (request id rid)")
    assert.strictEqual(system.code, "UNAVAILABLE")
    assert.strictEqual(String(system), "PlatformError: POST /y: 502 d (request id rid)")
  })
})
