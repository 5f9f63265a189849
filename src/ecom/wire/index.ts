/** The ecom wire: the current cart of both generations (`carts.ts`). */
export * from "./carts.ts"
/** The checkout (`checkouts.ts`). */
export * from "./checkouts.ts"
