/**
 * Small runtime checks of the platform's answers. A guard says what is wrong with a value (where, and
 * what was expected: `.identity.id: expected a string`), or nothing when the value has the guarded
 * shape; its type is that shape. A check that passes allocates nothing (the place of a failure is put
 * together on the way out), so a page of a thousand items costs one walk.
 *
 * The client checks answers with guards rather than Schema: an answer needs checking, not decoding, and
 * a browser page pays about 17 KB (gzip) for Schema against well under 1 KB for these. The local platform
 * keeps the Schemas of the same shapes (it decodes untrusted requests and reports field violations);
 * test/http/guards.test.ts holds each guard's type equal to its Schema's.
 */
import { isRecord } from "./isRecord.ts"

/** What is wrong with `u`, starting with where (`.a[2].b: expected a string`), or undefined when it fits. */
export interface Guard<A> {
  (u: unknown): string | undefined
  /** Phantom: the guarded type. */
  readonly Type?: A
}

/** The type a guard guards. */
export type TypeOf<G> = G extends Guard<infer A> ? A : never

/** A struct key that may be absent (never `undefined` when present, as with `Schema.optionalKey`). */
export interface Optional<A> extends Guard<A> {
  readonly optional: true
}

/** The message of a failed check, with its place (the root is `.`). */
export const describe = (wrong: string): string => (wrong.startsWith(":") ? `.${wrong}` : wrong)

const is = <A>(test: (u: unknown) => boolean, what: string): Guard<A> => {
  const wrong = `: expected ${what}`
  return (u) => (test(u) ? undefined : wrong)
}

/** A string. */
export const string: Guard<string> = is((u) => typeof u === "string", "a string")
/** A number (NaN and the infinities too: JSON has neither). */
export const number: Guard<number> = is((u) => typeof u === "number", "a number")
/** A boolean. */
export const boolean: Guard<boolean> = is((u) => typeof u === "boolean", "a boolean")
/** Anything: a field whose content is not checked. */
export const unknown: Guard<unknown> = () => undefined

/** Whether a value is an object that is not an array or null. */
export { isRecord }

/** Any object (not an array, not null), taken as it is. */
export const object: Guard<{ readonly [k: string]: unknown }> = is(isRecord, "an object")

/** The same check for a struct key that may be absent. */
export const optional = <A>(guard: Guard<A>): Optional<A> => Object.assign((u: unknown) => guard(u), { optional: true as const })

/** One of these strings. */
export const literals = <const L extends ReadonlyArray<string>>(values: L): Guard<L[number]> =>
  is((u) => values.includes(u as string), `one of ${values.join(", ")}`)

/** null, or what the guard takes. */
export const nullOr = <A>(guard: Guard<A>): Guard<A | null> => (u) => (u === null ? undefined : guard(u))

/** What either guard takes; a value neither takes is described by the second. */
export const union = <A, B>(a: Guard<A>, b: Guard<B>): Guard<A | B> => (u) => (a(u) === undefined ? undefined : b(u))

/** An array whose every item the guard takes; a failure names the first wrong index. */
export const array = <A>(item: Guard<A>): Guard<ReadonlyArray<A>> => {
  const notArray = ": expected an array"
  return (u) => {
    if (!Array.isArray(u)) return notArray
    for (let i = 0; i < u.length; i++) {
      const wrong = item(u[i])
      if (wrong !== undefined) return `[${i}]${wrong}`
    }
    return undefined
  }
}

/** An object whose every own value the guard takes; a failure names the first wrong key. */
export const record = <A>(value: Guard<A>): Guard<{ readonly [k: string]: A }> => (u) => {
  if (!isRecord(u)) return ": expected an object"
  for (const k in u) {
    const wrong = Object.hasOwn(u, k) ? value(u[k]) : undefined
    if (wrong !== undefined) return `.${k}${wrong}`
  }
  return undefined
}

type Fields = { readonly [k: string]: Guard<any> }
type OptionalKeys<F extends Fields> = { [K in keyof F]: F[K] extends Optional<any> ? K : never }[keyof F]
type Simplify<T> = { [K in keyof T]: T[K] } & {}
/** The type of a struct of these fields: its optional fields are optional keys. */
export type StructType<F extends Fields> = Simplify<
  & { readonly [K in Exclude<keyof F, OptionalKeys<F>>]: TypeOf<F[K]> }
  & { readonly [K in OptionalKeys<F>]?: TypeOf<F[K]> }
>

/** An object with these keys (others are allowed and kept). */
export const struct = <F extends Fields>(fields: F): Guard<StructType<F>> => {
  const keys = Object.keys(fields)
  const guards = keys.map((k) => fields[k]!)
  const optional = guards.map((g) => (g as Partial<Optional<unknown>>).optional === true)
  return (u) => {
    if (!isRecord(u)) return ": expected an object"
    for (let i = 0; i < keys.length; i++) {
      const v = u[keys[i]!]
      if (v === undefined && optional[i]) continue
      const wrong = guards[i]!(v)
      if (wrong !== undefined) return `.${keys[i]}${wrong}`
    }
    return undefined
  }
}

/** A guard defined in terms of itself (recursive shapes). */
export const lazy = <A>(f: () => Guard<A>): Guard<A> => (u) => f()(u)

