/**
 * Guards of the members' dev answers (`/_sitefx/members`): the identities as the identity service's
 * client checks them, and an enrolled factor. test/dev/guards.test.ts holds each guard's type to its
 * Schema's in ../wire/platform.ts.
 */
import * as G from "../../http/guard.ts"
import { Identity } from "../../session/guards/identity.ts"

export const IdentityResponse = G.struct({ identity: Identity })
export const IdentitiesResponse = G.struct({ identities: G.array(Identity) })
export const EnrollFactorResponse = G.struct({ factorId: G.string, secret: G.optional(G.string) })
