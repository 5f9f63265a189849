/**
 * Immutable filter building (the builders; `Filter.fromJson` is given its body in Filter.ts). Every call returns a new value; a call with a bad argument records a
 * typed DataError (with its WDE code) that the query raises when it runs, before any request.
 * The tree sent is the platform's: conditions collected under `$and`, then simplified (a single
 * condition stands alone, plain conditions on distinct fields merge into one object, nested
 * `$and`/`$or` flatten).
 *
 * @example
 * const popular = Filter.gt("likes", 10).hasSome("tags", ["news", "sport"])
 * DataItems.query("Posts").where(popular).find
 */
import { DataError, invalid, WDE } from "./DataError.ts"
import type { FilterJson } from "./wire/index.ts"

/** A value a comparison accepts. */
export type Comparable = string | number | boolean | Date

/**
 * The fields of an untyped item (`Item`): a filter may name any field with any value. A typed query
 * (`DataItems.collection(name, Schema)`, the handles `sitefx data types` writes) has its item's declared
 * fields instead, and the compiler checks each name and value.
 */
export interface AnyFields {
  readonly "~sitefx/AnyFields": true
}

/** An item type's declared fields: its keys without an index signature's. */
export type DeclaredFields<A> = { readonly [K in keyof A as string extends K ? never : number extends K ? never : symbol extends K ? never : K]: A[K] }

/** A field a filter or a sort may name. */
export type FieldName<F> = F extends AnyFields ? string : Extract<keyof F, string>
/** The values of a field (absent and `undefined` left out). */
export type FieldValue<F, K> = F extends AnyFields ? unknown : K extends keyof F ? Exclude<F[K], undefined> : never
/** The fields whose values are all of type `V`. */
export type FieldsOf<F, V> = F extends AnyFields ? string
  : { readonly [K in Extract<keyof F, string>]-?: [Exclude<F[K], undefined>] extends [never] ? never : Exclude<F[K], undefined> extends V ? K : never }[Extract<keyof F, string>]
/** Whether values of type `V` are a reference: an id or the referenced item, or an array of those. */
type IsReference<V> = [Extract<V, string>] extends [never] ? (V extends ReadonlyArray<infer E> ? IsReference<E> : false)
  : [Exclude<V, string>] extends [never] ? false
  : true
/** The reference fields (single or multi) a query may include. */
export type ReferenceFieldsOf<F> = F extends AnyFields ? string
  : { readonly [K in Extract<keyof F, string>]-?: IsReference<Exclude<F[K], undefined>> extends true ? K : never }[Extract<keyof F, string>]
/** What a comparison of the field takes. */
export type ComparableOf<F, K> = F extends AnyFields ? Comparable : Extract<FieldValue<F, K>, Comparable>
/** What an array field's elements are, for `hasSome` and `hasAll`. */
export type ElementOf<F, K> = F extends AnyFields ? Comparable : FieldValue<F, K> extends ReadonlyArray<infer E> ? Extract<E, Comparable> : never

type Tree = Record<string, unknown>

const isComparable = (v: unknown): v is Comparable =>
  typeof v === "string" || (typeof v === "number" && !Number.isNaN(v)) || typeof v === "boolean" || v instanceof Date

const isStringNumberOrDate = (v: unknown): boolean =>
  typeof v === "string" || (typeof v === "number" && !Number.isNaN(v)) || v instanceof Date

const typeName = (v: unknown): string =>
  v === null ? "null" : v instanceof Date ? "Date" : Array.isArray(v) ? "Array" : typeof v

/** The shared base of Filter and the query builders: conditions plus the first recorded error. */
export abstract class FilterMethods<Self, F = AnyFields> {
  /** Conditions, in order, before simplification. */
  readonly conditions: ReadonlyArray<Tree>
  /** The first bad argument seen; the builder fails with it when run. */
  readonly error: DataError | undefined

  constructor(conditions: ReadonlyArray<Tree>, error: DataError | undefined) {
    this.conditions = conditions
    this.error = error
  }

  protected abstract withConditions(conditions: ReadonlyArray<Tree>, error: DataError | undefined): Self

  protected add(condition: Tree): Self {
    return this.withConditions([...this.conditions, condition], this.error)
  }

  protected fail(error: DataError): Self {
    return this.withConditions(this.conditions, this.error ?? error)
  }

  private field(op: string, field: unknown): DataError | undefined {
    return typeof field === "string"
      ? undefined
      : invalid(WDE.fieldNotString, `Invalid ${op} field value [${typeName(field)}]. ${op} field must be a String.`, op)
  }

  private op(name: string, field: string, operator: string, value: unknown): Self {
    const bad = this.field(name, field)
    if (bad !== undefined) return this.fail(bad)
    const operand = value === undefined ? null : value
    return this.add(operator === "$eq" ? { [field]: operand } : { [field]: { [operator]: operand } })
  }

  private comparison(name: string, operator: string, field: string, value: Comparable): Self {
    if (!isComparable(value)) {
      return this.fail(invalid(
        WDE.notComparable,
        `Invalid ${name} parameter value [${typeName(value)}]. Valid ${name} parameter types are String, Number, Boolean or Date.`,
        name
      ))
    }
    return this.op(name, field, operator, value)
  }

