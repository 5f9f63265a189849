/** The members admin API's wire Schemas. */
export * from "./members.ts"
