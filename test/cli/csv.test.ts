/**
 * The CSV codec of `sitefx data export/import`: rows written by encodeRow come back from CsvReader
 * field for field and with their line numbers, however the text is cut into chunks; malformed records
 * are error records at their line and reading goes on; cells are written by toCell and typed back by
 * the collection's fields, with every bad cell of a row in one message.
 */
import fc from "fast-check"
import { describe, expect, it } from "vitest"
import {
  columnsFor,
  type CsvRecord,
  CsvReader,
  encodeRow,
  encodeValues,
  makeCellReader,
  recordToItem,
  toCell
} from "../../src/data/formats/csv.ts"

/** Reads `text` cut at the given offsets (any order, duplicates and out-of-range ones allowed). */
const readChunks = (text: string, cuts: ReadonlyArray<number> = []): Array<CsvRecord> => {
  const points = [...new Set(cuts.map((c) => c % (text.length + 1)))].sort((a, b) => a - b)
  const reader = new CsvReader()
  const out: Array<CsvRecord> = []
  let from = 0
  for (const p of points) {
    out.push(...reader.push(text.slice(from, p)))
    from = p
  }
  out.push(...reader.push(text.slice(from)))
  out.push(...reader.end())
  return out
}

/** Reads `text` one character (UTF-16 code unit) at a time: every possible cut at once. */
const readByChar = (text: string): Array<CsvRecord> => readChunks(text, Array.from({ length: text.length }, (_, i) => i))

const lineBreaks = (text: string): number => text.match(/\r\n|\r|\n/g)?.length ?? 0

const Field = fc.oneof(
  fc.string({ unit: fc.constantFrom(",", "\"", "\r", "\n", "\r\n", " ", "a", "Z", "1", "é", "日", "😀", "\uFEFF", "\t"), maxLength: 12 }),
  fc.string({ unit: "grapheme", maxLength: 8 }),
  fc.constant("")
)
const Row = fc.array(Field, { minLength: 1, maxLength: 6 })

