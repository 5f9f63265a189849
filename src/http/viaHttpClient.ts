/**
 * The platform's wire over Effect's HttpClient instead of `fetch`: for Node batch jobs that want Node's
 * own client with keep-alive (`NodeHttpClient.layerNodeHttpOptions({ keepAlive: true })` from
 * `@effect/platform-node` costs about a quarter less CPU per request on bulk imports), or any HttpClient
 * a program already has (with its middleware). Its own module, so browser bundles never carry
 * effect/http.
 *
 * @example
 * import * as NodeHttpClient from "@effect/platform-node/NodeHttpClient"
 * import { Site } from "sitefx"
 * import { viaHttpClient } from "sitefx/http"
 *
 * const SiteLive = Site.apiKey({ transport: viaHttpClient(NodeHttpClient.layerNodeHttpOptions({ keepAlive: true })) })
 */
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as HttpBody from "effect/http/HttpBody"
import * as HttpClient from "effect/http/HttpClient"
import * as HttpClientRequest from "effect/http/HttpClientRequest"
import type { PlatformConfig } from "./PlatformConfig.ts"
import type { PlatformHttp, Transport } from "./PlatformHttp.ts"
import { pacedTransport } from "./RateLimit.ts"
import { timeoutError, transportError } from "./transport.ts"

/** A transport over an HttpClient (trace headers are sitefx's to add, per `tracePropagation`). */
export const httpClientTransport = (client: HttpClient.HttpClient): Transport => (request) => {
  let req = HttpClientRequest.make(request.method)(request.url, { headers: request.headers })
  // the JSON text itself goes to the client, which writes it out without a byte copy held by this heap
  if (request.body !== undefined) req = HttpClientRequest.setBody(req, HttpBody.raw(request.body, { contentType: "application/json" }))
  const limit = request.timeoutMillis
  const exchange = client.execute(req).pipe(
    Effect.flatMap((response) => Effect.map(response.text, (text) => ({ status: response.status, headers: response.headers, text }))),
    Effect.provideService(HttpClient.TracerPropagationEnabled, false),
    Effect.mapError(transportError)
  )
  // the whole answer under one timer, as the fetch transport does; interrupting the exchange closes its request
  return limit === undefined || !(limit < Infinity)
    ? exchange
    : exchange.pipe(
      Effect.timeoutOrElse({
        duration: limit,
        orElse: () => Effect.fail(timeoutError(limit))
      })
    )
}

/** PlatformHttp over the HttpClient the given layer provides (paced by the config's `pacer`, when it has one). */
export const viaHttpClient = <E, R>(client: Layer.Layer<HttpClient.HttpClient, E, R>): Layer.Layer<PlatformHttp, E, PlatformConfig | R> =>
  Layer.unwrap(Effect.map(HttpClient.HttpClient, (c) => pacedTransport(httpClientTransport(c)))).pipe(
    Layer.provide(client)
  )
