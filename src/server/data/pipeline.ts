/**
 * Aggregation pipelines compiled to one SQL statement: a chain of CTEs, one per stage, each a set of
 * `(doc, ord)` rows where `doc` is a JSON document and `ord` its position. Filters and sorts reuse the
 * query translator (store/sql.ts) over `doc`; group uses GROUP BY on value rank and key; unwind and
 * objectToArray use `json_each`; expressions are SQL over JSON values. Nothing is evaluated in memory.
 * Leading filter stages run directly on the item table, so its indexes apply.
 *
 * The simpler aggregate call (`aggregation{groupingFields, operations}`, `finalFilter`, `sort`) is the
 * same machinery: filter, group, filter, sort.
 */
import type { AggregateDataItemsRequest, PipelineExpression, PipelineStage, Sorting } from "../../data/wire/index.ts"
import {
  MAX_EXPRESSION_DEPTH,
  MAX_EXPRESSION_NODES,
  MAX_GROUP_FIELDS,
  MAX_INTEGER,
  MAX_PIPELINE_STAGES,
  MAX_PROJECTED_FIELDS,
  MAX_SORT_FIELDS
} from "../platform/limits.ts"
import { atMost, badRequest, outOfBounds } from "../store/engineFailures.ts"
import { compileFilter, type FilterBudget, filterBudget } from "../store/filters.ts"
import { chain, concat, type Fragment, joinWith, jsonPath, literal, nested, orderBy, projection, sortTerms, sql } from "../store/sql.ts"

const DOC = { column: "doc" }

/** Rank and key (see store/sql.ts) of a JSON-valued SQL expression. */
const rankOfJson = (json: string) =>
  `(CASE json_type(${json}) WHEN 'integer' THEN 1 WHEN 'real' THEN 1 WHEN 'text' THEN 2 WHEN 'array' THEN 4 WHEN 'true' THEN 5 ` +
  `WHEN 'false' THEN 5 WHEN 'object' THEN (CASE WHEN json_type(${json}, '$."$date"') = 'text' THEN 6 ELSE 3 END) ELSE 0 END)`
const keyOfJson = (json: string) =>
  `COALESCE(CASE WHEN json_type(${json}, '$."$date"') = 'text' THEN json_extract(${json}, '$."$date"') ELSE json_extract(${json}, '$') END, 0)`

/** The plain SQL value of a JSON-valued expression. */
const plain = (json: Fragment) => concat("json_extract(", json, ", '$')")

const quote = (value: Fragment) => concat("json_quote(", value, ")")

const exactlyOne = (expression: PipelineExpression): string => {
  const keys = Object.keys(expression).filter((k) => (expression as Record<string, unknown>)[k] !== undefined)
  if (keys.length !== 1) throw badRequest("WDE0043", `An expression needs exactly one operation, got [${keys.join(", ")}].`)
  return keys[0]!
}

/** What one pipeline may still hold, shared by all its stages. */
interface Budget {
  readonly filters: FilterBudget
  nodes: number
}

/**
 * Statement text one expression may compile to. Some operations use their operand more than once
 * (stringify, length, mod), so nesting them multiplies the text: without a bound, thirty levels of
 * `stringify` would ask for 3^30 copies.
 */
const MAX_EXPRESSION_SQL = 256 * 1024

const expressionTooBig = () =>
  outOfBounds("pipeline", `The pipeline's expressions are too large to run (at most ${MAX_EXPRESSION_NODES} operations and operands, nested at most ${MAX_EXPRESSION_DEPTH} deep)`, "MAX_SIZE", {
    maxNodes: MAX_EXPRESSION_NODES,
    maxDepth: MAX_EXPRESSION_DEPTH
  })

/** An expression as SQL yielding a JSON value (SQL NULL when it refers to a missing field). */
const expressionSql = (e: PipelineExpression, budget: Budget, depth = 1): Fragment => {
  if (depth > MAX_EXPRESSION_DEPTH || --budget.nodes < 0) throw expressionTooBig()
  const compiled = operationSql(e, (inner) => expressionSql(inner, budget, depth + 1))
  if (compiled.sql.length > MAX_EXPRESSION_SQL) throw expressionTooBig()
  return compiled
}

