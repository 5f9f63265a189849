/**
 * The checkout: {@link checkoutLayer} adds its storage, {@link checkoutRoutes} the calls of the official
 * `checkout` module and {@link checkoutPageRoutes} the hosted page where the buyer pays.
 */
export { CheckoutStore } from "./CheckoutStore.ts"
export { checkoutPageRoutes } from "./checkoutPageRoutes.ts"
export { checkoutRoutes } from "./checkoutRoutes.ts"

import { CheckoutStore } from "./CheckoutStore.ts"

export const checkoutLayer = CheckoutStore.layer