describe("CsvReader", () => {
  it("gives back the rows encodeRow wrote, with their start lines, however the text is chunked", () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.record({ fields: Row, crlf: fc.boolean(), blankBefore: fc.array(fc.constantFrom("\n", "\r\n", "\r"), { maxLength: 2 }) }),
          { maxLength: 15 }
        ),
        fc.boolean(),
        fc.boolean(),
        fc.array(fc.nat(), { maxLength: 30 }),
        (rows, bom, trailingNewline, cuts) => {
          let text = bom ? "\uFEFF" : ""
          const expected: Array<CsvRecord> = []
          for (const row of rows) {
            text += row.blankBefore.join("")
            // encodeRow writes a lone empty field as `""` (an empty line would be a blank one)
            expected.push(row.fields.length === 1 && row.fields[0] === ""
              ? { line: 1 + lineBreaks(text), fields: row.fields, emptyText: [0] }
              : { line: 1 + lineBreaks(text), fields: row.fields })
            const line = encodeRow(row.fields)
            text += row.crlf ? `${line.slice(0, -1)}\r\n` : line
          }
          if (!trailingNewline && rows.length > 0) text = text.slice(0, text.endsWith("\r\n") ? -2 : -1)
          expect(readChunks(text, cuts)).toEqual(expected)
        }
      ),
      { numRuns: 500 }
    )
  })

  it("reads any chunking of a fixed text the same as the whole text", () => {
    const text = "\uFEFFid,\"note, with comma\",x\r\n\r\n1,\"line\r\nbreak and \"\"quote\"\"\",\n\"\",\" lead\",\"\r\"\n2,\"a\"\"b\",c"
    const whole = readChunks(text)
    expect(whole).toEqual([
      { line: 1, fields: ["id", "note, with comma", "x"] },
      { line: 3, fields: ["1", "line\r\nbreak and \"quote\"", ""] },
      { line: 5, fields: ["", " lead", "\r"], emptyText: [0] },
      { line: 7, fields: ["2", "a\"b", "c"] }
    ])
    expect(readByChar(text)).toEqual(whole)
    for (let cut = 0; cut <= text.length; cut++) expect(readChunks(text, [cut])).toEqual(whole)
  })

  it("drops a UTF-8 BOM at the very start only, also when it comes alone", () => {
    expect(readChunks("\uFEFFa,b\n")).toEqual([{ line: 1, fields: ["a", "b"] }])
    expect(readChunks("\uFEFF\"a\",b\n", [1])).toEqual([{ line: 1, fields: ["a", "b"] }])
    expect(readChunks("\uFEFF\nx\n")).toEqual([{ line: 2, fields: ["x"] }])
    expect(readChunks("a\n\uFEFFb\n")).toEqual([{ line: 1, fields: ["a"] }, { line: 2, fields: ["\uFEFFb"] }])
    const reader = new CsvReader()
    expect(reader.push("")).toEqual([])
    expect(reader.push("\uFEFF")).toEqual([])
    expect([...reader.push("a\n"), ...reader.end()]).toEqual([{ line: 1, fields: ["a"] }])
  })

  it("reads a last line without a line break, and nothing from empty or blank text", () => {
    expect(readChunks("a,b\nc,d")).toEqual([{ line: 1, fields: ["a", "b"] }, { line: 2, fields: ["c", "d"] }])
    expect(readChunks("a,\"b\"")).toEqual([{ line: 1, fields: ["a", "b"] }])
    expect(readChunks("a,")).toEqual([{ line: 1, fields: ["a", ""] }])
    expect(readChunks("")).toEqual([])
    expect(readChunks("\n\r\n\r")).toEqual([])
  })

  it("skips blank lines but counts them, and counts LF, CRLF and a lone CR as one line each", () => {
    expect(readChunks("\n\r\na\n\n\nb\n")).toEqual([{ line: 3, fields: ["a"] }, { line: 6, fields: ["b"] }])
    expect(readChunks("a\rb\r\nc\nd")).toEqual([
      { line: 1, fields: ["a"] },
      { line: 2, fields: ["b"] },
      { line: 3, fields: ["c"] },
      { line: 4, fields: ["d"] }
    ])
    expect(readChunks("a\r\nb", [2])).toEqual([{ line: 1, fields: ["a"] }, { line: 2, fields: ["b"] }])
    expect(readChunks("\"x\r\ny\rz\nw\",1\nnext\n", [3])).toEqual([
      { line: 1, fields: ["x\r\ny\rz\nw", "1"] },
      { line: 5, fields: ["next"] }
    ])
  })

  it("keeps empty fields: a trailing comma, commas alone, and a quoted empty field on its own line", () => {
    expect(readChunks("a,\n,\n\"\"\n,,x\n")).toEqual([
      { line: 1, fields: ["a", ""] },
      { line: 2, fields: ["", ""] },
      { line: 3, fields: [""], emptyText: [0] },
      { line: 4, fields: ["", "", "x"] }
    ])
  })

  it("tells an absent value (an empty cell) from an empty text (`\"\"`), writing and reading", () => {
    const row = encodeValues(["", undefined, null, "x", "", 0])
    expect(row).toBe("\"\",,,x,\"\",0\n")
    const [record] = readChunks(`a,b,c,d,e,f\n${row}`).slice(1)
    expect(record).toEqual({ line: 2, fields: ["", "", "", "x", "", "0"], emptyText: [0, 4] })
    // at the end of the text too, and by chunks cut anywhere
    for (let cut = 0; cut <= row.length; cut++) expect(readChunks(row.slice(0, -1), [cut])).toEqual([{ line: 1, fields: ["", "", "", "x", "", "0"], emptyText: [0, 4] }])
    const reader = makeCellReader([{ key: "a", type: "TEXT" }, { key: "f", type: "NUMBER" }, { key: "e", type: "NUMBER" }])
    const item = recordToItem(["a", "b", "c", "d", "e", "f"], record as { line: number; fields: Array<string>; emptyText: Array<number> }, reader)
    // a text column's `""` is an empty text; a number column's is no value; an empty cell is no value
    expect(item).toEqual({ ok: true, item: { a: "", d: "x", f: 0 } })
  })

  it("reports a quote inside an unquoted field at the record's line and goes on with the next record", () => {
    const text = "id,name\n1,ab\"c,d\n2,ok\n"
    const expected = [
      { line: 1, fields: ["id", "name"] },
      { line: 2, error: "unexpected quote in an unquoted field (column 2)" },
      { line: 3, fields: ["2", "ok"] }
    ]
    expect(readChunks(text)).toEqual(expected)
    expect(readByChar(text)).toEqual(expected)
  })

  it("reports text after a closing quote and finds the record's end outside quotes", () => {
    // the rest of the bad record holds a quoted line break: the next record starts two lines on
    const text = "\"a\"x,\"multi\nline\"\nnext,1\r\n\"b\" ,2\nlast,3"
    const expected = [
      { line: 1, error: "unexpected text after a closing quote (column 1)" },
      { line: 3, fields: ["next", "1"] },
      { line: 4, error: "unexpected text after a closing quote (column 1)" },
      { line: 5, fields: ["last", "3"] }
    ]
    expect(readChunks(text)).toEqual(expected)
    expect(readByChar(text)).toEqual(expected)
  })

  it("reports only the first problem of a record", () => {
    expect(readChunks("x,a\"b,\"c\"d\ny\n")).toEqual([
      { line: 1, error: "unexpected quote in an unquoted field (column 2)" },
      { line: 2, fields: ["y"] }
    ])
  })

  it("reports an unterminated quote at the end as an error at the line where its record starts", () => {
    const text = "a,b\n1,\"open\nstill open\n"
    const expected = [
      { line: 1, fields: ["a", "b"] },
      { line: 2, error: "unterminated quoted field (column 2)" }
    ]
    expect(readChunks(text)).toEqual(expected)
    expect(readByChar(text)).toEqual(expected)
  })

  it("gives each record as soon as its line ends, not before", () => {
    const reader = new CsvReader()
    expect(reader.push("a,\"b")).toEqual([])
    expect(reader.push("\"\"")).toEqual([])
    expect(reader.push("c\"\r")).toEqual([{ line: 1, fields: ["a", "b\"c"] }])
    expect(reader.push("\nd")).toEqual([])
    expect(reader.end()).toEqual([{ line: 2, fields: ["d"] }])
    expect(reader.end()).toEqual([])
  })
})

