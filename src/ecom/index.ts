/**
 * sitefx/ecom: buying from the store. `Cart` is the shopper's current cart (Cart V1 and Cart V2 behind
 * one set of functions); each function needs only the `PlatformClient` a visitor's or member's session
 * provides.
 */
export * as Cart from "./Cart.ts"
export { EcomCodes, EcomError } from "./EcomError.ts"
export { CartCodes, type CartGeneration, STORES_APP_ID } from "./protocol.ts"