  private text(name: string, operator: string, field: string, value: string): Self {
    if (typeof value !== "string") {
      return this.fail(invalid(WDE.notString, `Invalid ${name} parameter value [${typeName(value)}]. ${name} parameter must be a String.`, name))
    }
    return this.op(name, field, operator, value)
  }

  private set(name: string, operator: string, field: string, values: ReadonlyArray<Comparable>): Self {
    if (!Array.isArray(values) || !values.every(isStringNumberOrDate)) {
      return this.fail(invalid(WDE.setOperand, `Invalid ${name} usage. ${name} supports only Number, String or Date items.`, name))
    }
    return this.op(name, field, operator, [...values])
  }

  /** Equal (a missing value compares as null). */
  eq<K extends FieldName<F>>(field: K, value: FieldValue<F, K>): Self {
    return this.op(".eq", field, "$eq", value)
  }
  ne<K extends FieldName<F>>(field: K, value: FieldValue<F, K>): Self {
    return this.op(".ne", field, "$ne", value)
  }
  gt<K extends FieldsOf<F, Comparable>>(field: K, value: ComparableOf<F, K>): Self {
    return this.comparison(".gt", "$gt", field, value)
  }
  ge<K extends FieldsOf<F, Comparable>>(field: K, value: ComparableOf<F, K>): Self {
    return this.comparison(".ge", "$gte", field, value)
  }
  lt<K extends FieldsOf<F, Comparable>>(field: K, value: ComparableOf<F, K>): Self {
    return this.comparison(".lt", "$lt", field, value)
  }
  le<K extends FieldsOf<F, Comparable>>(field: K, value: ComparableOf<F, K>): Self {
    return this.comparison(".le", "$lte", field, value)
  }
  /** `start <= field < end`; both ends of the same type. */
  between<K extends FieldsOf<F, string | number | Date>>(field: K, start: ComparableOf<F, K>, end: ComparableOf<F, K>): Self {
    if (!isStringNumberOrDate(start) || !isStringNumberOrDate(end)) {
      return this.fail(invalid(WDE.notComparable, `Invalid .between parameter values. Valid .between parameter types are String, Number or Date.`, ".between"))
    }
    if (typeName(start) !== typeName(end)) {
      return this.fail(invalid(
        WDE.notSameType,
        `Invalid .between parameter values [${typeName(start)}] and [${typeName(end)}]. Both parameters must be of the same type.`,
        ".between"
      ))
    }
    return (this.comparison(".ge", "$gte", field, start as Comparable) as unknown as FilterMethods<Self>).lt(field, end as Comparable)
  }
  startsWith<K extends FieldsOf<F, string>>(field: K, value: string): Self {
    return this.text(".startsWith", "$startsWith", field, value)
  }
  endsWith<K extends FieldsOf<F, string>>(field: K, value: string): Self {
    return this.text(".endsWith", "$endsWith", field, value)
  }
  contains<K extends FieldsOf<F, string>>(field: K, value: string): Self {
    return this.text(".contains", "$contains", field, value)
  }
  hasSome<K extends FieldsOf<F, ReadonlyArray<unknown>>>(field: K, values: ReadonlyArray<ElementOf<F, K>>): Self {
    return this.set(".hasSome", "$hasSome", field, values)
  }
  hasAll<K extends FieldsOf<F, ReadonlyArray<unknown>>>(field: K, values: ReadonlyArray<ElementOf<F, K>>): Self {
    return this.set(".hasAll", "$hasAll", field, values)
  }
  in<K extends FieldName<F>>(field: K, values: ReadonlyArray<ComparableOf<F, K>>): Self {
    return this.set(".in", "$in", field, values)
  }
  /** The field exists (true) or not (false). */
  exists(field: FieldName<F>, value = true): Self {
    if (typeof value !== "boolean") {
      return this.fail(invalid(WDE.notComparable, `Invalid .exists parameter value [${typeName(value)}]. .exists parameter must be a Boolean.`, ".exists"))
    }
    return this.op(".exists", field, "$exists", value)
  }
  isEmpty(field: FieldName<F>): Self {
    return this.op(".isEmpty", field, "$eq", null)
  }
  isNotEmpty(field: FieldName<F>): Self {
    return this.op(".isNotEmpty", field, "$ne", null)
  }

  /** The conditions so far AND the other filter's. */
  and(other: Filter): Self {
    if (!(other instanceof Filter)) return this.fail(invalid(WDE.filterNotBuilder, "Invalid .and usage. .and requires a Filter.", ".and"))
    if (other.conditions.length === 0) return this.withConditions(this.conditions, this.error ?? other.error)
    const mine = this.conditions.length === 0 ? [] : [{ $and: [...this.conditions] }]
    return this.withConditions([...mine, { $and: [...other.conditions] }], this.error ?? other.error)
  }
  /** The conditions so far OR the other filter's. */
  or(other: Filter): Self {
    if (!(other instanceof Filter)) return this.fail(invalid(WDE.filterNotBuilder, "Invalid .or usage. .or requires a Filter.", ".or"))
    const mine = this.conditions.length === 0 ? [] : [{ $and: [...this.conditions] }]
    return this.withConditions([{ $or: [...mine, { $and: [...other.conditions] }] }], this.error ?? other.error)
  }
  /** The conditions so far AND NOT the other filter's. */
  not(other: Filter): Self {
    if (!(other instanceof Filter)) return this.fail(invalid(WDE.filterNotBuilder, "Invalid .not usage. .not requires a Filter.", ".not"))
    return this.withConditions([...this.conditions, { $not: [{ $and: [...other.conditions] }] }], this.error ?? other.error)
  }

