/**
 * Wire shapes of the data-collections API (`/wix-data/v2/...`), defined once as Schemas and used by the
 * local platform's data engine (src/server/data) to read requests and write answers; the client takes its
 * types from them and checks answers with the guards of `../guards/`, which are held to these types.
 */
export * from "./common.ts"
export * from "./items.ts"
export * from "./queries.ts"
export * from "./aggregation.ts"
export * from "./references.ts"
export * from "./bulk.ts"
export * from "./jobs.ts"
export * from "./collections.ts"
export * from "./backups.ts"
export * from "./movementJobs.ts"
export * from "./sandboxes.ts"
export * from "./permissions.ts"
