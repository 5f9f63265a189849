/**
 * Which environment of a collection data calls work in: its LIVE items (the default), its SANDBOX copy,
 * or SANDBOX_PREFERRED (the sandbox where the collection has one enabled, LIVE otherwise). The platform
 * keeps the two apart: a SANDBOX call never reads or writes a LIVE item, nor the reverse.
 *
 * Set it for a whole program with {@link layer}, for one part of it with {@link provide}, or per call with
 * the `environment` option (items, queries, counts, bulk writes, aggregations, references). Every call
 * of the items API (`/wix-data/v2/items*`, `/wix-data/v2/bulk/*`) sends the environment it runs in, as the
 * platform's own client does; collection and index calls take none: a collection's definition and its
 * indexes hold in both environments.
 *
 * @example
 * import { DataEnvironment, DataItems } from "sitefx/data"
 *
 * // a test that writes in the sandbox, whatever its calls say
 * const seeded = DataItems.insert("Posts", { title: "Draft" }).pipe(DataEnvironment.provide("SANDBOX"))
 */
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import type { PlatformClientShape } from "../http/PlatformClient.ts"
import type { PlatformRequest } from "../http/PlatformRequest.ts"
import { DATA_ENVIRONMENTS, type DataEnvironment as Environment } from "./protocol.ts"

/** The environments a data call may name. */
export { DATA_ENVIRONMENTS }
/** LIVE, SANDBOX or SANDBOX_PREFERRED. */
export type { Environment }

/** The environment data calls run in when they name none; `undefined` sends none, which the platform reads as LIVE. */
export const Current = Context.Reference<Environment | undefined>("sitefx/data/DataEnvironment", { defaultValue: () => undefined })

/** Data calls under this layer work in `environment` unless they name another. */
export const layer = (environment: Environment): Layer.Layer<never> => Layer.succeed(Current, environment)

/** `effect`'s data calls work in `environment` unless they name another. */
export const provide = (environment: Environment) => <A, E, R>(effect: Effect.Effect<A, E, R>): Effect.Effect<A, E, R> =>
  Effect.provideService(effect, Current, environment)

/** `effect` in `environment` when one is given, as it is otherwise. */
export const within = <A, E, R>(environment: Environment | undefined, effect: Effect.Effect<A, E, R>): Effect.Effect<A, E, R> =>
  environment === undefined ? effect : Effect.provideService(effect, Current, environment)

/** Whether `u` is one of {@link DATA_ENVIRONMENTS}. */
export const isEnvironment = (u: unknown): u is Environment => (DATA_ENVIRONMENTS as ReadonlyArray<unknown>).includes(u)

/** The calls that take an environment: those of items, queries and bulk writes. */
const takesEnvironment = (path: string) => path.startsWith("/wix-data/v2/items") || path.startsWith("/wix-data/v2/bulk/")

/** The request with `environment` added, unless it names one already or its path takes none. */
const addEnvironment = (request: PlatformRequest, environment: Environment): PlatformRequest => {
  if (!takesEnvironment(request.path)) return request
  if (request.json !== undefined) {
    // JSON written already (a bulk chunk): the environment goes first, as a key the writer never writes
    return request.json.startsWith("{") && !request.json.startsWith("{\"environment\"")
      ? { ...request, json: `{"environment":${JSON.stringify(environment)}${request.json.length > 2 ? "," : ""}${request.json.slice(1)}` }
      : request
  }
  if (request.payload !== undefined && request.payload["environment"] !== undefined) return request
  return { ...request, payload: { environment, ...request.payload } }
}

/** The client, sending `environment` with every call that takes one. */
export const inEnvironment = (client: PlatformClientShape, environment: Environment | undefined): PlatformClientShape =>
  environment === undefined ? client : {
    request: (request) => client.request(addEnvironment(request, environment)),
    json: (request, guard) => client.json(addEnvironment(request, environment), guard)
  }
