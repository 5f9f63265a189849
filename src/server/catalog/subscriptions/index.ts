/**
 * The store's subscription options: {@link subscriptionsLayer} adds their storage to the platform,
 * {@link subscriptionsRoutes} the reader and writer calls.
 */
import { subscriptionRoutes } from "./subscriptionRoutes.ts"
import { SubscriptionOptionStore } from "./SubscriptionOptionStore.ts"

export { checkProduct, SubscriptionOptionStore } from "./SubscriptionOptionStore.ts"

export const subscriptionsLayer = SubscriptionOptionStore.layer

export const subscriptionsRoutes = subscriptionRoutes
