/**
 * Free-text search, as SQL over the searchable fields. The expression is cut into lower-case words
 * (letters and digits); a word matches a field when some word of the field's text starts with it
 * (`rad` finds "Radio"). Fuzzy search also accepts one typo: a field word, or its prefix of the same
 * length, one edit (a letter inserted, deleted or replaced, or two neighbours swapped) from a search
 * word of three or more letters (`raido` finds "radio").
 * Mode OR (the default) needs any search word to match, AND needs all of them.
 *
 * Searchable fields: the collection's TEXT and RICH_TEXT fields; for a collection without declared
 * text fields, every top-level string field except the system ones (`_id`, `_owner`, ...).
 */
import type { DataCollection } from "../../data/wire/index.ts"
import type { DatabaseShape } from "../platform/Database.ts"
import { MAX_SEARCH_WORDS } from "../platform/limits.ts"
import { atMost } from "../store/engineFailures.ts"
import { chain, type Fragment, literal, sql } from "../store/sql.ts"

export interface SearchDetails {
  readonly expression?: string | null | undefined
  readonly fuzzy?: boolean | undefined
  readonly mode?: "OR" | "AND" | undefined
}

const WORD_SPLIT = /[^\p{L}\p{N}]+/u

export const words = (text: string): ReadonlyArray<string> => text.toLowerCase().split(WORD_SPLIT).filter((w) => w !== "")

/** At most one edit apart: a letter inserted, deleted, replaced, or two neighbours swapped. */
const withinOneEdit = (a: string, b: string): boolean => {
  if (Math.abs(a.length - b.length) > 1) return false
  let i = 0
  while (i < a.length && i < b.length && a[i] === b[i]) i++
  if (i === a.length || i === b.length) return Math.abs(a.length - b.length) <= 1
  const restA = a.slice(i + 1)
  const restB = b.slice(i + 1)
  const swapped = a[i] === b[i + 1] && a[i + 1] === b[i] && a.slice(i + 2) === b.slice(i + 2)
  return restA === restB || a.slice(i) === restB || restA === b.slice(i) || swapped
}

export const wordMatches = (fieldWord: string, term: string, fuzzy: boolean): boolean => {
  if (fieldWord.startsWith(term)) return true
  if (!fuzzy || term.length < 3) return false
  return withinOneEdit(fieldWord, term) || withinOneEdit(fieldWord.slice(0, term.length), term)
}

export const registerSearch = (db: DatabaseShape): void => {
  db.defineFunction("sfx_search", (text, term, fuzzy) =>
    typeof text === "string" && typeof term === "string" && words(text).some((w) => wordMatches(w, term, fuzzy === 1)) ? 1 : 0)
}

/** The search as a condition on item rows (`column` holds the item JSON); TRUE for an empty expression. */
export const searchCondition = (collection: DataCollection, column: string, details: SearchDetails | undefined): Fragment => {
  const terms = [...new Set(words(details?.expression ?? ""))]
  if (terms.length === 0) return sql("1")
  atMost(terms.length, MAX_SEARCH_WORDS, "search.search.expression", "A search looks for distinct words:")
  const declared = (collection.fields ?? []).filter((f) => f.systemField !== true && (f.type === "TEXT" || f.type === "RICH_TEXT")).map((f) => f.key)
  const keys = declared.length > 0
    ? `s.key IN (${declared.map(literal).join(", ")})`
    : "substr(s.key, 1, 1) <> '_'"
  const fuzzy = details?.fuzzy === true ? 1 : 0
  const perTerm = terms.map((term) =>
    sql(`EXISTS (SELECT 1 FROM json_each(${column}) AS s WHERE s.type = 'text' AND ${keys} AND sfx_search(s.value, ?, ?))`, term, fuzzy)
  )
  return chain(details?.mode === "AND" ? " AND " : " OR ", perTerm)
}