  /** The filter tree as sent on the wire (Dates still Date objects; the transport encodes them). */
  get tree(): FilterJson {
    return simplify({ $and: [...this.conditions] }) as FilterJson
  }
}

/** A standalone filter, to combine with `and`/`or`/`not` or pass to `query.where`. */
export class Filter extends FilterMethods<Filter> {
  static readonly empty = new Filter([], undefined)
  protected withConditions(conditions: ReadonlyArray<Tree>, error: DataError | undefined): Filter {
    return new Filter(conditions, error)
  }
  static eq = (field: string, value: unknown) => Filter.empty.eq(field, value)
  static ne = (field: string, value: unknown) => Filter.empty.ne(field, value)
  static gt = (field: string, value: Comparable) => Filter.empty.gt(field, value)
  static ge = (field: string, value: Comparable) => Filter.empty.ge(field, value)
  static lt = (field: string, value: Comparable) => Filter.empty.lt(field, value)
  static le = (field: string, value: Comparable) => Filter.empty.le(field, value)
  static between = (field: string, start: Comparable, end: Comparable) => Filter.empty.between(field, start, end)
  static startsWith = (field: string, value: string) => Filter.empty.startsWith(field, value)
  static endsWith = (field: string, value: string) => Filter.empty.endsWith(field, value)
  static contains = (field: string, value: string) => Filter.empty.contains(field, value)
  static hasSome = (field: string, values: ReadonlyArray<Comparable>) => Filter.empty.hasSome(field, values)
  static hasAll = (field: string, values: ReadonlyArray<Comparable>) => Filter.empty.hasAll(field, values)
  static in = (field: string, values: ReadonlyArray<Comparable>) => Filter.empty.in(field, values)
  static exists = (field: string, value = true) => Filter.empty.exists(field, value)
  static isEmpty = (field: string) => Filter.empty.isEmpty(field)
  static isNotEmpty = (field: string) => Filter.empty.isNotEmpty(field)

  /**
   * A filter written as the platform's JSON (`{"likes": {"$gt": 10}}`), checked with the same rules the
   * platform applies: `$regex` is refused (WDE0070), `$matches` must be case-insensitive, set operators
   * take arrays of scalars, `$not` takes one filter. A problem is recorded as the filter's error.
   */
  // given its body by Filter.ts, the module every public route to Filter goes through: a bundle that only
  // builds filters in code (a product search) carries none of the JSON filter checks
  declare static fromJson: (json: unknown) => Filter
}

const isOperatorObject = (node: Tree): boolean => {
  const keys = Object.keys(node)
  return keys.length > 0 && keys.every((k) => k.startsWith("$"))
}

const isPlainObject = (v: unknown): v is Tree =>
  typeof v === "object" && v !== null && !Array.isArray(v) && !(v instanceof Date)

/**
 * The platform's simplification of a filter tree, applied until nothing changes. Order matters: distinct
 * plain conditions merge before nested `$and`s are flattened, as the platform's own builder does.
 */
export const simplify = (node: unknown): unknown => {
  if (Array.isArray(node)) return node.map(simplify)
  if (!isPlainObject(node)) return node
  const inner: Tree = {}
  for (const [k, v] of Object.entries(node)) inner[k] = simplify(v)
  const and = inner["$and"]
  if (Array.isArray(and)) {
    if (and.length === 0) return {}
    if (and.length === 1) return simplify(and[0])
    const plain = and.filter((x) => isPlainObject(x) && !isOperatorObject(x)) as Array<Tree>
    const operators = and.filter((x) => !(isPlainObject(x) && !isOperatorObject(x)))
    const keys = plain.flatMap((x) => Object.keys(x))
    if (plain.length > 1 && new Set(keys).size === keys.length) {
      return simplify({ $and: [Object.assign({}, ...plain), ...operators] })
    }
    if (and.some((x) => isPlainObject(x) && Array.isArray(x["$and"]))) {
      return simplify({ ...inner, $and: and.flatMap((x) => (isPlainObject(x) && Array.isArray(x["$and"]) ? x["$and"] : [x])) })
    }
  }
  const or = inner["$or"]
  if (Array.isArray(or) && or.some((x) => isPlainObject(x) && Array.isArray(x["$or"]))) {
    return simplify({ ...inner, $or: or.flatMap((x) => (isPlainObject(x) && Array.isArray(x["$or"]) ? x["$or"] : [x])) })
  }
  return inner
}
