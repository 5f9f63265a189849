/**
 * sitefx/ecom: buying from the store and running its orders. `Cart` is the shopper's current cart (Cart V1
 * and Cart V2 behind one set of functions; each function needs only the `PlatformClient` a visitor's or
 * member's session provides). `Checkout` turns the cart into a checkout, takes the buyer's details and
 * opens the platform's hosted checkout page, where the buyer pays and the order is placed. `Orders` gets,
 * searches, streams, cancels, marks as paid and fulfils the site's orders (an API key). All fail with one
 * error, `EcomError` (its codes in `EcomCodes.cart` and `EcomCodes.order`), or a PlatformError when the
 * platform is unavailable.
 *
 * @example
 * import { Orders } from "sitefx/ecom"
 * declare const orderId: string
 * const order = yield* Orders.get(orderId)
 */
export * as Cart from "./Cart.ts"
export * as Checkout from "./Checkout.ts"
export { CheckoutCodes } from "./checkoutProtocol.ts"
export { EcomCodes, EcomError, type EcomFailure } from "./EcomError.ts"
export * as Orders from "./Orders.ts"
export { OrderCodes, OrderEventTypes, OrderPaths } from "./orderProtocol.ts"
export { CartCodes, type CartGeneration, STORES_APP_ID } from "./protocol.ts"
