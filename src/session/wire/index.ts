/**
 * Wire shapes of OAuth, redirect sessions and identity (members) as Schemas, defined once and used by
 * both the client (src/session, for its types) and the local platform (src/server, which decodes
 * requests and encodes answers with them). The client checks answers with the guards of ../guards/.
 */
export { IdentityCodes, Paths } from "../protocol.ts"
export * from "./identity.ts"
export * from "./members.ts"
export * from "./redirects.ts"
export * from "./tokens.ts"
