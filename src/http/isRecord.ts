/**
 * The client's one test for a plain object (not null, not an array). Its own module, with no imports, so
 * the store's storefront helpers (which carry no Effect module) can take it too.
 */
export const isRecord = (u: unknown): u is Record<string, unknown> => typeof u === "object" && u !== null && !Array.isArray(u)
