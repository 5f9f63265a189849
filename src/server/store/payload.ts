/**
 * Reading GET payloads, which arrive either as one `.r` parameter (base64url JSON, for payloads holding
 * objects) or flattened into query parameters (`paging.limit=10&fields=a&fields=b`), decoded with the
 * shared wire schemas. The data, catalog and members query calls read theirs with it.
 */
import * as Effect from "effect/Effect"
import type * as Schema from "effect/Schema"
import type * as HttpServerRequest from "effect/http/HttpServerRequest"
import { decodeUtf8, parseJson } from "../platform/json.ts"
import { invalidField, type Reject } from "../platform/responses.ts"
import { decode, query } from "../platform/routing.ts"
import type { Json } from "./values.ts"

export interface FlatKinds {
  /** Keys whose every value is kept, as an array. */
  readonly arrays?: ReadonlyArray<string>
  readonly booleans?: ReadonlyArray<string>
  readonly numbers?: ReadonlyArray<string>
}

/** Names that would reach an object's prototype rather than a key of its own. */
const PROTOTYPE_KEYS = new Set(["__proto__", "constructor", "prototype"])

/** Query parameters back into the payload object (dotted keys nest); `.r` wins when present. */
export const getPayload = <A, I>(
  schema: Schema.Codec<A, I>,
  kinds: FlatKinds = {},
  extra: Json = {}
): Effect.Effect<A, Reject, HttpServerRequest.HttpServerRequest> =>
  Effect.gen(function*() {
    const params = yield* query
    const r = params.get(".r")
    if (r !== null) {
      const text = decodeUtf8(Buffer.from(r.replace(/-/g, "+").replace(/_/g, "/"), "base64"))
      if (text === undefined) return yield* invalidField(".r", "The .r parameter is not base64url UTF-8", "FORMAT")
      const parsed = parseJson(text, ".r", "The .r parameter")
      if (!parsed.ok) return yield* parsed.reject
      const json = parsed.value
      if (typeof json !== "object" || json === null || Array.isArray(json)) {
        return yield* invalidField(".r", "The .r parameter must hold a JSON object", "FORMAT")
      }
      return yield* decode(schema, { ...json, ...extra })
    }
    const payload: Json = {}
    for (const key of new Set(params.keys())) {
      const parts = key.split(".")
      if (parts.some((p) => PROTOTYPE_KEYS.has(p))) return yield* invalidField(key, `The parameter ${key} names no field of this call`)
      const values = params.getAll(key)
      const value: unknown = kinds.arrays?.includes(key)
        ? values
        : kinds.booleans?.includes(key)
        ? values[0] === "true" ? true : values[0] === "false" ? false : values[0]
        : kinds.numbers?.includes(key)
        ? Number(values[0])
        : values[0]
      if (!setDotted(payload, parts, value)) return yield* invalidField(key, `The parameter ${key} conflicts with another parameter`)
    }
    return yield* decode(schema, { ...payload, ...extra })
  })

/** Sets `value` at `parts`; false when a part is taken by a value that is not an object of ours. */
const setDotted = (target: Json, parts: ReadonlyArray<string>, value: unknown): boolean => {
  let current = target
  for (const part of parts.slice(0, -1)) {
    const next = Object.hasOwn(current, part) ? current[part] : undefined
    if (next === undefined) current = current[part] = {}
    else if (typeof next === "object" && next !== null && !Array.isArray(next)) current = next as Json
    else return false
  }
  current[parts[parts.length - 1]!] = value
  return true
}
