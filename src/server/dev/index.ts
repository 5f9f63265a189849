/**
 * The dev module: injected faults and snapshots, and the dev endpoints (`/_sitefx/*`, dev mode only)
 * for the platform itself (health, reset and seed, the outbox, the clock, settings, members, faults),
 * its snapshots, its request log and the console. The other modules mount dev endpoints of their own.
 */
import * as Layer from "effect/Layer"
import type { PlatformModule } from "../platform/PlatformModule.ts"
import { consoleRoutes } from "./consoleRoutes.ts"
import { Faults } from "./Faults.ts"
import { platformRoutes } from "./platformRoutes.ts"
import { requestRoutes } from "./requestRoutes.ts"
import { snapshotRoutes } from "./snapshotRoutes.ts"
import { Snapshots } from "./Snapshots.ts"

export const module = {
  name: "dev",
  // faults are answered for every module's routes, so the layer is there outside dev mode too
  layer: () => Layer.mergeAll(Faults.layer, Snapshots.layer),
  routes: Layer.empty,
  devRoutes: Layer.mergeAll(platformRoutes, snapshotRoutes, consoleRoutes, requestRoutes)
} satisfies PlatformModule
