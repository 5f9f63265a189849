/**
 * `sitefx/testing`: a test kit for `@effect/vitest`. A local platform per file or suite, reset to its
 * starting state before each test (`TestPlatform`), callers to run sitefx's calls as (`asVisitor`,
 * `asMember`, `asAdmin`), the assertion of a refusal (`expectRefused`), and a TCP proxy that makes the
 * network unreliable on purpose (`FaultProxy`: delays, resets, cuts, stalls).
 */
export { TestPlatform, type TestPlatformOptions, type TestPlatformShape } from "./TestPlatform.ts"
export { type AdminServices, asAdmin, asMember, asVisitor } from "./callers.ts"
export { type ExpectedRefusal, expectRefused, UnexpectedOutcome } from "./expectRefused.ts"
export { LocalPlatform } from "../server/LocalPlatform.ts"
/** A TCP proxy to a loopback target that delays, resets, cuts and stalls its connections, seeded so runs repeat. */
export * as FaultProxy from "./FaultProxy.ts"
