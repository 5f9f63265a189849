/**
 * How every dev call goes out: through the platform's wire (PlatformHttp) with no credentials, since the
 * dev endpoints take none (the platform lets in scripts on this machine and its own pages, see
 * src/server/platform/devAccess.ts), and its answer checked with a guard of the shape the platform
 * answers with (./guards/), as the library's other clients check theirs: no Schema on a page that calls
 * them.
 */
import * as Effect from "effect/Effect"
import { checkBody } from "../http/answer.ts"
import type { Guard } from "../http/guard.ts"
import type { PlatformError } from "../http/PlatformError.ts"
import { PlatformHttp } from "../http/PlatformHttp.ts"
import type { PlatformRequest } from "../http/PlatformRequest.ts"

/** Where the local platform's dev endpoints live. */
export const DEV_PREFIX = "/_sitefx"

/** A path segment taken from the caller (an id, a name), escaped so it stays one segment. */
export const segment = (value: string): string => encodeURIComponent(value)

/** Sends a dev request and checks its 200 answer; any other answer is the PlatformError it stands for. */
export const devCall = <A>(request: PlatformRequest, guard: Guard<A>): Effect.Effect<A, PlatformError, PlatformHttp> =>
  Effect.flatMap(PlatformHttp, (http) => Effect.flatMap(http.send({ ...request, host: "api" }), (res) => checkBody(request, res, guard)))

/** Sends a dev request whose answer says nothing (`{}`, `{ ok: true }`). */
export const devSend = (request: PlatformRequest): Effect.Effect<void, PlatformError, PlatformHttp> =>
  Effect.flatMap(PlatformHttp, (http) => Effect.asVoid(http.send({ ...request, host: "api" })))
