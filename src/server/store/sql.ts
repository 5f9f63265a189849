/**
 * Filters, sorts and projections as SQL over JSON documents (node:sqlite's JSON functions).
 *
 * Every field value has a **rank** (its type) and a **key** (a plain SQL value of that type), so that
 * values compare the way the platform compares them: only values of the same type compare, and
 * sorting puts types in a fixed order.
 *
 * | rank | type | key |
 * |---|---|---|
 * | 0 | missing or `null` | 0 |
 * | 1 | number | the number |
 * | 2 | string | the text (binary, i.e. code-point order) |
 * | 3 | object | its JSON text |
 * | 4 | array | its JSON text |
 * | 5 | boolean | 0 or 1 |
 * | 6 | date `{"$date": iso}` | the normalized ISO text (sortable as text) |
 *
 * Rank and key are never NULL, so tuples of them compare with SQL row values (cursors) and the same
 * two expressions serve as index columns. Generated SQL holds field paths as literals (expression
 * indexes only match literal paths) and every value as a bound parameter.
 */
import type { SQLInputValue } from "node:sqlite"
import type { FilterNode, MatchPart } from "../../data/FilterTree.ts"
import { isDateValue } from "../../data/FilterTree.ts"
import type { Sorting } from "../../data/wire/index.ts"
import type { DatabaseShape } from "../platform/Database.ts"
import { normalizeDates, segments } from "./values.ts"

export interface Fragment {
  readonly sql: string
  readonly params: ReadonlyArray<SQLInputValue>
}

export const sql = (text: string, ...params: Array<SQLInputValue>): Fragment => ({ sql: text, params })

const TRUE = sql("1")
const FALSE = sql("0")

/** Joins fragments (plain strings are SQL text without parameters). */
export const concat = (...parts: ReadonlyArray<Fragment | string>): Fragment => ({
  sql: parts.map((p) => (typeof p === "string" ? p : p.sql)).join(""),
  params: parts.flatMap((p) => (typeof p === "string" ? [] : p.params))
})

export const joinWith = (separator: string, parts: ReadonlyArray<Fragment>): Fragment => ({
  sql: parts.map((p) => p.sql).join(separator),
  params: parts.flatMap((p) => p.params)
})

/**
 * `(a OP b OP ...)`. SQLite parses a chain as a tree as deep as it is long and refuses trees over 1000
 * levels, so a long chain is written as a tree of parenthesized runs, as deep as the run count's log.
 */
export const chain = (operator: string, parts: ReadonlyArray<Fragment>): Fragment => {
  if (parts.length <= CHAIN_RUN) return concat("(", joinWith(operator, parts), ")")
  const size = Math.ceil(parts.length / CHAIN_RUN)
  const runs: Array<Fragment> = []
  for (let i = 0; i < parts.length; i += size) runs.push(chain(operator, parts.slice(i, i + size)))
  return concat("(", joinWith(operator, runs), ")")
}
const CHAIN_RUN = 16

const all = (parts: ReadonlyArray<Fragment>): Fragment => parts.length === 0 ? TRUE : parts.length === 1 ? parts[0]! : chain(" AND ", parts)
const any = (parts: ReadonlyArray<Fragment>): Fragment => parts.length === 0 ? FALSE : parts.length === 1 ? parts[0]! : chain(" OR ", parts)

/** A SQL string literal. */
/**
 * `text` as a SQL string literal. SQLite reads a statement's text only up to a NUL character, so a NUL
 * inside is spliced in with `char(0)` rather than written.
 */
export const literal = (text: string): string =>
  text.includes("\u0000")
    ? `(${text.split("\u0000").map((part) => `'${part.replace(/'/g, "''")}'`).join(" || char(0) || ")})`
    : `'${text.replace(/'/g, "''")}'`

/** `address.city` → `'$."address"."city"'` (a SQL literal). */
export const jsonPath = (field: string): string => literal(`$${segments(field).map((s) => `."${s}"`).join("")}`)

const datePathOf = (field: string): string => literal(`$${segments(field).map((s) => `."${s}"`).join("")}."$date"`)

/** Where field values are read from: a JSON column, and for items the column that holds `_id`. */
export interface Source {
  readonly column: string
  readonly idColumn?: string
  /** The column holding `_owner`, for permission conditions. */
  readonly ownerColumn?: string
  /**
   * Fields whose rank and key the rows also hold in columns of their own (`<prefix>_r`, `<prefix>_k`,
   * written with {@link rankOf} and {@link keyOf}), by field: filters and sorts on them read two
   * columns instead of evaluating JSON. Only for fields whose value is never an array, an object or null.
   */
  readonly columns?: Readonly<Record<string, string>>
  /**
   * Array fields of strings whose elements the rows also hold in a text column as `|a|b|`, by field:
   * `$hasSome` and `$hasAll` of strings on them test that column instead of walking the JSON array.
   */
  readonly lists?: Readonly<Record<string, string>>
}

