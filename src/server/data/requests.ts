/**
 * Reading data requests: JSON bodies with a size limit (over it: 413, which clients report as
 * WDE0109), and GET payloads, which arrive either as one `.r` parameter (base64url JSON, for payloads
 * holding objects) or flattened into query parameters (`paging.limit=10&fields=a&fields=b`). Both are
 * decoded with the shared wire schemas.
 */
import * as Effect from "effect/Effect"
import type * as Schema from "effect/Schema"
import * as HttpServerRequest from "effect/http/HttpServerRequest"
import { WDE } from "../../data/DataError.ts"
import { fromBase64url } from "../../http/wire.ts"
import { application, invalidField, type Reject } from "../responses.ts"
import { decode } from "../routing.ts"
import { DataSettings } from "./DataSettings.ts"
import type { Json } from "./values.ts"

const tooLarge = (): Reject => application(413, WDE.payloadTooLarge, "WDE0109: Payload is too large.")

/**
 * The JSON body decoded with `schema`; 413 over the size limit, 400 for anything malformed. `is`, the
 * schema's checks written out, lets a big body (a thousand bulk items) through without a schema run
 * per element; the schema still decodes anything `is` refuses, to name what is wrong.
 */
export const dataBody = <A, I>(
  schema: Schema.Codec<A, I>,
  is?: (u: unknown) => u is A
): Effect.Effect<A, Reject, HttpServerRequest.HttpServerRequest | DataSettings> =>
  Effect.gen(function*() {
    const { maxPayloadBytes } = yield* DataSettings
    const request = yield* HttpServerRequest.HttpServerRequest
    const declared = Number(request.headers["content-length"] ?? "0")
    if (declared > maxPayloadBytes) return yield* tooLarge()
    const text = yield* request.text.pipe(Effect.catch(() => Effect.fail(invalidField("", "The request body could not be read"))))
    // a text of n UTF-16 units has at most 3n UTF-8 bytes: only a text near the limit is measured
    if (text.length * 3 > maxPayloadBytes && Buffer.byteLength(text) > maxPayloadBytes) return yield* tooLarge()
    let json: unknown = {}
    if (text.trim() !== "") {
      try {
        json = JSON.parse(text) as unknown
      } catch {
        return yield* invalidField("", "The request body is not valid JSON", "FORMAT")
      }
    }
    return is !== undefined && is(json) ? json : yield* decode(schema, json)
  })

export interface FlatKinds {
  /** Keys whose every value is kept, as an array. */
  readonly arrays?: ReadonlyArray<string>
  readonly booleans?: ReadonlyArray<string>
  readonly numbers?: ReadonlyArray<string>
}

/** Query parameters back into the payload object (dotted keys nest); `.r` wins when present. */
export const getPayload = <A, I>(
  schema: Schema.Codec<A, I>,
  kinds: FlatKinds = {},
  extra: Json = {}
): Effect.Effect<A, Reject, HttpServerRequest.HttpServerRequest> =>
  Effect.gen(function*() {
    const request = yield* HttpServerRequest.HttpServerRequest
    const params = new URL(request.url, "http://local").searchParams
    const r = params.get(".r")
    if (r !== null) {
      let json: unknown
      try {
        json = JSON.parse(fromBase64url(r)) as unknown
      } catch {
        return yield* invalidField(".r", "The .r parameter is not base64url JSON", "FORMAT")
      }
      return yield* decode(schema, typeof json === "object" && json !== null ? { ...json, ...extra } : json)
    }
    const payload: Json = {}
    for (const key of new Set(params.keys())) {
      const values = params.getAll(key)
      const value: unknown = kinds.arrays?.includes(key)
        ? values
        : kinds.booleans?.includes(key)
        ? values[0] === "true" ? true : values[0] === "false" ? false : values[0]
        : kinds.numbers?.includes(key)
        ? Number(values[0])
        : values[0]
      setDotted(payload, key, value)
    }
    return yield* decode(schema, { ...payload, ...extra })
  })

const setDotted = (target: Json, key: string, value: unknown) => {
  const parts = key.split(".")
  let current = target
  for (const part of parts.slice(0, -1)) {
    const next = current[part]
    current = typeof next === "object" && next !== null ? next as Json : (current[part] = {}) as Json
  }
  current[parts[parts.length - 1]!] = value
}

/** Whether the GET carries a `.r` payload. */
export const hasDotR: Effect.Effect<boolean, never, HttpServerRequest.HttpServerRequest> = Effect.map(
  HttpServerRequest.HttpServerRequest,
  (request) => new URL(request.url, "http://local").searchParams.has(".r")
)
