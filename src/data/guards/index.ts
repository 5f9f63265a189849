/**
 * Every guard of the data client's answers, for tests and tools. The client's own modules import the
 * one file they need, so a page that only queries never builds or ships the others (guards are built
 * when their module loads).
 */
export * from "./common.ts"
export * from "./items.ts"
export * from "./queries.ts"
export * from "./aggregation.ts"
export * from "./references.ts"
export * from "./bulk.ts"
export * from "./jobs.ts"
export * from "./collections.ts"
export * from "./indexes.ts"
export * from "./backups.ts"
export * from "./sandboxes.ts"
export * from "./movementJobs.ts"
export * from "./permissions.ts"
