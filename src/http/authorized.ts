/**
 * One authenticated call: the auth's headers on the request, and on a 401 that rejects the token, one
 * refresh and one retry. A module of its own (no layer), so the session's flows send through it without
 * carrying the platform client's layer and the wire's configuration behind it.
 */
import * as Effect from "effect/Effect"
import type { PlatformResponse } from "./answer.ts"
import { catchFailure } from "./catchFailure.ts"
import type { PlatformAuthShape } from "./PlatformAuth.ts"
import type { PlatformError } from "./PlatformError.ts"
import type { PlatformHttpShape } from "./PlatformHttp.ts"
import type { PlatformRequest } from "./PlatformRequest.ts"

/** Sends with the auth's headers; a 401 rejecting the token refreshes once and retries once (only if the headers changed). */
export const authorized = (
  http: PlatformHttpShape,
  auth: PlatformAuthShape,
  req: PlatformRequest
): Effect.Effect<PlatformResponse, PlatformError> => {
  const send = (headers: Readonly<Record<string, string>>) =>
    http.send({ ...req, host: req.host ?? auth.host, headers: { ...headers, ...req.headers } })
  return Effect.flatMap(auth.headers, (headers) =>
    catchFailure(
      send(headers),
      (error) => error.isTokenRejection,
      (error) =>
        auth.unauthorized(headers).pipe(
          Effect.andThen(auth.headers),
          // the same credentials again (an API key) would only be refused again: the 401 stands
          Effect.flatMap((fresh) => sameHeaders(fresh, headers) ? Effect.fail(error) : send(fresh))
        )
    ))
}

const sameHeaders = (a: Readonly<Record<string, string>>, b: Readonly<Record<string, string>>): boolean => {
  const keys = Object.keys(a)
  return keys.length === Object.keys(b).length && keys.every((k) => a[k] === b[k])
}
