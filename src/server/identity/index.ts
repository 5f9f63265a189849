/** The identity services of the local platform: authentication, verification, recovery, members. */
import * as Layer from "effect/Layer"
import { adminMemberRoutes } from "./adminMembers.ts"
import { authenticationRoutes } from "./authentication.ts"
import { memberRoutes } from "./myMember.ts"
import { recoveryRoutes } from "./recovery.ts"
import { verificationRoutes } from "./verification.ts"

export { Flows } from "./Flows.ts"
export { MemberStore } from "../accounts/MemberStore.ts"

export const identityRoutes = Layer.mergeAll(authenticationRoutes, verificationRoutes, recoveryRoutes, memberRoutes, adminMemberRoutes)
