/** The identity services of the local platform: authentication, verification, recovery, members. */
import * as Layer from "effect/Layer"
import { adminMemberRoutes } from "./adminMemberRoutes.ts"
import { authenticationRoutes } from "./authenticationRoutes.ts"
import { memberRoutes } from "./memberRoutes.ts"
import { recoveryRoutes } from "./recoveryRoutes.ts"
import { verificationRoutes } from "./verificationRoutes.ts"

export { Flows } from "./Flows.ts"
export { MemberStore } from "../accounts/MemberStore.ts"

export const identityRoutes = Layer.mergeAll(authenticationRoutes, verificationRoutes, recoveryRoutes, memberRoutes, adminMemberRoutes)
