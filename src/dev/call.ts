/**
 * How every dev call goes out: through the platform's wire (PlatformHttp) with no credentials, since the
 * dev endpoints take none (the platform lets in scripts on this machine and its own pages, see
 * src/server/platform/devAccess.ts), and its answer decoded with the wire Schema the platform answers with.
 */
import * as Effect from "effect/Effect"
import type * as Schema from "effect/Schema"
import { decodeBody } from "../http/decodeJson.ts"
import type { PlatformError } from "../http/PlatformError.ts"
import { PlatformHttp } from "../http/PlatformHttp.ts"
import type { PlatformRequest } from "../http/PlatformRequest.ts"

/** Where the local platform's dev endpoints live. */
export const DEV_PREFIX = "/_sitefx"

/** A path segment taken from the caller (an id, a name), escaped so it stays one segment. */
export const segment = (value: string): string => encodeURIComponent(value)

/** Sends a dev request and decodes its 200 answer; any other answer is the PlatformError it stands for. */
export const devCall = <A>(request: PlatformRequest, schema: Schema.Decoder<A>): Effect.Effect<A, PlatformError, PlatformHttp> =>
  Effect.flatMap(PlatformHttp, (http) => Effect.flatMap(http.send({ ...request, host: "api" }), (res) => decodeBody(request, res, schema)))

/** Sends a dev request whose answer says nothing (`{}`, `{ ok: true }`). */
export const devSend = (request: PlatformRequest): Effect.Effect<void, PlatformError, PlatformHttp> =>
  Effect.flatMap(PlatformHttp, (http) => Effect.asVoid(http.send({ ...request, host: "api" })))