/** SQL expressions for one field of the current row. */
export interface Ref {
  /** Rank expression; undefined when the rank is a known constant (`_id`: always a string). */
  readonly rank: string | undefined
  readonly key: string
  /** `json_type` of the value; NULL when missing. */
  readonly type: string
  /** The value as JSON (with SQLite's JSON subtype), NULL when missing. */
  readonly json: string
  readonly column: string
  readonly path: string
}

const rankCase = (type: string, dateType: string) =>
  `(CASE ${type} WHEN 'integer' THEN 1 WHEN 'real' THEN 1 WHEN 'text' THEN 2 WHEN 'array' THEN 4 ` +
  `WHEN 'true' THEN 5 WHEN 'false' THEN 5 WHEN 'object' THEN (CASE WHEN ${dateType} = 'text' THEN 6 ELSE 3 END) ELSE 0 END)`

export const ref = (source: Source, field: string): Ref => {
  const path = jsonPath(field)
  const own = source.columns?.[field]
  if (own !== undefined) {
    const rank = `${own}_r`
    return { rank, key: `${own}_k`, type: `(CASE WHEN ${rank} = 0 THEN NULL ELSE 'value' END)`, json: `(${source.column} -> ${path})`, column: source.column, path }
  }
  if (field === "_id" && source.idColumn !== undefined) {
    return { rank: undefined, key: source.idColumn, type: "'text'", json: `json_quote(${source.idColumn})`, column: source.column, path }
  }
  const c = source.column
  const datePath = datePathOf(field)
  const type = `json_type(${c}, ${path})`
  const dateType = `json_type(${c}, ${datePath})`
  return {
    rank: rankCase(type, dateType),
    key: `COALESCE(CASE WHEN ${dateType} = 'text' THEN json_extract(${c}, ${datePath}) ELSE json_extract(${c}, ${path}) END, 0)`,
    type,
    json: `(${c} -> ${path})`,
    column: c,
    path
  }
}

/** Rank and key of one element of `json_each(...) AS alias`. */
export const element = (alias: string): { readonly rank: string; readonly key: string } => {
  const dateType = `json_type(${alias}.value, '$."$date"')`
  return {
    rank: rankCase(`${alias}.type`, dateType),
    key: `(CASE ${alias}.type WHEN 'object' THEN (CASE WHEN ${dateType} = 'text' THEN json_extract(${alias}.value, '$."$date"') ` +
      `ELSE ${alias}.value END) WHEN 'null' THEN 0 ELSE ${alias}.value END)`
  }
}

/** The rank of a (normalized) JSON value. */
export const rankOf = (value: unknown): number => {
  if (value === null || value === undefined) return 0
  if (typeof value === "number") return 1
  if (typeof value === "string") return 2
  if (typeof value === "boolean") return 5
  if (Array.isArray(value)) return 4
  return isDateValue(value) ? 6 : 3
}

/** The key of a (normalized) JSON value, as bound to a statement. */
export const keyOf = (value: unknown): SQLInputValue => {
  if (value === null || value === undefined) return 0
  if (typeof value === "number" || typeof value === "string") return value
  if (typeof value === "boolean") return value ? 1 : 0
  if (isDateValue(value)) return value.$date
  return JSON.stringify(value)
}

const rankIs = (r: Ref | ReturnType<typeof element>, rank: number): Fragment =>
  r.rank === undefined ? (rank === 2 ? TRUE : FALSE) : sql(`${r.rank} = ${rank}`)

const equals = (r: Ref | ReturnType<typeof element>, value: unknown): Fragment => {
  const rank = rankOf(value)
  if (rank === 0) return rankIs(r, 0)
  return all([rankIs(r, rank), sql(`${r.key} = ?`, keyOf(value))].filter((f) => f !== TRUE))
}

