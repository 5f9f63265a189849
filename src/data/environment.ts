/**
 * How a data call takes what it needs from the environment when it runs: the `PlatformClient` a session
 * or an API key provides, and for bulk writes the `PlatformConfig` whose retry policy they follow.
 */
import * as Effect from "effect/Effect"
import { PlatformClient, type PlatformClientShape } from "../http/PlatformClient.ts"
import { PlatformConfig, type PlatformConfigShape } from "../http/PlatformConfig.ts"

export const withClient = <A, E>(f: (client: PlatformClientShape) => Effect.Effect<A, E>): Effect.Effect<A, E, PlatformClient> => Effect.flatMap(PlatformClient, f)

export const withClientAndConfig = <A, E>(
  f: (client: PlatformClientShape, config: PlatformConfigShape) => Effect.Effect<A, E>
): Effect.Effect<A, E, PlatformClient | PlatformConfig> => Effect.flatMap(PlatformClient, (client) => Effect.flatMap(PlatformConfig, (config) => f(client, config)))
