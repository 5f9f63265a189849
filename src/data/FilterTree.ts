/**
 * The data API's filter tree as a typed AST, shared by the client and the local platform. A filter
 * travels as JSON (`{field: value}`, `{field: {$op: operand}}`, `$and`/`$or`/`$not`); {@link parseFilter}
 * checks it with the platform's rules and codes (the first problem wins, with the path where it is)
 * and {@link filterToJson} writes it back.
 *
 * ```ts
 * const parsed = parseFilter({ $and: [{ likes: { $gt: 10 } }, { tags: { $hasSome: ["news"] } }] })
 * if (Result.isSuccess(parsed)) parsed.success // { _tag: "And", nodes: [Compare, Set] }
 * ```
 *
 * Values stay in their wire form: a date is `{ $date: iso }`, never a `Date`.
 */
import * as Result from "effect/Result"
import { type DataError, invalid, WDE } from "./DataError.ts"
import { isRecord } from "../http/isRecord.ts"

/** A date as it travels: `{"$date": "<ISO-8601>"}`. */
export interface DateValue {
  readonly $date: string
}

/** What ordering comparisons and set operators accept. */
export type Comparable = string | number | boolean | DateValue

export type EqualityOp = "$eq" | "$ne"
export type OrderingOp = "$gt" | "$gte" | "$lt" | "$lte"
export type SetOp = "$in" | "$hasSome" | "$hasAll"
export type TextOp = "$startsWith" | "$endsWith" | "$contains"

/** One part of a `$matches` pattern: literal text, or one whitespace/dash character. */
export type MatchPart =
  | { readonly type: "literal"; readonly value: string }
  | { readonly type: "anyOf"; readonly value: typeof MATCH_ANY_OF }

/** The only character class `$matches` allows. */
export const MATCH_ANY_OF = " \t\n-"

export type FilterNode =
  /** Every node matches; `And([])` matches everything. */
  | { readonly _tag: "And"; readonly nodes: ReadonlyArray<FilterNode> }
  /** Some node matches; `Or([])` matches nothing. */
  | { readonly _tag: "Or"; readonly nodes: ReadonlyArray<FilterNode> }
  | { readonly _tag: "Not"; readonly node: FilterNode }
  /** `$eq`/`$ne` take any JSON value (`null` means empty); `$gt`.. take a {@link Comparable}. */
  | { readonly _tag: "Compare"; readonly field: string; readonly op: EqualityOp; readonly value: unknown }
  | { readonly _tag: "Compare"; readonly field: string; readonly op: OrderingOp; readonly value: Comparable }
  | { readonly _tag: "Set"; readonly field: string; readonly op: SetOp; readonly values: ReadonlyArray<Comparable> }
  /** Case-insensitive string tests. */
  | { readonly _tag: "Text"; readonly field: string; readonly op: TextOp; readonly value: string }
  | { readonly _tag: "Exists"; readonly field: string; readonly exists: boolean }
  /** A whole-value, case-insensitive match of literal parts and whitespace/dash characters. */
  | { readonly _tag: "Matches"; readonly field: string; readonly spec: ReadonlyArray<MatchPart> }

/** The filter that matches every item. */
export const matchAll: FilterNode = { _tag: "And", nodes: [] }

type Json = Record<string, unknown>


/** `{"$date": string}` and nothing else. */
export const isDateValue = (v: unknown): v is DateValue => {
  if (!isRecord(v)) return false
  const keys = Object.keys(v)
  return keys.length === 1 && keys[0] === "$date" && typeof v["$date"] === "string"
}

export const isComparable = (v: unknown): v is Comparable =>
  typeof v === "string" || typeof v === "number" || typeof v === "boolean" || isDateValue(v)

const show = (v: unknown): string => {
  try {
    return JSON.stringify(v) ?? String(v)
  } catch {
    return String(v)
  }
}

