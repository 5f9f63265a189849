/**
 * The progress total of an import: countRecords counts JSONL lines that hold more than blanks, also
 * when a line, a blank run or a CRLF crosses one of its 1 MiB reads.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterAll, describe, expect, it } from "vitest"
import { countRecords } from "../../src/cli/files.ts"

const dir = mkdtempSync(join(tmpdir(), "sitefx-count-"))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

/** What a JSONL reader reads: lines with more than spaces, tabs and carriage returns. */
const filled = (text: string): number => text.split("\n").filter((line) => /[^ \t\r]/.test(line)).length

const counted = (text: string): number => {
  const file = join(dir, "rows.jsonl")
  writeFileSync(file, text)
  return countRecords(file, "lines")!
}

describe("countRecords (lines)", () => {
  it("counts the lines that hold more than blanks", () => {
    for (const text of ["", "\n", "a", "a\n", " \t\r\n\n", "\n{\"_id\":\"j1\"}\n  \t\n{\"_id\":\"j2\"}\r\n\n{\"_id\":\"j3\"}", " x", "x\n\ny\n", "x\r\ny\r\n"]) {
      expect(counted(text), JSON.stringify(text)).toBe(filled(text))
    }
  })

  it("across its reads: a line of more than a read, blanks up to a read's end, a CRLF cut between two reads", () => {
    const MiB = 1 << 20
    const texts = [
      `${"x".repeat(MiB - 1)}\n${" ".repeat(MiB)}\n  ${"y".repeat(MiB + 5)}\n   `,
      `${" ".repeat(MiB - 1)}\r\n${" ".repeat(2 * MiB)}z`,
      `${"a\n".repeat(MiB / 2 - 1)}b\r\nc`,
      `${" ".repeat(MiB)}\n`
    ]
    for (const text of texts) expect(counted(text)).toBe(filled(text))
  })
})
