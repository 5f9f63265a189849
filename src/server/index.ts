/**
 * The local platform: `LocalPlatform.layer(options)` for tests and tools, `sitefx serve` for a process,
 * the demo seed's site and member, and the platform's snapshots. Its modules and kernel are not part of
 * the package: they change as the platform grows.
 */
export { LocalPlatform, type LocalPlatformOptions, type LocalPlatformShape } from "./LocalPlatform.ts"
export { DEMO_MEMBER_EMAIL, LOCAL_CLIENT_ID, LOCAL_SITE_ID } from "./accounts/seed.ts"
export type { DeliveryPolicy, WebhookRegistration } from "./events/webhooks/index.ts"
export { SNAPSHOT_FORMAT_VERSION, SnapshotError, Snapshots, type SnapshotsShape } from "./dev/Snapshots.ts"
