/** SQL string literals the data engine writes into statements read back as the text they hold, whatever it is. */
import { assert, it } from "@effect/vitest"
import { DatabaseSync } from "node:sqlite"
import { literal } from "../../../src/server/store/sql.ts"

it("a literal holds quotes, NULs and any other character, and reads back as written", () => {
  const db = new DatabaseSync(":memory:")
  try {
    for (const text of ["", "plain", "it's", "''", "a\u0000b", "\u0000", "end\u0000", "\u0000'\u0000", "line\nbreak", "ünï 🚀", "\"double\""]) {
      const row = db.prepare(`SELECT ${literal(text)} AS v, length(${literal(text)}) AS n`).get()
      assert.strictEqual(row?.v, text, JSON.stringify(text))
    }
  } finally {
    db.close()
  }
})
