/** The catalog's wire Schemas, one module per part of the store. */
export * from "./common.ts"
export * from "./products.ts"
