/**
 * A platform call whose answer is decoded with a Schema: for calls sitefx has no client for yet, typed by
 * the caller. Its own module, so programs that never use it carry no Schema.
 *
 * @example
 * import * as Schema from "effect/Schema"
 *
 * const MyMember = Schema.Struct({ member: Schema.Struct({ id: Schema.String, loginEmail: Schema.optionalKey(Schema.String) }) })
 * const answer = yield* decodeJson({ method: "GET", path: "/members/v1/members/my" }, MyMember)
 */
import * as Effect from "effect/Effect"
import * as Schema from "effect/Schema"
import { PlatformClient } from "./PlatformClient.ts"
import { PlatformError } from "./PlatformError.ts"
import { SystemError } from "./reasons.ts"
import type { PlatformResponse } from "./PlatformHttp.ts"
import type { PlatformRequest } from "./PlatformRequest.ts"

/** Decodes a 200 body with a schema; a mismatch is a SystemError naming the call. */
export const decodeBody = <S extends Schema.Top>(
  req: PlatformRequest,
  res: PlatformResponse,
  schema: S
): Effect.Effect<S["Type"], PlatformError, S["DecodingServices"]> =>
  Schema.decodeUnknownEffect(schema)(res.body).pipe(
    Effect.mapError((issue) =>
      new PlatformError({
        method: req.method,
        path: req.path,
        reason: new SystemError({
          status: 200,
          message: `Unexpected response body: ${issue.message}`,
          description: "unexpected response body",
          ...(res.requestId === undefined ? {} : { requestId: res.requestId })
        })
      })
    )
  )

/** Sends through the PlatformClient (the session's or the API key's auth) and decodes the answer. */
export const decodeJson = <S extends Schema.Top>(
  request: PlatformRequest,
  schema: S
): Effect.Effect<S["Type"], PlatformError, PlatformClient | S["DecodingServices"]> =>
  Effect.flatMap(PlatformClient, (client) => Effect.flatMap(client.request(request), (res) => decodeBody(request, res, schema)))
