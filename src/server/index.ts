/** The local platform: `LocalPlatform.layer(options)` for tests and tools, `sitefx serve` for a process. */
export { LocalPlatform, type LocalPlatformOptions, type LocalPlatformShape } from "./LocalPlatform.ts"
export { appLayer, modules } from "./App.ts"
export { type Caller, Callers } from "./Callers.ts"
export { coreLayer, type PlatformCore } from "./Core.ts"
export * as DevWire from "./devWire.ts"
export { Reject } from "./responses.ts"
export { route } from "./routing.ts"
export { DEMO_MEMBER_EMAIL, LOCAL_CLIENT_ID, LOCAL_SITE_ID } from "./seed.ts"