describe("encodeRow", () => {
  it("quotes fields with commas, quotes, line breaks or edge spaces, doubling quotes", () => {
    expect(encodeRow(["a", "b c", "1.5"])).toBe("a,b c,1.5\n")
    expect(encodeRow(["a,b", "say \"hi\"", "x\ny", "x\ry", " lead", "trail ", ""])).toBe(
      "\"a,b\",\"say \"\"hi\"\"\",\"x\ny\",\"x\ry\",\" lead\",\"trail \",\n"
    )
  })

  it("writes a row of one empty field as \"\" (a blank line would be skipped), and quotes a leading BOM", () => {
    expect(encodeRow([""])).toBe("\"\"\n")
    expect(encodeRow(["", ""])).toBe(",\n")
    expect(encodeRow(["\uFEFFx"])).toBe("\"\uFEFFx\"\n")
  })
})

describe("toCell", () => {
  it("writes text, numbers and booleans as they are, nothing for null and undefined", () => {
    expect(toCell(undefined)).toBe("")
    expect(toCell(null)).toBe("")
    expect(toCell("a, \"b\"")).toBe("a, \"b\"")
    expect(toCell(-1.5e-7)).toBe("-1.5e-7")
    expect(toCell(42)).toBe("42")
    expect(toCell(false)).toBe("false")
  })

  it("writes dates and {$date} objects as ISO text", () => {
    expect(toCell(new Date("2024-01-02T03:04:05.678Z"))).toBe("2024-01-02T03:04:05.678Z")
    expect(toCell({ $date: "2024-01-02T03:04:05.678Z" })).toBe("2024-01-02T03:04:05.678Z")
  })

  it("writes objects and arrays as JSON with their dates as {$date}", () => {
    const when = new Date("2024-05-06T07:08:09.010Z")
    expect(toCell({ a: 1, b: { when }, list: [when, "x"] })).toBe(
      "{\"a\":1,\"b\":{\"when\":{\"$date\":\"2024-05-06T07:08:09.010Z\"}},\"list\":[{\"$date\":\"2024-05-06T07:08:09.010Z\"},\"x\"]}"
    )
    expect(toCell(["a", 1, null])).toBe("[\"a\",1,null]")
    expect(toCell({ $date: "x", other: 1 })).toBe("{\"$date\":\"x\",\"other\":1}")
  })
})