const at = (path: string, key: string) => (path === "" ? key : `${path}.${key}`)

class Invalid {
  readonly error: DataError
  constructor(error: DataError) {
    this.error = error
  }
}

function fail(code: typeof WDE[keyof typeof WDE], message: string, path: string): never {
  throw new Invalid(invalid(code, message, path))
}

/**
 * Reads a filter tree. Fails with the WDE code and path of the first problem: WDE0056 (not an object,
 * or an unknown operator), WDE0057 (`$and`/`$or`/`$in`/`$hasSome`/`$hasAll` not an array, `$not` not
 * exactly one filter), WDE0058 (`$gt`.. operand), WDE0059 (string operators), WDE0060 (set items),
 * WDE0062–WDE0064 (`$matches`), WDE0070 (`$regex`).
 */
export const parseFilter = (json: unknown): Result.Result<FilterNode, DataError> => {
  try {
    return Result.succeed(tree(json, ""))
  } catch (e) {
    if (e instanceof Invalid) return Result.fail(e.error)
    throw e
  }
}

const tree = (json: unknown, path: string): FilterNode => {
  if (!isRecord(json)) return fail(WDE.filterNotObject, `Filter Model should be an Object. Got ${show(json)} instead`, path)
  const nodes: Array<FilterNode> = []
  for (const [key, value] of Object.entries(json)) {
    const here = at(path, key)
    switch (key) {
      case "$and":
      case "$or": {
        if (!Array.isArray(value)) fail(WDE.filterNotArray, `${here} should be an Array. Got ${show(value)} instead`, here)
        const children = (value as ReadonlyArray<unknown>).map((child, i) => tree(child, at(here, String(i))))
        nodes.push({ _tag: key === "$and" ? "And" : "Or", nodes: children })
        break
      }
      case "$not":
        nodes.push({ _tag: "Not", node: tree(single(value, here), here) })
        break
      default:
        if (key.startsWith("$")) {
          if (key === "$regex") fail(WDE.regexNotAllowed, "$regex keyword is not allowed.", here)
          fail(WDE.filterNotObject, `Unexpected operator ${here}`, here)
        }
        if (key === "") fail(WDE.filterNotObject, "A field name must not be empty", here)
        nodes.push(...fieldConditions(key, value, here))
    }
  }
  return nodes.length === 1 ? nodes[0]! : { _tag: "And", nodes }
}

/** `$not` takes one filter, alone or as the only element of an array (the builders send `[f]`). */
const single = (value: unknown, path: string): unknown => {
  if (!Array.isArray(value)) return value
  if (value.length !== 1) {
    fail(WDE.filterNotArray, `${show(value)}.length is ${value.length}. ${path} Array should have length 1`, path)
  }
  return value[0]
}

const isOperatorObject = (value: unknown): value is Json =>
  isRecord(value) && !isDateValue(value) && Object.keys(value).some((k) => k.startsWith("$"))

/** A field's value: a plain value (equality) or an object of operators, all of which must hold. */
const fieldConditions = (field: string, value: unknown, path: string): ReadonlyArray<FilterNode> => {
  if (!isOperatorObject(value)) return [{ _tag: "Compare", field, op: "$eq", value }]
  return Object.entries(value).map(([op, operand]) => condition(field, op, operand, at(path, op)))
}

