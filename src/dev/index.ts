/**
 * sitefx/dev: the local platform's dev endpoints (`/_sitefx/*`) as Effect calls, for tests, scripts and
 * the platform's console. Members' administration, the outbox, the request log, webhooks and their dead
 * letters, settings, the clock, injected faults, the production profile, snapshots, and the platform
 * itself (reset, seed). They need only PlatformHttp (any Site layer has it, or `layer({ baseUrl })`), and
 * answer only on a local platform in dev mode, from this machine or the platform's own pages.
 *
 * @example
 * import { Members, Outbox, Settings } from "sitefx/dev"
 * yield* Settings.update({ ownerApproval: true })
 * // ... a member registers as new@example.com, and waits for approval
 * for (const member of yield* Members.list({ email: "new@example.com" })) yield* Members.approve(member.id)
 */
export * as Clock from "./Clock.ts"
export * as Faults from "./Faults.ts"
export { layer } from "./layer.ts"
export * as Members from "./Members.ts"
export * as Outbox from "./Outbox.ts"
export * as Platform from "./Platform.ts"
export * as Profile from "./Profile.ts"
export * as Requests from "./Requests.ts"
export * as Settings from "./Settings.ts"
export * as Snapshots from "./Snapshots.ts"
export * as Webhooks from "./Webhooks.ts"