const operationSql = (e: PipelineExpression, expressionSql: (e: PipelineExpression) => Fragment): Fragment => {
  const operands = (parts: ReadonlyArray<PipelineExpression>) => {
    if (parts.length === 0) throw badRequest("WDE0043", `The ${exactlyOne(e)} operation needs at least one expression.`)
    return parts.map((p) => plain(expressionSql(p)))
  }
  const arithmetic = (parts: ReadonlyArray<PipelineExpression>, op: string) => quote(chain(` ${op} `, operands(parts)))
  switch (exactlyOne(e)) {
    case "fieldPath":
      return sql(`(doc -> ${jsonPath(e.fieldPath!)})`)
    case "text":
      return sql("json_quote(?)", e.text!)
    case "numeric":
      if (!Number.isFinite(e.numeric)) throw badRequest("WDE0043", "A numeric expression needs a finite number.")
      return sql("json_quote(?)", e.numeric!)
    case "add":
      return arithmetic(e.add!.expressions, "+")
    case "sum":
      return arithmetic(e.sum!.expressions, "+")
    case "multiply":
      return arithmetic(e.multiply!.expressions, "*")
    case "subtract":
      return arithmetic([e.subtract!.firstExpression, e.subtract!.secondExpression], "-")
    case "divide": {
      const a = plain(expressionSql(e.divide!.firstExpression))
      const b = plain(expressionSql(e.divide!.secondExpression))
      return quote(concat("((", a, ") * 1.0 / (", b, "))"))
    }
    case "mod": {
      // the sign follows the dividend, as JavaScript's %, and fractions survive (SQLite's % truncates)
      const a = plain(expressionSql(e.mod!.firstExpression))
      const b = plain(expressionSql(e.mod!.secondExpression))
      return quote(concat("((", a, ") - (", b, ") * CAST((", a, ") * 1.0 / (", b, ") AS INTEGER))"))
    }
    case "abs":
      return quote(concat("abs(", plain(expressionSql(e.abs!.expression)), ")"))
    case "floor":
      return quote(concat("floor(", plain(expressionSql(e.floor!.expression)), ")"))
    case "ceil":
      return quote(concat("ceil(", plain(expressionSql(e.ceil!.expression)), ")"))
    case "concat":
      return quote(chain(" || ", operands(e.concat!.expressions)))
    case "stringify": {
      const j = expressionSql(e.stringify!.expression)
      return quote(concat(
        "(CASE json_type(",
        j,
        ") WHEN 'text' THEN json_extract(",
        j,
        // concatenation drops the JSON subtype, so the text is quoted as a string
        ", '$') WHEN 'null' THEN 'null' ELSE (CAST(",
        j,
        " AS TEXT) || '') END)"
      ))
    }
    case "toLower":
      return quote(concat("sfx_fold(", plain(expressionSql(e.toLower!.expression)), ")"))
    case "toUpper":
      return quote(concat("sfx_upper(", plain(expressionSql(e.toUpper!.expression)), ")"))
    case "length": {
      const j = expressionSql(e.length!.expression)
      return quote(concat("(CASE json_type(", j, ") WHEN 'array' THEN json_array_length(", j, ") WHEN 'text' THEN length(json_extract(", j, ", '$')) END)"))
    }
    case "substring": {
      const s = e.substring!
      return quote(concat(
        "substr(",
        plain(expressionSql(s.expression)),
        ", (",
        plain(expressionSql(s.startExpression)),
        ") + 1, ",
        plain(expressionSql(s.lengthExpression)),
        ")"
      ))
    }
    default:
      throw badRequest("WDE0043", `Unknown expression operation ${exactlyOne(e)}.`)
  }
}

type Accumulator = NonNullable<NonNullable<PipelineStage["group"]>["accumulators"]>[number]