describe("columnsFor", () => {
  it("puts _id first, then the declared fields in order, then other keys of the first items as they appear", () => {
    const fields = [{ key: "title" }, { key: "price" }, { key: "_id" }]
    const first = [{ price: 1, _id: "a", extra: true, title: "t" }, { _owner: "o", more: 1, extra: false }]
    expect(columnsFor(fields, first)).toEqual(["_id", "title", "price", "extra", "_owner", "more"])
    expect(columnsFor(undefined, [{ b: 1, a: 2 }])).toEqual(["_id", "b", "a"])
    expect(columnsFor(undefined, [])).toEqual(["_id"])
  })
})

describe("makeCellReader", () => {
  const reader = () =>
    makeCellReader([
      { key: "price", type: "NUMBER" },
      { key: "active", type: "BOOLEAN" },
      { key: "day", type: "DATE" },
      { key: "at", type: "DATETIME" },
      { key: "meta", type: "OBJECT" },
      { key: "address", type: "ADDRESS" },
      { key: "list", type: "ARRAY" },
      { key: "tags", type: "ARRAY_STRING" },
      { key: "docs", type: "ARRAY_DOCUMENT" },
      { key: "refs", type: "MULTI_REFERENCE" },
      { key: "any", type: "ANY" },
      { key: "title", type: "TEXT" },
      { key: "link", type: "URL" },
      { key: "owner", type: "REFERENCE" }
    ])

  it("reads numbers: finite decimals only", () => {
    const r = reader()
    for (const [text, value] of [["-1.5e3", -1500], ["0", 0], ["+2", 2], [".5", 0.5], ["12.", 12], ["1e+21", 1e21]] as const) {
      expect(r.read("price", text)).toEqual({ ok: true, value })
    }
    expect(r.read("price", "12abc")).toEqual({ ok: false, error: "price: \"12abc\" is not a number" })
    for (const text of ["NaN", "Infinity", "0x10", " 12", "1e", "1e999", "1,5"]) expect(r.read("price", text).ok).toBe(false)
  })

  it("reads booleans whatever their case", () => {
    const r = reader()
    expect(r.read("active", "TRUE")).toEqual({ ok: true, value: true })
    expect(r.read("active", "false")).toEqual({ ok: true, value: false })
    expect(r.read("active", "False")).toEqual({ ok: true, value: false })
    expect(r.read("active", "yes")).toEqual({ ok: false, error: "active: \"yes\" is not a boolean (true or false)" })
  })

  it("reads dates from ISO 8601 text and refuses invalid ones", () => {
    const r = reader()
    expect(r.read("at", "2024-01-02T03:04:05.678Z")).toEqual({ ok: true, value: new Date("2024-01-02T03:04:05.678Z") })
    expect(r.read("at", "2024-01-02T03:04:05+02:00")).toEqual({ ok: true, value: new Date("2024-01-02T01:04:05.000Z") })
    expect(r.read("day", "2024-02-29")).toEqual({ ok: true, value: new Date("2024-02-29T00:00:00.000Z") })
    expect(r.read("day", "0000-02-29")).toEqual({ ok: true, value: new Date("0000-02-29T00:00:00.000Z") })
    expect(r.read("day", "2023-02-29")).toEqual({ ok: false, error: "day: \"2023-02-29\" is not an ISO 8601 date" })
    for (const text of ["2024-02-30", "2024-13-01", "2024-01-02T25:00:00Z", "tomorrow", "March 7, 2024", "1700000000000"]) {
      expect(r.read("at", text)).toEqual({ ok: false, error: `at: ${JSON.stringify(text)} is not an ISO 8601 date` })
    }
  })

  it("reads objects and arrays as JSON, {$date} inside them as dates, and checks their kind", () => {
    const r = reader()
    const when = new Date("2024-01-02T03:04:05.678Z")
    expect(r.read("meta", "{\"a\":{\"when\":{\"$date\":\"2024-01-02T03:04:05.678Z\"}},\"n\":[1,{\"$date\":\"2024-01-02T03:04:05.678Z\"}]}"))
      .toEqual({ ok: true, value: { a: { when }, n: [1, when] } })
    expect(r.read("address", "{\"city\":\"Paris\"}")).toEqual({ ok: true, value: { city: "Paris" } })
    expect(r.read("list", "[1,\"a\",null]")).toEqual({ ok: true, value: [1, "a", null] })
    expect(r.read("tags", "[\"a\",\"b\"]")).toEqual({ ok: true, value: ["a", "b"] })
    expect(r.read("docs", "[{\"a\":1}]")).toEqual({ ok: true, value: [{ a: 1 }] })
    expect(r.read("refs", "[\"id1\",\"id2\"]")).toEqual({ ok: true, value: ["id1", "id2"] })
    expect(r.read("meta", "{oops")).toEqual({ ok: false, error: "meta: \"{oops\" is not JSON" })
    expect(r.read("meta", "[1]")).toEqual({ ok: false, error: "meta: \"[1]\" is not a JSON object" })
    expect(r.read("address", "\"Paris\"")).toEqual({ ok: false, error: "address: \"\\\"Paris\\\"\" is not a JSON object" })
    expect(r.read("list", "{}")).toEqual({ ok: false, error: "list: \"{}\" is not a JSON array" })
    expect(r.read("tags", "[1]")).toEqual({ ok: false, error: "tags: \"[1]\" is not a JSON array of strings" })
  })

  it("reads ANY as JSON when it parses, else as text", () => {
    const r = reader()
    expect(r.read("any", "{\"a\":[1]}")).toEqual({ ok: true, value: { a: [1] } })
    expect(r.read("any", "12")).toEqual({ ok: true, value: 12 })
    expect(r.read("any", "{\"$date\":\"2024-01-02T03:04:05.678Z\"}")).toEqual({ ok: true, value: new Date("2024-01-02T03:04:05.678Z") })
    expect(r.read("any", "hello, world")).toEqual({ ok: true, value: "hello, world" })
  })

  it("keeps text types as text, and an empty cell as no value whatever the type", () => {
    const r = reader()
    expect(r.read("title", "12")).toEqual({ ok: true, value: "12" })
    expect(r.read("link", "https://example.com/?a=1,2")).toEqual({ ok: true, value: "https://example.com/?a=1,2" })
    expect(r.read("owner", "abc")).toEqual({ ok: true, value: "abc" })
    for (const column of ["price", "active", "at", "meta", "tags", "any", "title", "undeclared"]) {
      expect(r.read(column, "")).toEqual({ ok: true, value: undefined })
    }
  })

  it("types the system fields without declarations and reports undeclared columns as untyped", () => {
    const r = makeCellReader(undefined)
    expect(r.read("_id", "42")).toEqual({ ok: true, value: "42" })
    expect(r.read("_owner", "o")).toEqual({ ok: true, value: "o" })
    expect(r.read("_createdDate", "2024-01-02T03:04:05.678Z")).toEqual({ ok: true, value: new Date("2024-01-02T03:04:05.678Z") })
    expect(r.read("_updatedDate", "yesterday").ok).toBe(false)
    expect(r.read("b", "12")).toEqual({ ok: true, value: "12" })
    expect(r.read("a", "true")).toEqual({ ok: true, value: "true" })
    expect(r.read("b", "x")).toEqual({ ok: true, value: "x" })
    expect([...r.untyped]).toEqual(["b", "a"])
    const declared = reader()
    declared.read("price", "1")
    declared.read("_id", "x")
    declared.read("color", "red")
    expect([...declared.untyped]).toEqual(["color"])
  })

  it("reads back what toCell wrote, for numbers, booleans, dates and objects with dates", () => {
    const r = reader()
    const Value: fc.Arbitrary<unknown> = fc.letrec<{ value: unknown }>((tie) => ({
      value: fc.oneof(
        { depthSize: "small" },
        fc.string(),
        fc.integer(),
        fc.boolean(),
        fc.constant(null),
        fc.date({ noInvalidDate: true }),
        fc.array(tie("value"), { maxLength: 4 }),
        fc.dictionary(fc.string().filter((k) => k !== "__proto__" && k !== "$date"), tie("value"), { maxKeys: 4 })
      )
    })).value
    const Finite = fc.double({ noNaN: true, noDefaultInfinity: true }).map((n) => (n === 0 ? 0 : n))
    fc.assert(fc.property(Finite, (n) => {
      expect(r.read("price", toCell(n))).toEqual({ ok: true, value: n })
    }))
    fc.assert(fc.property(fc.boolean(), (b) => {
      expect(r.read("active", toCell(b))).toEqual({ ok: true, value: b })
    }))
    fc.assert(
      fc.property(fc.date({ min: new Date("0000-01-01T00:00:00.000Z"), max: new Date("9999-12-31T23:59:59.999Z"), noInvalidDate: true }), (d) => {
        expect(r.read("at", toCell(d))).toEqual({ ok: true, value: d })
      })
    )
    fc.assert(
      fc.property(fc.dictionary(fc.string().filter((k) => k !== "__proto__" && k !== "$date"), Value, { maxKeys: 5 }), (o) => {
        expect(r.read("meta", toCell(o))).toEqual({ ok: true, value: o })
      })
    )
  })
})

