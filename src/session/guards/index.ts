/**
 * The session client's guards of the answers it reads (no Schema, so a browser page stays small); each
 * is held equal to its Schema in ../wire/ by test/session/guards.test.ts.
 */
export * from "./identity.ts"
export * from "./members.ts"
export * from "./redirects.ts"
export * from "./tokens.ts"