const condition = (field: string, op: string, operand: unknown, path: string): FilterNode => {
  switch (op) {
    case "$eq":
    case "$ne":
      return { _tag: "Compare", field, op, value: operand }
    case "$gt":
    case "$gte":
    case "$lt":
    case "$lte":
      if (!isComparable(operand)) {
        return fail(WDE.comparisonOperand, `${path} should be a Date, Number, String, or Boolean. Got ${show(operand)} instead`, path)
      }
      return { _tag: "Compare", field, op, value: operand }
    case "$startsWith":
    case "$endsWith":
    case "$contains":
      if (typeof operand !== "string") return fail(WDE.stringOperand, `${path} should be a String. Got ${show(operand)} instead`, path)
      return { _tag: "Text", field, op, value: operand }
    case "$exists":
      if (typeof operand !== "boolean") return fail(WDE.filterNotObject, `${path} should be a Boolean`, path)
      return { _tag: "Exists", field, exists: operand }
    case "$in":
    case "$hasSome":
    case "$hasAll": {
      if (!Array.isArray(operand)) return fail(WDE.filterNotArray, `${path} should be an Array. Got ${show(operand)} instead`, path)
      if (!operand.every(isComparable)) {
        return fail(
          WDE.setOperand,
          `${path} Array should only contain values of types Date, Number, String, and Boolean. Got ${show(operand)} instead`,
          path
        )
      }
      return { _tag: "Set", field, op, values: operand as ReadonlyArray<Comparable> }
    }
    case "$matches":
      return { _tag: "Matches", field, spec: matches(operand, path) }
    case "$not": {
      if (!isRecord(operand)) return fail(WDE.filterNotObject, `${path} should be an Object. Got ${show(operand)} instead`, path)
      const nodes = fieldConditions(field, operand, path)
      return { _tag: "Not", node: nodes.length === 1 ? nodes[0]! : { _tag: "And", nodes } }
    }
    case "$regex":
      return fail(WDE.regexNotAllowed, "$regex keyword is not allowed.", path)
    default:
      return fail(WDE.filterNotObject, `Unknown operator ${path}`, path)
  }
}

const matches = (operand: unknown, path: string): ReadonlyArray<MatchPart> => {
  if (!isRecord(operand)) return fail(WDE.filterNotObject, `${path} should be an Object. Got ${show(operand)} instead`, path)
  if (!("ignoreCase" in operand)) return fail(WDE.matchesProperty, `$matches value ${show(operand)} does not have property ignoreCase`, path)
  if (!("spec" in operand)) return fail(WDE.matchesProperty, `$matches value ${show(operand)} does not have property spec`, path)
  if (operand["ignoreCase"] !== true) {
    return fail(WDE.matchesIgnoreCase, `$matches.ignoreCase should equal true. Got ${show(operand["ignoreCase"])} instead`, path)
  }
  const spec = operand["spec"]
  if (!Array.isArray(spec)) return fail(WDE.filterNotArray, `${path}.spec should be an Array. Got ${show(spec)} instead`, `${path}.spec`)
  return spec.map((part: unknown): MatchPart => {
    if (isRecord(part) && part["type"] === "literal" && typeof part["value"] === "string") {
      return { type: "literal", value: part["value"] }
    }
    if (isRecord(part) && part["type"] === "anyOf" && part["value"] === MATCH_ANY_OF) return { type: "anyOf", value: MATCH_ANY_OF }
    return fail(
      WDE.matchesSpec,
      `$matches.spec Array values should be either {"type":"anyOf","value":" \\t\\n-"} or {"type":"literal","value":String}. Got ${show(part)} instead`,
      `${path}.spec`
    )
  })
}

/** The wire JSON of a filter node (the inverse of {@link parseFilter}, up to `$and` nesting). */
export const filterToJson = (node: FilterNode): Record<string, unknown> => {
  switch (node._tag) {
    case "And":
      return { $and: node.nodes.map(filterToJson) }
    case "Or":
      return { $or: node.nodes.map(filterToJson) }
    case "Not":
      return { $not: [filterToJson(node.node)] }
    case "Compare":
      return { [node.field]: { [node.op]: node.value } }
    case "Set":
      return { [node.field]: { [node.op]: node.values } }
    case "Text":
      return { [node.field]: { [node.op]: node.value } }
    case "Exists":
      return { [node.field]: { $exists: node.exists } }
    case "Matches":
      return { [node.field]: { $matches: { ignoreCase: true, spec: node.spec } } }
  }
}