const oneOf = (r: Ref | ReturnType<typeof element>, values: ReadonlyArray<unknown>): Fragment => {
  const byRank = new Map<number, Array<SQLInputValue>>()
  for (const v of values) {
    const rank = rankOf(v)
    const keys = byRank.get(rank) ?? []
    keys.push(keyOf(v))
    byRank.set(rank, keys)
  }
  return any([...byRank].map(([rank, keys]) => {
    const inList = sql(`${r.key} IN (${keys.map(() => "?").join(", ")})`, ...keys)
    const guard = rankIs(r, rank)
    return guard === TRUE ? inList : guard === FALSE ? FALSE : all([guard, inList])
  }).filter((f) => f !== FALSE))
}

const ORDERING = { $gt: ">", $gte: ">=", $lt: "<", $lte: "<=" } as const

/** Numbers the `json_each` aliases of one condition, so equal filters give equal SQL (and reuse statements). */
interface Aliases {
  next: number
}

const arrayElements = (aliases: Aliases, r: Ref, condition: (alias: string) => Fragment): Fragment => {
  const alias = `e${aliases.next++}`
  return concat(`EXISTS (SELECT 1 FROM json_each(${r.column}, ${r.path}) AS ${alias} WHERE `, condition(alias), ")")
}

const fold = (text: string) => text.toLowerCase()

/** The filter as a SQL condition on the rows of `source`. */
export const where = (node: FilterNode, source: Source): Fragment => translate(node, source, { next: 0 })

const translate = (node: FilterNode, source: Source, aliases: Aliases): Fragment => {
  switch (node._tag) {
    case "And":
      return all(node.nodes.map((n) => translate(n, source, aliases)))
    case "Or":
      return any(node.nodes.map((n) => translate(n, source, aliases)))
    case "Not":
      return concat("NOT ", translate(node.node, source, aliases))
    case "Compare": {
      const r = ref(source, node.field)
      const value = normalizeDates(node.value)
      switch (node.op) {
        case "$eq":
          return equals(r, value)
        case "$ne":
          return concat("NOT ", equals(r, value))
        default:
          return all([rankIs(r, rankOf(value)), sql(`${r.key} ${ORDERING[node.op]} ?`, keyOf(value))].filter((f) => f !== TRUE))
      }
    }
    case "Set": {
      const list = source.lists?.[node.field]
      if (list !== undefined && node.op !== "$in" && node.values.length > 0 && node.values.every((v) => typeof v === "string" && !v.includes("|"))) {
        const tests = node.values.map((v) => sql(`instr(${list}, ?) > 0`, `|${v as string}|`))
        return node.op === "$hasSome" ? any(tests) : all(tests)
      }
      const r = ref(source, node.field)
      const values = node.values.map((v) => normalizeDates(v))
      if (node.op === "$in" || r.rank === undefined) {
        if (node.op === "$hasAll") return values.length === 0 ? FALSE : all(values.map((v) => equals(r, v)))
        return oneOf(r, values)
      }
      if (values.length === 0) return FALSE
      const notArray = sql(`${r.rank} <> 4`)
      const isArray = sql(`${r.rank} = 4`)
      if (node.op === "$hasSome") {
        return any([
          all([notArray, oneOf(r, values)]),
          all([isArray, arrayElements(aliases, r, (alias) => oneOf(element(alias), values))])
        ])
      }
      return any([
        all([notArray, ...values.map((v) => equals(r, v))]),
        all([isArray, ...values.map((v) => arrayElements(aliases, r, (alias) => equals(element(alias), v)))])
      ])
    }
    case "Text": {
      const r = ref(source, node.field)
      const needle = fold(node.value)
      const isText = rankIs(r, 2)
      if (needle === "") return isText
      const folded = `sfx_fold(${r.key})`
      const test = node.op === "$contains"
        ? sql(`instr(${folded}, ?) > 0`, needle)
        : node.op === "$startsWith"
        ? sql(`instr(${folded}, ?) = 1`, needle)
        : sql(`substr(${folded}, -length(?)) = ?`, needle, needle)
      return all([isText, test].filter((f) => f !== TRUE))
    }
    case "Exists": {
      const r = ref(source, node.field)
      const exists = r.rank === undefined ? TRUE : sql(`${r.type} IS NOT NULL`)
      return node.exists ? exists : concat("NOT ", exists)
    }
    case "Matches": {
      const r = ref(source, node.field)
      return all([rankIs(r, 2), sql(`sfx_matches(${r.key}, ?)`, matchesSource(node.spec))].filter((f) => f !== TRUE))
    }
  }
}

const escapeRegExp = (text: string) => text.replace(/[\\^$.*+?()[\]{}|/]/g, "\\$&")

/** `$matches` as an anchored regular expression over folded text. */
export const matchesSource = (spec: ReadonlyArray<MatchPart>): string =>
  `^${spec.map((part) => (part.type === "literal" ? escapeRegExp(fold(part.value)) : "[ \\t\\n-]")).join("")}$`

