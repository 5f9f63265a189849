/**
 * CORS, decided per request: the platform's API answers any origin (`*`), as the real platform lets
 * any site call it with a client id; the dev endpoints answer only the origin the dev guard allowed
 * (devAccess.ts), reflected, and grant another page its refusal alone, so it can read why.
 */
import * as HttpServerRequest from "effect/http/HttpServerRequest"
import * as HttpServerResponse from "effect/http/HttpServerResponse"
import { CONSISTENT_HEADER, REQUEST_ID_HEADER } from "../../http/wire.ts"

const METHODS = "GET, HEAD, POST, PUT, PATCH, DELETE"
const EXPOSED = [REQUEST_ID_HEADER, CONSISTENT_HEADER].join(",")
const MAX_AGE = "600"

/** Who an answer is granted to: every origin, one origin, or none. */
export type Grant = "*" | { readonly origin: string } | undefined

const grantHeaders = (grant: Grant): Record<string, string> =>
  grant === undefined
    ? {}
    : grant === "*"
    ? { "access-control-allow-origin": "*", "access-control-expose-headers": EXPOSED }
    : { "access-control-allow-origin": grant.origin, "access-control-expose-headers": EXPOSED, vary: "Origin" }

/** The answer to a preflight (`OPTIONS`): the methods and the headers the page asked for, when granted. */
export const preflight = (request: HttpServerRequest.HttpServerRequest, grant: Grant): HttpServerResponse.HttpServerResponse => {
  if (grant === undefined) return HttpServerResponse.empty({ status: 204 })
  const asked = request.headers["access-control-request-headers"]
  return HttpServerResponse.empty({
    status: 204,
    headers: {
      ...grantHeaders(grant),
      "access-control-allow-methods": METHODS,
      "access-control-allow-headers": asked ?? "",
      "access-control-max-age": MAX_AGE,
      ...(asked === undefined ? {} : { vary: grant === "*" ? "Access-Control-Request-Headers" : "Origin, Access-Control-Request-Headers" })
    }
  })
}

/** An answer with the grant's headers. */
export const withCors = (response: HttpServerResponse.HttpServerResponse, grant: Grant): HttpServerResponse.HttpServerResponse =>
  grant === undefined ? response : HttpServerResponse.setHeaders(response, grantHeaders(grant))
