/**
 * Reading data requests' JSON bodies with a size limit (over it: 413, which clients report as WDE0109),
 * decoded with the shared wire schemas. GET payloads are read by the store's `getPayload`.
 */
import * as Effect from "effect/Effect"
import type * as Schema from "effect/Schema"
import * as HttpServerRequest from "effect/http/HttpServerRequest"
import { WDE } from "../../data/DataError.ts"
import { application, invalidField, type Reject } from "../platform/responses.ts"
import { BodyLimit, bodyText, decode, parseBody } from "../platform/routing.ts"
import { DataSettings } from "./DataSettings.ts"

const tooLarge = (maxBytes: number) => (): Reject =>
  application(413, WDE.payloadTooLarge, "WDE0109: Payload is too large.")
    .because({ kind: "bound", id: "data.payload.max-bytes", message: `A data request's body is at most ${maxBytes} bytes`, fields: [], limit: maxBytes })

/**
 * The JSON body decoded with `schema`; 413 over the size limit, 400 for anything malformed. `is`, the
 * schema's checks written out, lets a big body (a thousand bulk items) through without a schema run
 * per element and without the depth scan: `is` looks at the shape only, and the item data it lets
 * through is bounded where it is stored. The schema still decodes anything `is` refuses, to name what
 * is wrong.
 */
export const dataBody = <A, I>(
  schema: Schema.Codec<A, I>,
  is?: (u: unknown) => u is A
): Effect.Effect<A, Reject, HttpServerRequest.HttpServerRequest | DataSettings> =>
  Effect.gen(function*() {
    const { maxPayloadBytes } = yield* DataSettings
    const text = yield* Effect.provideService(bodyText, BodyLimit, { maxBytes: maxPayloadBytes, tooLarge: tooLarge(maxPayloadBytes) })
    if (is !== undefined && text.trim() !== "") {
      let json: unknown
      try {
        json = JSON.parse(text)
      } catch {
        return yield* invalidField("", "The request body is not valid JSON", "FORMAT")
      }
      if (is(json)) return json
    }
    return yield* decode(schema, yield* parseBody(text))
  })