/** One term of an ORDER BY (and one column of a cursor key). */
export interface SortTerm {
  readonly expr: string
  readonly desc: boolean
}

/** Rank then key for each sort field; ties are left to the caller (the item sequence). */
export const sortTerms = (source: Source, sort: ReadonlyArray<Sorting>): ReadonlyArray<SortTerm> =>
  sort.flatMap((s) => {
    const r = ref(source, s.fieldName)
    const desc = s.order === "DESC"
    return r.rank === undefined ? [{ expr: r.key, desc }] : [{ expr: r.rank, desc }, { expr: r.key, desc }]
  })

export const orderBy = (terms: ReadonlyArray<SortTerm>): string =>
  terms.map((t) => `${t.expr}${t.desc ? " DESC" : ""}`).join(", ")

/**
 * Rows equal to `values` on the terms before term `i` and strictly after it on term `i` (before it with
 * `reverse`): one part of {@link beyond}, and one index range when an index holds the terms in order.
 */
export const beyondAt = (terms: ReadonlyArray<SortTerm>, values: ReadonlyArray<SQLInputValue>, i: number, reverse = false): Fragment => {
  const term = terms[i]!
  return all([
    ...terms.slice(0, i).map((t, j) => sql(`${t.expr} = ?`, values[j] ?? null)),
    sql(`${term.expr} ${term.desc !== reverse ? "<" : ">"} ?`, values[i] ?? null)
  ])
}

/**
 * Rows strictly after `values` in the order of `terms` (before them with `reverse`). One direction
 * throughout is a row-value comparison; mixed directions expand into the equivalent OR chain. SQLite
 * seeks in an index with neither when the terms are expressions: a cursor page that wants a seek goes
 * through {@link beyondAt}, one term at a time.
 */
export const beyond = (terms: ReadonlyArray<SortTerm>, values: ReadonlyArray<SQLInputValue>, reverse = false): Fragment => {
  const first = terms[0]
  if (first !== undefined && terms.every((t) => t.desc === first.desc)) {
    return sql(`(${terms.map((t) => t.expr).join(", ")}) ${first.desc !== reverse ? "<" : ">"} (${terms.map(() => "?").join(", ")})`, ...values)
  }
  return any(terms.map((_, i) => beyondAt(terms, values, i, reverse)))
}

/** A JSON object of only `fields` (dotted paths make nested objects) plus `_id`; missing fields stay missing. */
export const projection = (source: Source, fields: ReadonlyArray<string>): string => {
  const wanted = [...new Set(["_id", ...fields])]
  const c = source.column
  const sets = wanted.map((f) => `${jsonPath(f)}, ${c} -> ${jsonPath(f)}`)
  // the shortest missing prefix is removed, so a missing parent leaves no empty object behind
  const removals = wanted.map((f) => {
    const parts = segments(f)
    const prefixes = parts.map((_, i) => parts.slice(0, i + 1).join("."))
    return `CASE ${prefixes.map((p) => `WHEN ${c} -> ${jsonPath(p)} IS NULL THEN ${jsonPath(p)}`).join(" ")} ELSE '$.""' END`
  })
  return nested("json_remove", nested("json_set", "'{}'", sets), removals)
}

/** `f(f(first, a...), b...)`: SQLite functions take at most 1000 arguments, so long lists go in runs. */
export const nested = (f: string, first: string, args: ReadonlyArray<string>): string => {
  let out = first
  for (let i = 0; i < args.length; i += FUNCTION_RUN) out = `${f}(${out}, ${args.slice(i, i + FUNCTION_RUN).join(", ")})`
  return out
}
const FUNCTION_RUN = 400

const regexCache = new Map<string, RegExp>()

/** The JavaScript SQL functions the generated SQL calls. */
export const registerFunctions = (db: DatabaseShape): void => {
  db.defineFunction("sfx_fold", (value) => (typeof value === "string" ? fold(value) : value ?? null))
  db.defineFunction("sfx_upper", (value) => (typeof value === "string" ? value.toUpperCase() : value ?? null))
  db.defineFunction("sfx_matches", (value, source) => {
    if (typeof value !== "string" || typeof source !== "string") return 0
    let re = regexCache.get(source)
    if (re === undefined) {
      if (regexCache.size > 200) regexCache.clear()
      re = new RegExp(source)
      regexCache.set(source, re)
    }
    return re.test(fold(value)) ? 1 : 0
  })
}