const accumulatorSql = (a: Accumulator, budget: Budget): Fragment => {
  const op = Object.keys(a).find((k) => k !== "resultFieldName" && (a as Record<string, unknown>)[k] !== undefined)
  const arg = op === undefined ? undefined : (a as unknown as Record<string, { readonly expression: PipelineExpression }>)[op]
  if (op === undefined || arg === undefined) throw badRequest("WDE0043", `The accumulator ${a.resultFieldName} needs an operation.`)
  const j = expressionSql(arg.expression, budget)
  const withJson = (f: (json: string) => string) => around(j, f)
  switch (op) {
    case "sum":
      return withJson((x) => `COALESCE(SUM(CASE WHEN ${rankOfJson(x)} = 1 THEN ${keyOfJson(x)} END), 0)`)
    case "avg":
      return withJson((x) => `AVG(CASE WHEN ${rankOfJson(x)} = 1 THEN ${keyOfJson(x)} END)`)
    case "min":
      return withJson((x) => `(json_group_array(${x} ORDER BY ${rankOfJson(x)}, ${keyOfJson(x)}) FILTER (WHERE ${rankOfJson(x)} > 0) -> '$[0]')`)
    case "max":
      return withJson((x) => `(json_group_array(${x} ORDER BY ${rankOfJson(x)}, ${keyOfJson(x)}) FILTER (WHERE ${rankOfJson(x)} > 0) -> '$[#-1]')`)
    case "first":
      return withJson((x) => `(json_group_array(${x} ORDER BY ord) -> '$[0]')`)
    case "last":
      return withJson((x) => `(json_group_array(${x} ORDER BY ord) -> '$[#-1]')`)
    case "push":
      // json() keeps the array an array inside json_object (the aggregate's JSON subtype does not survive)
      return withJson((x) => `json(json_group_array(${x} ORDER BY ord) FILTER (WHERE ${x} IS NOT NULL))`)
    default:
      throw badRequest("WDE0043", `Unknown accumulator ${op}.`)
  }
}

/**
 * `template` around a fragment that it may use several times: each use needs the fragment's
 * parameters again, in order (templates add no parameters of their own).
 */
const around = (inner: Fragment, template: (text: string) => string): Fragment => {
  const marker = "\u0000sfx\u0000"
  const uses = template(marker).split(marker).length - 1
  return { sql: template(inner.sql), params: Array.from({ length: uses }, () => inner.params).flat() }
}

export interface CompiledPipeline {
  /** `WITH ... ` ending in a CTE named {@link CompiledPipeline.last} with columns doc, ord. */
  readonly with: Fragment
  readonly last: string
}

/**
 * Compiles stages over the rows of one collection matching `base` (a condition on `data_items`).
 * `groupFieldsOnTop` copies grouping values next to `_id`, as aggregate results carry them.
 */
export const compilePipeline = (
  base: Fragment,
  baseFilter: (filter: unknown, field: string, budget: FilterBudget) => Fragment,
  stages: ReadonlyArray<PipelineStage>,
  options: { readonly groupFieldsOnTop?: boolean } = {}
): CompiledPipeline => {
  if (stages.length > MAX_PIPELINE_STAGES) {
    throw outOfBounds("pipeline.stages", `A pipeline has at most ${MAX_PIPELINE_STAGES} stages`, "MAX_SIZE", { maxStages: MAX_PIPELINE_STAGES })
  }
  const budget: Budget = { filters: filterBudget(), nodes: MAX_EXPRESSION_NODES }
  let i = 0
  const leading: Array<Fragment> = [base]
  for (; i < stages.length && stageKind(stages[i]!) === "filter"; i++) {
    leading.push(baseFilter(stages[i]!.filter, `pipeline.stages.${i}.filter`, budget.filters))
  }
  const ctes: Array<Fragment> = [
    concat("s0 AS (SELECT data AS doc, seq AS ord FROM data_items WHERE ", joinWith(" AND ", leading), ")")
  ]
  let previous = "s0"
  for (; i < stages.length; i++) {
    const name = `s${ctes.length}`
    ctes.push(concat(`${name} AS (`, stageSql(stages[i]!, i, previous, budget, options), ")"))
    previous = name
  }
  const compiled = concat("WITH ", joinWith(", ", ctes), " ")
  // SQLite binds at most 32 766 parameters; the bounds above keep a pipeline far below that
  if (compiled.params.length > MAX_PIPELINE_PARAMETERS) throw expressionTooBig()
  return { with: compiled, last: previous }
}

const MAX_PIPELINE_PARAMETERS = 30_000

/** What a pipeline reads of its collection, for the judgement of its cost (see Scans.ts). */
export interface PipelineRead {
  /** The filters of its leading filter stages, which run on the item table (an index may serve them). */
  readonly filters: ReadonlyArray<unknown>
  /** The sort of the stage right after them, which an index may serve too (none: no such stage). */
  readonly sort: ReadonlyArray<Sorting>
  /** Whether the stages after those go through every item they are given: a group, a sort or a filter before any limit. */
  readonly readsAll: boolean
}

