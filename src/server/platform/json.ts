/**
 * JSON from clients, checked before anything walks it: UTF-8 that is really UTF-8 (a broken byte
 * sequence would otherwise be stored as U+FFFD, silently changing what was sent), JSON.parse (which
 * does not recurse, so any depth parses), then a depth bound on the text, so that no later schema
 * decode, filter parse or serializer can overflow the stack on what a client nested.
 */
import { MAX_JSON_DEPTH } from "./limits.ts"
import { invalidField, type Reject } from "./responses.ts"

const utf8 = new TextDecoder("utf-8", { fatal: true })

/** The bytes as text, or undefined when they are not valid UTF-8. */
export const decodeUtf8 = (bytes: ArrayBuffer | Uint8Array): string | undefined => {
  try {
    return utf8.decode(bytes)
  } catch {
    return undefined
  }
}

export const notUtf8 = (field = ""): Reject => invalidField(field, "The request body is not valid UTF-8", "FORMAT")

/**
 * Whether JSON text nests objects and arrays deeper than `max`. Strings are skipped with `indexOf`
 * (brackets inside them do not count), so the scan costs about a third of the parse.
 */
export const depthOver = (text: string, max: number): boolean => {
  let depth = 0
  const n = text.length
  for (let i = 0; i < n; i++) {
    const c = text.charCodeAt(i)
    if (c === 34) {
      let from = i + 1
      for (;;) {
        const quote = text.indexOf("\"", from)
        if (quote < 0) return false
        let b = quote - 1
        while (text.charCodeAt(b) === 92) b--
        // an even run of backslashes escapes itself, not the quote
        if ((quote - 1 - b) % 2 === 0) {
          i = quote
          break
        }
        from = quote + 1
      }
    } else if (c === 123 || c === 91) {
      if (++depth > max) return true
    } else if (c === 125 || c === 93) depth--
  }
  return false
}

/** A refusal of JSON nested over `max` levels at `field`. */
export const tooDeep = (field: string, what: string, max: number): Reject =>
  invalidField(field, `${what} nests deeper than ${max} levels`, "MAX_DEPTH", { maxDepth: max })

/** The parsed JSON, or the refusal of text that is not JSON or nests deeper than {@link MAX_JSON_DEPTH}. */
export const parseJson = (text: string, field = "", what = "The request body"): { readonly ok: true; readonly value: unknown } | {
  readonly ok: false
  readonly reject: Reject
} => {
  let value: unknown
  try {
    value = JSON.parse(text)
  } catch {
    return { ok: false, reject: invalidField(field, `${what} is not valid JSON`, "FORMAT") }
  }
  if (typeof value === "object" && value !== null && depthOver(text, MAX_JSON_DEPTH)) {
    return { ok: false, reject: tooDeep(field, what, MAX_JSON_DEPTH) }
  }
  return { ok: true, value }
}

/**
 * The nesting of a parsed value (`{}` and `[]` are 1, a scalar 0), counting no further than `max + 1`.
 * Recursive, so call it only on values whose text passed {@link depthOver} or were built from such.
 */
export const depthOf = (value: unknown, max: number): number => {
  if (typeof value !== "object" || value === null) return 0
  if (max <= 0) return 1
  let deepest = 0
  if (Array.isArray(value)) {
    for (const v of value) {
      const d = depthOf(v, max - 1)
      if (d > deepest) deepest = d
      if (deepest >= max) break
    }
  } else {
    for (const k in value) {
      if (!Object.hasOwn(value, k)) continue
      const d = depthOf((value as Record<string, unknown>)[k], max - 1)
      if (d > deepest) deepest = d
      if (deepest >= max) break
    }
  }
  return 1 + deepest
}
