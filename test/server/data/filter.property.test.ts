/**
 * The SQL translation of filters and sorts against a reference evaluator written here in plain
 * TypeScript: random items (numbers, strings with case and unicode variants, booleans, dates, arrays,
 * nested objects, nulls and missing fields) and random filter trees and sorts must give exactly the
 * same ids in the same order, through offset paging, through cursor paging (small pages, so cursors
 * with mixed sort directions resume many times) and through count.
 *
 * The semantics the reference spells out: values compare only within one type; types sort
 * missing/null < number < string < object < array < boolean < date; strings compare by code point;
 * `$startsWith`/`$endsWith`/`$contains`/`$matches` fold case with `toLowerCase`; `$hasSome`/`$hasAll`
 * look into arrays (a scalar field acts as itself); ties keep insertion order, in the direction of the
 * last sort field.
 */
import { assert, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import fc from "fast-check"
import { LocalPlatform } from "../../../src/server/index.ts"
import { adminCalls } from "./support.ts"

type Json = Record<string, unknown>
type Filter = Record<string, unknown>

// ---- the reference ------------------------------------------------------------------------------

const isObj = (v: unknown): v is Json => typeof v === "object" && v !== null && !Array.isArray(v)
const isDate = (v: unknown): v is { $date: string } => isObj(v) && typeof v["$date"] === "string"
const normIso = (iso: string) => new Date(iso).toISOString()
const norm = (v: unknown): unknown =>
  Array.isArray(v) ? v.map(norm) : isObj(v) ? (isDate(v) ? { $date: normIso(v.$date) } : Object.fromEntries(Object.entries(v).map(([k, x]) => [k, norm(x)]))) : v

const MISSING = Symbol("missing")
const at = (item: Json, field: string): unknown => {
  let cur: unknown = item
  for (const part of field.split(".")) {
    if (!isObj(cur) || !(part in cur)) return MISSING
    cur = cur[part]
  }
  return cur
}

const rank = (v: unknown): number => {
  if (v === MISSING || v === null) return 0
  if (typeof v === "number") return 1
  if (typeof v === "string") return 2
  if (typeof v === "boolean") return 5
  if (Array.isArray(v)) return 4
  return isDate(v) ? 6 : 3
}
const key = (v: unknown): number | string => {
  const r = rank(v)
  if (r === 0) return 0
  if (r === 1 || r === 2) return v as number | string
  if (r === 5) return v ? 1 : 0
  if (r === 6) return (v as { $date: string }).$date
  return JSON.stringify(v)
}
const cmpKey = (a: number | string, b: number | string): number =>
  typeof a === "number" && typeof b === "number" ? a - b : Buffer.compare(Buffer.from(String(a)), Buffer.from(String(b)))
const cmp = (a: unknown, b: unknown): number => rank(a) - rank(b) || cmpKey(key(a), key(b))
const same = (a: unknown, b: unknown) => rank(a) === rank(b) && (rank(a) === 0 || cmpKey(key(a), key(b)) === 0)
const fold = (s: string) => s.toLowerCase()
const escape = (s: string) => s.replace(/[\\^$.*+?()[\]{}|/]/g, "\\$&")

const matches = (filter: Filter, item: Json): boolean =>
  Object.entries(filter).every(([k, v]) => {
    if (k === "$and") return (v as Array<Filter>).every((f) => matches(f, item))
    if (k === "$or") return (v as Array<Filter>).some((f) => matches(f, item))
    if (k === "$not") return !matches(Array.isArray(v) ? v[0] : v, item)
    const value = at(item, k)
    if (isObj(v) && !isDate(v) && Object.keys(v).some((o) => o.startsWith("$"))) return Object.entries(v).every(([op, operand]) => test(op, operand, value, item, k))
    return test("$eq", v, value, item, k)
  })

const test = (op: string, raw: unknown, value: unknown, item: Json, field: string): boolean => {
  const operand = norm(raw)
  switch (op) {
    case "$eq":
      return same(value, operand)
    case "$ne":
      return !same(value, operand)
    case "$gt":
      return rank(value) === rank(operand) && cmpKey(key(value), key(operand)) > 0
    case "$gte":
      return rank(value) === rank(operand) && cmpKey(key(value), key(operand)) >= 0
    case "$lt":
      return rank(value) === rank(operand) && cmpKey(key(value), key(operand)) < 0
    case "$lte":
      return rank(value) === rank(operand) && cmpKey(key(value), key(operand)) <= 0
    case "$in":
      return (operand as Array<unknown>).some((o) => same(value, o))
    case "$hasSome":
      return Array.isArray(value)
        ? (operand as Array<unknown>).some((o) => value.some((e) => same(e, o)))
        : (operand as Array<unknown>).some((o) => same(value, o))
    case "$hasAll": {
      const all = operand as Array<unknown>
      if (all.length === 0) return false
      return Array.isArray(value) ? all.every((o) => value.some((e) => same(e, o))) : all.every((o) => same(value, o))
    }
    case "$startsWith":
      return typeof value === "string" && fold(value).startsWith(fold(operand as string))
    case "$endsWith":
      return typeof value === "string" && fold(value).endsWith(fold(operand as string))
    case "$contains":
      return typeof value === "string" && fold(value).includes(fold(operand as string))
    case "$exists":
      return (value !== MISSING) === operand
    case "$matches": {
      const spec = (operand as { spec: Array<{ type: string; value: string }> }).spec
      const re = new RegExp(`^${spec.map((p) => (p.type === "literal" ? escape(fold(p.value)) : "[ \\t\\n-]")).join("")}$`)
      return typeof value === "string" && re.test(fold(value))
    }
    case "$not":
      return !matches({ [field]: raw }, item)
  }
  throw new Error(`reference: unknown operator ${op}`)
}

interface Sort {
  readonly fieldName: string
  readonly order: "ASC" | "DESC"
}

const reference = (items: ReadonlyArray<Json>, filter: Filter, sort: ReadonlyArray<Sort>): Array<string> => {
  const tieDesc = sort.length > 0 && sort[sort.length - 1]!.order === "DESC"
  return items
    .map((item, seq) => ({ item, seq }))
    .filter(({ item }) => matches(filter, item))
    .sort((a, b) => {
      for (const s of sort) {
        const c = cmp(at(a.item, s.fieldName), at(b.item, s.fieldName))
        if (c !== 0) return s.order === "DESC" ? -c : c
      }
      return tieDesc ? b.seq - a.seq : a.seq - b.seq
    })
    .map(({ item }) => item["_id"] as string)
}

// ---- generators ---------------------------------------------------------------------------------

// small domains, so that items share values and filters select some items but not all
const CHARS = ["a", "A", "b", "B", "é", "É", "ß", "İ", "i", "ı", "Σ", "σ", "ς", "😀", "中", "-", " ", "\t"]
const str = fc.oneof(
  { weight: 3, arbitrary: fc.array(fc.constantFrom("a", "A", "b", "B", "-", " "), { maxLength: 3 }).map((cs) => cs.join("")) },
  { weight: 1, arbitrary: fc.array(fc.constantFrom(...CHARS), { maxLength: 4 }).map((cs) => cs.join("")) }
)
const num = fc.oneof(
  { weight: 4, arbitrary: fc.integer({ min: -4, max: 4 }) },
  { weight: 1, arbitrary: fc.double({ min: -1e6, max: 1e6, noNaN: true, noDefaultInfinity: true }) },
  { weight: 1, arbitrary: fc.constantFrom(0.1, 0.2, 0.3, 2.5, 1e21, -0.5) }
)
const instant = fc.oneof(
  { weight: 3, arbitrary: fc.constantFrom("1999-12-31T23:59:59.999Z", "2000-01-01T00:00:00.000Z", "2024-02-29T12:00:00.000Z", "2038-01-19T03:14:08.000Z").map((s) => new Date(s)) },
  { weight: 1, arbitrary: fc.date({ min: new Date("1970-01-01T00:00:00Z"), max: new Date("2100-01-01T00:00:00Z"), noInvalidDate: true }) }
)
// the same instant written two ways: the engine normalizes both
const date = instant.chain((d) => fc.constantFrom({ $date: d.toISOString() }, { $date: d.toISOString().replace(".000Z", "Z") }))
const comparable = fc.oneof(num, str, fc.boolean(), date)
const scalar = fc.oneof(comparable, fc.constant(null))
const value = fc.oneof(
  { weight: 6, arbitrary: scalar },
  { weight: 2, arbitrary: fc.array(comparable, { maxLength: 3 }) },
  { weight: 1, arbitrary: fc.record({ x: comparable }) }
)
/** The items' own fields, and the system fields the platform keeps beside them (an API key may set `_owner`). */
const FIELDS = ["a", "b", "c", "n.x", "_owner", "_createdDate", "_updatedDate"]
const item = fc.record(
  { a: value, b: value, c: fc.oneof(str, num), n: fc.oneof(fc.record({ x: scalar }), str), _owner: fc.constantFrom("o1", "o2", "O1") },
  { requiredKeys: [] }
)

/** Operands mostly taken from the items themselves, so filters select some items but not all. */
const casesFor = (items: ReadonlyArray<Json>) => {
  const pool: Array<unknown> = []
  const collect = (v: unknown): void => {
    if (Array.isArray(v)) v.forEach(collect)
    else if (isObj(v) && !isDate(v)) Object.values(v).forEach(collect)
    else if (v !== null && v !== undefined) pool.push(v)
  }
  items.forEach(collect)
  const strings = pool.filter((v): v is string => typeof v === "string")
  const fromPool = <A>(values: ReadonlyArray<A>, fallback: fc.Arbitrary<A>): fc.Arbitrary<A> =>
    values.length === 0 ? fallback : fc.oneof({ weight: 3, arbitrary: fc.constantFrom(...values) }, { weight: 1, arbitrary: fallback })
  const cmpValue = fromPool(pool as ReadonlyArray<unknown>, comparable as fc.Arbitrary<unknown>)
  const scalarValue = fc.oneof({ weight: 5, arbitrary: cmpValue }, { weight: 1, arbitrary: fc.constant(null) })
  // part of a string the items hold, in another case now and then
  const text = fromPool(strings, str).chain((s) =>
    fc.tuple(fc.nat({ max: s.length }), fc.nat({ max: s.length }), fc.boolean()).map(([a, b, upper]) => {
      const part = [...s].slice(Math.min(a, b), Math.max(a, b)).join("")
      return upper ? part.toUpperCase() : part
    }))
  const spec = fc.array(
    fc.oneof(fc.record({ type: fc.constant("literal"), value: text.filter((t) => t !== "") }), fc.constant({ type: "anyOf", value: " \t\n-" })),
    { minLength: 1, maxLength: 3 }
  )
  const wholeSpec = fromPool(strings, str).map((s) =>
    s.split(/[ \t\n-]/).flatMap((part, i) => [...(i > 0 ? [{ type: "anyOf", value: " \t\n-" }] : []), ...(part === "" ? [] : [{ type: "literal", value: part }])])
  ).filter((parts) => parts.length > 0)
  const condition: fc.Arbitrary<unknown> = fc.oneof(
    fc.record({ $eq: fc.oneof(scalarValue, fc.array(cmpValue, { maxLength: 2 })) }),
    fc.record({ $ne: scalarValue }),
    fc.record({ $gt: cmpValue }),
    fc.record({ $gte: cmpValue }),
    fc.record({ $lt: cmpValue }),
    fc.record({ $lte: cmpValue }),
    fc.record({ $gt: cmpValue, $lt: cmpValue }),
    fc.record({ $in: fc.array(cmpValue, { maxLength: 3 }) }),
    fc.record({ $hasSome: fc.array(cmpValue, { maxLength: 3 }) }),
    fc.record({ $hasAll: fc.array(cmpValue, { maxLength: 2 }) }),
    fc.record({ $startsWith: text }),
    fc.record({ $endsWith: text }),
    fc.record({ $contains: text }),
    fc.record({ $exists: fc.boolean() }),
    fc.record({ $matches: fc.record({ ignoreCase: fc.constant(true), spec: fc.oneof(spec, wholeSpec) }) }),
    fc.record({ $not: fc.record({ $gt: cmpValue }) }),
    scalarValue
  )
  const ids = items.map((i) => i["_id"] as string)
  const leaf = fc.oneof(
    { weight: 8, arbitrary: fc.tuple(fc.constantFrom(...FIELDS), condition).map(([field, c]) => ({ [field]: c }) as Filter) },
    { weight: 1, arbitrary: fc.tuple(fromPool(ids, fc.constant("i00")), fc.constantFrom("$eq", "$gt", "$lte", "$ne")).map(([id, op]) => ({ _id: { [op]: id } }) as Filter) },
    { weight: 1, arbitrary: fc.array(fromPool(ids, fc.constant("i00")), { maxLength: 3 }).map((list) => ({ _id: { $in: list } }) as Filter) }
  )
  const filter: fc.Arbitrary<Filter> = fc.letrec<{ node: Filter }>((tie) => ({
    node: fc.oneof(
      { depthSize: "small", withCrossShrink: true },
      { weight: 5, arbitrary: leaf },
      { weight: 1, arbitrary: fc.array(tie("node"), { maxLength: 3 }).map((fs) => ({ $and: fs })) },
      { weight: 1, arbitrary: fc.array(tie("node"), { maxLength: 3 }).map((fs) => ({ $or: fs })) },
      { weight: 1, arbitrary: tie("node").chain((f) => fc.constantFrom({ $not: f }, { $not: [f] })) }
    )
  })).node
  const sorts = fc.array(fc.record({ fieldName: fc.constantFrom(...FIELDS, "_id"), order: fc.constantFrom("ASC" as const, "DESC" as const) }), { maxLength: 2 })
  return fc.array(fc.tuple(filter, sorts, fc.integer({ min: 1, max: 7 })), { minLength: 1, maxLength: 4 })
}

const dataset = fc.array(item, { minLength: 3, maxLength: 30, size: "max" })
  .map((raw) => raw.map((data, i) => ({ _id: `i${String(i).padStart(2, "0")}`, ...data }) as Json))
  .chain((items) => fc.tuple(fc.constant(items), casesFor(items), fc.integer({ min: 1, max: 3 })))

// ---- the run ------------------------------------------------------------------------------------

it.layer(LocalPlatform.layer({ seed: "none" }), { excludeTestServices: true })("filters and sorts in SQL", (it) => {
  it.effect("match a reference evaluator: ids, order, cursor pages and counts", () =>
    Effect.gen(function*() {
      const { post } = yield* adminCalls
      let run = 0
      let cases_ = 0
      let selective = 0
      yield* Effect.promise(() =>
        fc.assert(
          fc.asyncProperty(
            dataset,
            async ([items, cases, writes]) => {
              const collection = `Prop_${run++}`
              await post("/collections", { collection: { id: collection } })
              // in up to three bulk writes a few milliseconds apart, so the items' dates differ too
              const per = Math.ceil(items.length / writes)
              for (let at = 0; at < items.length; at += per) {
                if (at > 0) await new Promise((resolve) => setTimeout(resolve, 3))
                await post("/bulk/items/insert", { dataCollectionId: collection, dataItems: items.slice(at, at + per).map((data) => ({ id: data["_id"], data })) })
              }
              // the reference sees the items as the platform answers them, system fields included
              const all = await post("/items/query", { dataCollectionId: collection, query: { paging: { limit: 1000 } } })
              const stored = (all.dataItems as Array<{ data: Json }>).map((d) => d.data)
              assert.deepStrictEqual(stored.map((d) => d["_id"]), items.map((i) => i["_id"]))
              assert.deepStrictEqual(stored.map((d) => d["_owner"]), items.map((i) => i["_owner"]))
              assert.deepStrictEqual(stored, stored.map((d) => norm(d)))
              for (const [f, sort, pageSize] of cases) {
                const expected = reference(stored, f, sort)
                cases_++
                if (expected.length > 0 && expected.length < stored.length) selective++
                const offset = await post("/items/query", { dataCollectionId: collection, query: { filter: f, sort, paging: { limit: 1000 } } })
                assert.deepStrictEqual(offset.dataItems.map((d: any) => d.id), expected, `offset ${JSON.stringify({ f, sort })}`)
                assert.isFalse(offset.pagingMetadata.hasNext)
                const paged: Array<string> = []
                let page = await post("/items/query", { dataCollectionId: collection, query: { filter: f, sort, cursorPaging: { limit: pageSize } } })
                paged.push(...page.dataItems.map((d: any) => d.id))
                while (page.pagingMetadata.hasNext) {
                  page = await post("/items/query", { dataCollectionId: collection, query: { cursorPaging: { limit: pageSize, cursor: page.pagingMetadata.cursors.next } } })
                  paged.push(...page.dataItems.map((d: any) => d.id))
                }
                assert.deepStrictEqual(paged, expected, `cursor pages of ${pageSize} ${JSON.stringify({ f, sort })}`)
                const counted = await post("/items/count", { dataCollectionId: collection, filter: f })
                assert.strictEqual(counted.totalCount, expected.length)
              }
            }
          ),
          { numRuns: 150 }
        )
      )
      // the generators must keep producing filters that separate items, or the comparison proves little
      assert.isAbove(selective / cases_, 0.2, `only ${selective} of ${cases_} filters selected some items but not all`)
    }), 120_000)
})