describe("recordToItem", () => {
  const reader = makeCellReader([
    { key: "title", type: "TEXT" },
    { key: "price", type: "NUMBER" },
    { key: "active", type: "BOOLEAN" }
  ])
  const header = ["_id", "title", "price", "active", "note"]

  it("types each cell and leaves empty cells out", () => {
    expect(recordToItem(header, { line: 2, fields: ["a1", "Hat", "12.5", "TRUE", ""] }, reader)).toEqual({
      ok: true,
      item: { _id: "a1", title: "Hat", price: 12.5, active: true }
    })
    expect(recordToItem(header, { line: 3, fields: ["", "", "", "", "n"] }, reader)).toEqual({ ok: true, item: { note: "n" } })
    expect([...reader.untyped]).toEqual(["note"])
  })

  it("refuses a record whose field count is not the header's", () => {
    expect(recordToItem(header, { line: 2, fields: ["a", "b", "c", "d"] }, reader)).toEqual({ ok: false, error: "has 4 fields, the header has 5" })
    expect(recordToItem(header, { line: 2, fields: ["a"] }, reader)).toEqual({ ok: false, error: "has 1 field, the header has 5" })
  })

  it("gives every bad cell of the row in one message", () => {
    expect(recordToItem(header, { line: 2, fields: ["a", "Hat", "12abc", "yes", ""] }, reader)).toEqual({
      ok: false,
      error: "price: \"12abc\" is not a number; active: \"yes\" is not a boolean (true or false)"
    })
  })

  it("sets a column named __proto__ as an own key", () => {
    const result = recordToItem(["_id", "__proto__"], { line: 2, fields: ["a", "x"] }, makeCellReader(undefined))
    expect(result.ok && Object.hasOwn(result.item, "__proto__")).toBe(true)
  })
})
