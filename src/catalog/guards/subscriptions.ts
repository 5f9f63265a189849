/**
 * Guards of the subscription-option answers the client reads, without Schema. The Schemas of the same
 * shapes are in `../wire/subscriptions.ts`; test/catalog/guards.test.ts keeps each guard's type equal to
 * its Schema's.
 */
import * as G from "../../http/guard.ts"
import { SUBSCRIPTION_DISCOUNT_TYPES, SUBSCRIPTION_FREQUENCIES } from "../protocol.ts"
import { nullable, opt } from "./common.ts"

export const SubscriptionSettings = G.struct({
  frequency: opt(G.literals(SUBSCRIPTION_FREQUENCIES)),
  interval: nullable(G.number),
  autoRenewal: opt(G.boolean),
  billingCycles: nullable(G.number)
})

export const SubscriptionDiscount = G.struct({ type: opt(G.literals(SUBSCRIPTION_DISCOUNT_TYPES)), value: opt(G.number) })

export const SubscriptionOption = G.struct({
  id: nullable(G.string),
  title: nullable(G.string),
  description: nullable(G.string),
  subscriptionSettings: opt(SubscriptionSettings),
  discount: opt(SubscriptionDiscount)
})
export type SubscriptionOption = G.TypeOf<typeof SubscriptionOption>

export const SubscriptionOptionInProduct = G.struct({
  id: opt(G.string),
  hidden: opt(G.boolean),
  title: nullable(G.string),
  description: nullable(G.string),
  subscriptionSettings: opt(SubscriptionSettings),
  discount: opt(SubscriptionDiscount)
})
export type SubscriptionOptionInProduct = G.TypeOf<typeof SubscriptionOptionInProduct>

export const SubscriptionOptionResponse = G.struct({ subscriptionOption: opt(SubscriptionOption) })
export const SubscriptionOptionsResponse = G.struct({ subscriptionOptions: opt(G.array(SubscriptionOption)) })
export const SubscriptionOptionsForProductResponse = G.struct({ subscriptionOptions: opt(G.array(SubscriptionOptionInProduct)) })
export const ProductIdsPagingMetadata = G.struct({ items: opt(G.number), offset: opt(G.number) })
export const ProductIdsResponse = G.struct({
  productIds: opt(G.array(G.string)),
  metadata: opt(ProductIdsPagingMetadata),
  totalResults: opt(G.number)
})
export type ProductIdsAnswer = G.TypeOf<typeof ProductIdsResponse>
export const OneTimePurchasesStatusResponse = G.struct({ allowed: opt(G.boolean) })
