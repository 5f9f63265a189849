/** The store's subscriptions: its services and routes (filled in by the subscriptions work). */
import * as Layer from "effect/Layer"

export type SubscriptionsServices = never

export const subscriptionsLayer = Layer.empty

export const subscriptionsRoutes = Layer.empty
