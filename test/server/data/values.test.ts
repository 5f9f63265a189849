/**
 * How the engine stores dates: every `{"$date"}` text becomes `toISOString()`'s form, so dates compare
 * and sort as text in SQL. Texts already in that form are kept without a parse; the reference below is
 * the parse itself.
 */
import { assert, describe, it } from "@effect/vitest"
import * as fc from "fast-check"
import { type Json, modifiedFields, normalizeDates, normalizeIso, sameJson } from "../../../src/server/store/values.ts"

/** What normalizing means: the parsed instant written by `toISOString` (years 0000–9999), else the text as it was. */
const reference = (iso: string): string => {
  const millis = Date.parse(iso)
  if (Number.isNaN(millis)) return iso
  const d = new Date(millis)
  return d.getUTCFullYear() >= 0 && d.getUTCFullYear() <= 9999 ? d.toISOString() : iso
}

const pad = (n: number, width: number) => String(n).padStart(width, "0")

describe("date normalizing", () => {
  it("keeps every toISOString text as it is, and reads near-misses (day 31 of a 30-day month, hour 24, 29 February) as the parse does", () => {
    fc.assert(fc.property(fc.integer({ min: -62_167_219_200_000, max: 253_402_300_799_999 }), (t) => {
      const iso = new Date(t).toISOString()
      return normalizeIso(iso) === iso
    }), { numRuns: 3000 })
    // each field anywhere in or just outside its range
    const nearIso = fc.tuple(
      fc.integer({ min: 0, max: 9999 }),
      fc.integer({ min: 0, max: 13 }),
      fc.integer({ min: 0, max: 32 }),
      fc.integer({ min: 0, max: 24 }),
      fc.integer({ min: 0, max: 60 }),
      fc.integer({ min: 0, max: 60 }),
      fc.integer({ min: 0, max: 999 })
    ).map(([y, mo, d, h, mi, s, ms]) => `${pad(y, 4)}-${pad(mo, 2)}-${pad(d, 2)}T${pad(h, 2)}:${pad(mi, 2)}:${pad(s, 2)}.${pad(ms, 3)}Z`)
    fc.assert(fc.property(nearIso, (iso) => normalizeIso(iso) === reference(iso)), { numRuns: 5000 })
    for (const iso of ["2024-02-29T00:00:00.000Z", "2023-02-29T00:00:00.000Z", "1900-02-29T00:00:00.000Z", "2000-02-29T23:59:59.999Z", "2024-04-31T00:00:00.000Z",
      "2024-01-01T24:00:00.000Z", "2024-01-01T00:00:00Z", "2024-01-01", "+012024-01-01T00:00:00.000Z", "2024-1a-01T00:00:00.000Z", "not a date", "0000-01-01T00:00:00.000Z"]) {
      assert.strictEqual(normalizeIso(iso), reference(iso), iso)
    }
  })

  it("normalizeDates rewrites only what changes and leaves the rest shared", () => {
    const kept = { a: { $date: "2024-03-31T10:00:00.000Z" }, list: [{ $date: "2024-01-01T00:00:00.000Z" }] }
    assert.strictEqual(normalizeDates(kept), kept)
    const loose = { a: { $date: "2024-03-31T10:00:00Z" }, other: { n: 1 } }
    const normal = normalizeDates(loose) as typeof loose
    assert.deepStrictEqual(normal.a, { $date: "2024-03-31T10:00:00.000Z" })
    assert.strictEqual(normal.other, loose.other)
    assert.strictEqual(loose.a.$date, "2024-03-31T10:00:00Z", "the input is unchanged")
  })
})

describe("the fields an update changed", () => {
  it("names each top-level field whose value differs, with its value before (null where it had none)", () => {
    const before: Json = { _id: "a", title: "x", tags: ["a", "b"], when: { $date: "2024-01-01T00:00:00.000Z" }, gone: 1, same: { p: 1, q: [1, { r: 2 }] } }
    const after: Json = { _id: "a", title: "y", tags: ["b", "a"], when: { $date: "2024-01-01T00:00:00.000Z" }, added: true, same: { q: [1, { r: 2 }], p: 1 } }
    assert.deepStrictEqual({ ...modifiedFields(before, after) }, { title: "x", tags: ["a", "b"], gone: 1, added: null })
    assert.deepStrictEqual({ ...modifiedFields(after, after) }, {})
    // a field named __proto__ is a field like any other
    const odd = modifiedFields(JSON.parse('{"__proto__": 1}') as Json, {})
    assert.strictEqual(JSON.stringify(odd), '{"__proto__":1}')
  })

  it("sameJson is JSON equality up to the order of object keys", () => {
    const sortKeys = (v: unknown): unknown =>
      Array.isArray(v) ? v.map(sortKeys) : typeof v === "object" && v !== null ? Object.fromEntries(Object.keys(v).sort().map((k) => [k, sortKeys((v as Record<string, unknown>)[k])])) : v
    fc.assert(fc.property(fc.jsonValue(), fc.jsonValue(), (a, b) => {
      assert.strictEqual(sameJson(a, b), JSON.stringify(sortKeys(a)) === JSON.stringify(sortKeys(b)))
      assert.isTrue(sameJson(a, structuredClone(a)))
    }))
  })
})