/** How a pipeline of stages that compile (see {@link compilePipeline}) reads its collection. */
export const pipelineRead = (stages: ReadonlyArray<PipelineStage>): PipelineRead => {
  let i = 0
  while (i < stages.length && stageKind(stages[i]!) === "filter") i++
  const filters = stages.slice(0, i).map((stage) => stage.filter)
  const sort = stages[i]?.sort?.values ?? []
  const limited = stages.slice(i).findIndex((stage) => stageKind(stage) === "limit")
  const before = limited < 0 ? stages.slice(i) : stages.slice(i, i + limited)
  return { filters, sort, readsAll: before.some((stage) => ["group", "sort", "filter"].includes(stageKind(stage))) }
}

const stageKind = (stage: PipelineStage): string => {
  const keys = Object.keys(stage).filter((k) => (stage as Record<string, unknown>)[k] !== undefined)
  if (keys.length !== 1) throw badRequest("WDE0043", `A pipeline stage needs exactly one operation, got [${keys.join(", ")}].`)
  return keys[0]!
}

const checkCount = (n: number, what: string) => {
  if (!Number.isInteger(n) || n < 0) throw badRequest("WDE0034", `The ${what} stage needs a non-negative integer, not ${n}.`)
  if (n > MAX_INTEGER) throw badRequest("WDE0036", `The ${what} stage takes at most ${MAX_INTEGER}, not ${n}.`)
  return n
}

const stageSql = (
  stage: PipelineStage,
  index: number,
  from: string,
  budget: Budget,
  options: { readonly groupFieldsOnTop?: boolean }
): Fragment => {
  const field = `pipeline.stages.${index}`
  switch (stageKind(stage)) {
    case "filter":
      return concat(`SELECT doc, ord FROM ${from} WHERE `, compileFilter(stage.filter, DOC, `${field}.filter`, budget.filters))
    case "sort": {
      atMost(stage.sort!.values.length, MAX_SORT_FIELDS, `${field}.sort.values`, "A sort stage sorts by fields:")
      const terms = sortTerms(DOC, stage.sort!.values)
      return sql(`SELECT doc, ROW_NUMBER() OVER (ORDER BY ${orderBy([...terms, { expr: "ord", desc: false }])}) AS ord FROM ${from}`)
    }
    case "skip":
      return sql(`SELECT doc, ord FROM ${from} ORDER BY ord LIMIT -1 OFFSET ?`, checkCount(stage.skip!, "skip"))
    case "limit":
      return sql(`SELECT doc, ord FROM ${from} ORDER BY ord LIMIT ?`, checkCount(stage.limit!, "limit"))
    case "group":
      atMost(stage.group!.groupIds?.length ?? 0, MAX_GROUP_FIELDS, `${field}.group.groupIds`, "A group stage groups by ids:")
      atMost(stage.group!.accumulators?.length ?? 0, MAX_GROUP_FIELDS, `${field}.group.accumulators`, "A group stage has accumulators:")
      return groupSql(stage.group!, from, budget, options.groupFieldsOnTop === true)
    case "projection":
      atMost(stage.projection!.fields.length, MAX_PROJECTED_FIELDS, `${field}.projection.fields`, "A projection names fields:")
      return projectionSql(stage.projection!.fields, from, budget)
    case "unwindArray": {
      const p = jsonPath(stage.unwindArray!.arrayFieldName)
      return sql(
        `SELECT doc, ROW_NUMBER() OVER (ORDER BY o1, o2) AS ord FROM (` +
          `SELECT json_set(p.doc, ${p}, p.doc -> (${p} || '[' || u.key || ']')) AS doc, p.ord AS o1, u.key AS o2 ` +
          `FROM ${from} AS p, json_each(p.doc, ${p}) AS u WHERE json_type(p.doc, ${p}) = 'array' ` +
          `UNION ALL SELECT doc, ord, 0 FROM ${from} WHERE json_type(doc, ${p}) NOT IN ('array', 'null'))`
      )
    }
    case "objectToArray": {
      const o = jsonPath(stage.objectToArray!.objectFieldName)
      const d = jsonPath(stage.objectToArray!.destinationFieldName)
      const pairs = `(SELECT json_group_array(json_object('k', kv.key, 'v', doc -> (${o} || '.' || json_quote(kv.key))) ORDER BY kv.id) ` +
        `FROM json_each(doc, ${o}) AS kv)`
      return sql(`SELECT CASE WHEN json_type(doc, ${o}) = 'object' THEN json_set(doc, ${d}, ${pairs}) ELSE doc END AS doc, ord FROM ${from}`)
    }
    default:
      throw badRequest("WDE0043", `Unknown pipeline stage ${stageKind(stage)}.`)
  }
}

