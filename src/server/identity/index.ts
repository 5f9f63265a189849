/**
 * The identity services of the local platform: authentication (register, login, sign-on, change
 * password, second factors), verification, recovery, a member's own record and the members admin API,
 * with the login flow's steps ({@link Flows}) that all of them continue through.
 */
import * as Layer from "effect/Layer"
import type { PlatformModule } from "../platform/PlatformModule.ts"
import { adminMemberRoutes } from "./adminMemberRoutes.ts"
import { authenticationRoutes } from "./authenticationRoutes.ts"
import { Flows } from "./Flows.ts"
import { memberRoutes } from "./memberRoutes.ts"
import { recoveryRoutes } from "./recoveryRoutes.ts"
import { verificationRoutes } from "./verificationRoutes.ts"

export const module = {
  name: "identity",
  layer: () => Flows.layer,
  routes: Layer.mergeAll(authenticationRoutes, verificationRoutes, recoveryRoutes, memberRoutes, adminMemberRoutes)
} satisfies PlatformModule
