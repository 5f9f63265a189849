/**
 * The JSONL reader of imports: a file read as bytes, cut anywhere (inside a line, a CRLF, a character of
 * several bytes, the byte order mark), gives the same rows as its text read whole; a row the checks
 * left as it was carries its own text, the wire form a bulk write sends as it is; a date text made a
 * date takes it away; `{"$date"}` values in date fields are checked as dates.
 */
import { describe, expect, it } from "vitest"
import { type Entry, makeRowReader } from "../../../src/data/formats/rows.ts"
import type { CollectionField } from "../../../src/data/wire/index.ts"

const fields = new Map<string, CollectionField>([
  ["title", { key: "title", type: "TEXT" } as CollectionField],
  ["when", { key: "when", type: "DATETIME" } as CollectionField]
])

const readText = (text: string): Array<Entry> => {
  const reader = makeRowReader("jsonl", fields)
  return [...reader.push(text), ...reader.end()]
}

/** Reads `bytes` cut at the given offsets. */
const readBytes = (bytes: Uint8Array, cuts: ReadonlyArray<number>): Array<Entry> => {
  const reader = makeRowReader("jsonl", fields)
  const out: Array<Entry> = []
  let from = 0
  for (const at of cuts) {
    out.push(...reader.push(bytes.subarray(from, at)))
    from = at
  }
  out.push(...reader.push(bytes.subarray(from)), ...reader.end())
  return out
}

const FILE = [
  "\uFEFF{\"_id\":\"a\",\"title\":\"Grüße 🌍\",\"when\":{\"$date\":\"2024-05-01T10:00:00.000Z\"}}",
  "",
  "  {\"title\":\"blanks around\"}  \r",
  "{\"title\":\"by hand\",\"when\":\"2024-05-01\"}",
  "{\"title\": 5}",
  "not json",
  "   \t",
  "{\"title\":\"日本\",\"extra\":{\"$date\":\"2020-01-01\"}}"
].join("\n")

describe("the JSONL reader", () => {
  it("gives the same rows from bytes cut at any offset as from the text read whole", () => {
    const whole = readText(FILE)
    expect(whole.map((e) => e.line)).toEqual([1, 3, 4, 5, 6, 8])
    const bytes = new TextEncoder().encode(FILE)
    for (let at = 0; at <= bytes.length; at++) expect(readBytes(bytes, [at])).toEqual(whole)
    // one byte at a time: every cut at once, a character of four bytes in four pieces
    expect(readBytes(bytes, Array.from({ length: bytes.length }, (_, i) => i))).toEqual(whole)
  })

  it("keeps a row's text when the checks left it as it was, and not when a date text became a date", () => {
    const [first, blanks, byHand, badType, notJson, extra] = readText(FILE) as Array<any>
    expect(first).toEqual({
      line: 1,
      // an exported date is a date as it is: no Date is made of it
      item: { _id: "a", title: "Grüße 🌍", when: { $date: "2024-05-01T10:00:00.000Z" } },
      json: "{\"_id\":\"a\",\"title\":\"Grüße 🌍\",\"when\":{\"$date\":\"2024-05-01T10:00:00.000Z\"}}"
    })
    expect(blanks).toEqual({ line: 3, item: { title: "blanks around" }, json: "{\"title\":\"blanks around\"}" })
    expect(byHand.json).toBeUndefined()
    expect(byHand.item.when).toEqual(new Date("2024-05-01T00:00:00.000Z"))
    expect(badType).toEqual({ line: 5, reason: "title must be text, not a number" })
    expect(notJson.reason).toMatch(/^invalid JSON: /)
    // a field the collection does not declare is neither checked nor changed
    expect(extra.item.extra).toEqual({ $date: "2020-01-01" })
    expect(extra.json).toBe("{\"title\":\"日本\",\"extra\":{\"$date\":\"2020-01-01\"}}")
  })

  it("checks `{\"$date\"}` values of date fields as dates, in any form the Date parser reads", () => {
    const rows = readText([
      "{\"when\":{\"$date\":\"2024-05-01\"}}",
      "{\"when\":{\"$date\":\"2024-13-01T00:00:00.000Z\"}}",
      "{\"when\":{\"$date\":\"2024-05-01T00:00:00.000Z\",\"x\":1}}",
      "{\"when\":{\"$date\":\"2023-02-29T00:00:00.000Z\"}}",
      "{\"title\":{\"$date\":\"2024-05-01T00:00:00.000Z\"}}"
    ].join("\n")) as Array<any>
    // not in toISOString's form: made a date to be checked, and still sent as the file says
    expect(rows[0].item.when).toEqual(new Date("2024-05-01T00:00:00.000Z"))
    expect(rows[0].json).toBe("{\"when\":{\"$date\":\"2024-05-01\"}}")
    expect(rows[1]).toEqual({ line: 2, reason: "when must be a date ({\"$date\": ISO text} or ISO text), not a object" })
    expect(rows[2].reason).toBe("when must be a date ({\"$date\": ISO text} or ISO text), not a object")
    // a day that is not in the calendar is left to the Date parser, as before
    expect(rows[3].item.when).toBeInstanceOf(Date)
    expect(rows[4]).toEqual({ line: 5, reason: "title must be text, not a date" })
  })
})
