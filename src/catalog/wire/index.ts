/** The catalog's wire Schemas, one module per part of the store. */
export * from "./common.ts"
export * from "./products.ts"
export * from "./carts.ts"
export * from "./inventory.ts"
export * from "./subscriptions.ts"
