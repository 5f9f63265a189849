/**
 * The wire facts the first screen's bootstrap sends by hand, and the guards it checks the answers with,
 * from the library's own plain modules (no Effect, no Schema): the demo lives in sitefx's repository, so it reads them where the client keeps
 * them, and its requests stay the ones the full app would have sent (full.tsx checks they are).
 */
export { ALL_PRODUCTS_ID, CatalogPaths } from "../../../src/catalog/protocol.ts"
export { toWire } from "../../../src/http/PlatformRequest.ts"
export { SESSION_KEY, TOKEN_PATH } from "../../../src/session/protocol.ts"
export { TokenResponse, Tokens as StoredTokens } from "../../../src/session/guards/tokens.ts"
