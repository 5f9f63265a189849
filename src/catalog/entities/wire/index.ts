/** The catalog v3 entity services' wire Schemas, one module per service. */
export * from "./brands.ts"
export * from "./common.ts"
export * from "./customizations.ts"
export * from "./infoSections.ts"
export * from "./inventoryItems.ts"
export * from "./ribbons.ts"
