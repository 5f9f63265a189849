/**
 * The store's subscription options: {@link subscriptionsLayer} adds their storage to the platform,
 * {@link subscriptionsRoutes} the reader and writer calls.
 */
import { subscriptionRoutes } from "./routes.ts"
import { SubscriptionOptions } from "./SubscriptionOptions.ts"

export { checkProduct, SubscriptionOptions } from "./SubscriptionOptions.ts"

export type SubscriptionsServices = SubscriptionOptions

export const subscriptionsLayer = SubscriptionOptions.layer

export const subscriptionsRoutes = subscriptionRoutes
