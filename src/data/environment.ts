/**
 * How a data call takes what it needs from the environment when it runs: the `PlatformClient` a session
 * or an API key provides, and for bulk writes the `PlatformConfig` whose retry policy they follow.
 */
import * as Effect from "effect/Effect"
import { PlatformClient, type PlatformClientShape } from "../http/PlatformClient.ts"
import { PlatformConfig, type PlatformConfigShape } from "../http/PlatformConfig.ts"

/** Runs `f` with the platform client of the environment (the service's own `use`). */
export const withClient = <A, E>(f: (client: PlatformClientShape) => Effect.Effect<A, E>): Effect.Effect<A, E, PlatformClient> => PlatformClient.use(f)

export const withClientAndConfig = <A, E>(
  f: (client: PlatformClientShape, config: PlatformConfigShape) => Effect.Effect<A, E>
): Effect.Effect<A, E, PlatformClient | PlatformConfig> => PlatformClient.use((client) => PlatformConfig.use((config) => f(client, config)))