const groupSql = (group: NonNullable<PipelineStage["group"]>, from: string, budget: Budget, onTop: boolean): Fragment => {
  const ids = group.groupIds ?? []
  const idJson = ids.map((g) => ({ key: g.key, json: expressionSql(g.expression, budget) }))
  const idObject = idJson.length === 0
    ? sql("NULL")
    : concat("json_object(", joinWith(", ", idJson.map((g) => concat(`${literal(g.key)}, `, g.json))), ")")
  const fields: Array<Fragment> = [concat("'_id', ", idObject)]
  if (onTop) for (const g of idJson) fields.push(concat(`${literal(g.key)}, `, g.json))
  for (const a of group.accumulators ?? []) fields.push(concat(`${literal(a.resultFieldName)}, `, accumulatorSql(a, budget)))
  const groupBy = idJson.flatMap((g) => [around(g.json, rankOfJson), around(g.json, keyOfJson)])
  return concat(
    "SELECT json_object(",
    joinWith(", ", fields),
    `) AS doc, ROW_NUMBER() OVER (ORDER BY MIN(ord)) AS ord FROM ${from}`,
    // without grouping values every row is one group, and no rows make no group (a constant GROUP BY:
    // HAVING would be refused when the stage computes no accumulator, the query then having no aggregate)
    groupBy.length === 0 ? " GROUP BY NULL" : concat(" GROUP BY ", joinWith(", ", groupBy))
  )
}

const projectionSql = (
  fields: ReadonlyArray<NonNullable<PipelineStage["projection"]>["fields"][number]>,
  from: string,
  budget: Budget
): Fragment => {
  const includes = fields.flatMap((f) => (f.include === undefined ? [] : [f.include.fieldName]))
  const excludes = fields.flatMap((f) => (f.exclude === undefined ? [] : [f.exclude.fieldName]))
  const reshapes = fields.flatMap((f) => (f.reshape === undefined ? [] : [f.reshape]))
  let doc: Fragment = includes.length > 0 || reshapes.length > 0 ? sql(projection(DOC, includes)) : sql("doc")
  // one json_set per run of reshapes: nesting one call per reshape would deepen the expression tree
  for (let i = 0; i < reshapes.length; i += RESHAPE_RUN) {
    const run = reshapes.slice(i, i + RESHAPE_RUN).map((r) => concat(`${jsonPath(r.resultFieldName)}, `, expressionSql(r.expression, budget)))
    doc = concat("json_set(", doc, ", ", joinWith(", ", run), ")")
  }
  if (excludes.length > 0) doc = { sql: nested("json_remove", doc.sql, excludes.map(jsonPath)), params: doc.params }
  return concat("SELECT ", doc, ` AS doc, ord FROM ${from}`)
}

const RESHAPE_RUN = 400

/** The aggregate call as pipeline stages. */
export const aggregateStages = (request: AggregateDataItemsRequest): ReadonlyArray<PipelineStage> => {
  const grouping = request.aggregation?.groupingFields ?? []
  const accumulators = (request.aggregation?.operations ?? []).map((op) => {
    const field = (f: { readonly itemFieldName: string }) => ({ expression: { fieldPath: f.itemFieldName } })
    if (op.itemCount !== undefined) return { resultFieldName: op.resultFieldName, sum: { expression: { numeric: 1 } } }
    if (op.average !== undefined) return { resultFieldName: op.resultFieldName, avg: field(op.average) }
    if (op.sum !== undefined) return { resultFieldName: op.resultFieldName, sum: field(op.sum) }
    if (op.min !== undefined) return { resultFieldName: op.resultFieldName, min: field(op.min) }
    if (op.max !== undefined) return { resultFieldName: op.resultFieldName, max: field(op.max) }
    throw badRequest("WDE0043", `The operation ${op.resultFieldName} needs one of itemCount, average, sum, min, max.`)
  })
  return [
    ...(request.initialFilter === undefined || request.initialFilter === null ? [] : [{ filter: request.initialFilter }]),
    { group: { groupIds: grouping.map((f) => ({ key: f, expression: { fieldPath: f } })), accumulators } },
    ...(request.finalFilter === undefined || request.finalFilter === null ? [] : [{ filter: request.finalFilter }]),
    ...((request.sort ?? []).length === 0 ? [] : [{ sort: { values: request.sort ?? [] } }])
  ]
}
