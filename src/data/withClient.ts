/**
 * How a data call takes what it needs from its Effect context when it runs: the `PlatformClient` a
 * session or an API key provides (sending the data environment in effect, DataEnvironment.ts), and for
 * bulk writes the `PlatformConfig` whose retry policy they follow.
 */
import * as Effect from "effect/Effect"
import { PlatformClient, type PlatformClientShape } from "../http/PlatformClient.ts"
import { PlatformConfig, type PlatformConfigShape } from "../http/PlatformConfig.ts"
import { Current as DataEnvironment, inEnvironment } from "./DataEnvironment.ts"

/**
 * Runs `f` with the platform client of the environment, which sends the data environment the call runs
 * in (DataEnvironment.ts) with every call that takes one.
 */
export const withClient = <A, E, R = never>(f: (client: PlatformClientShape) => Effect.Effect<A, E, R>): Effect.Effect<A, E, PlatformClient | R> =>
  PlatformClient.use((client) => DataEnvironment.use((environment) => f(inEnvironment(client, environment))))

export const withClientAndConfig = <A, E>(
  f: (client: PlatformClientShape, config: PlatformConfigShape) => Effect.Effect<A, E>
): Effect.Effect<A, E, PlatformClient | PlatformConfig> => withClient((client) => PlatformConfig.use((config) => f(client, config)))
