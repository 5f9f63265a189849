/**
 * Subscription options on the wire: an option (title, description, how often and how long it bills,
 * its discount), the same option as assigned to a product (with `hidden`), and every request and answer
 * of the reader and writer calls. One definition serves the local platform and the client's typed tests.
 */
import * as Schema from "effect/Schema"
import { SUBSCRIPTION_DISCOUNT_TYPES } from "../protocol.ts"
import { nullable, opt, Paging, SubscriptionFrequency } from "./common.ts"

/**
 * How the subscription bills: every `interval` (default 1) `frequency`s, either until cancelled
 * (`autoRenewal`) or for `billingCycles` payments (2–999).
 */
export const SubscriptionSettings = Schema.Struct({
  frequency: opt(SubscriptionFrequency),
  interval: nullable(Schema.Number),
  autoRenewal: opt(Schema.Boolean),
  billingCycles: nullable(Schema.Number)
})
export type SubscriptionSettings = typeof SubscriptionSettings.Type

export const SubscriptionDiscountType = Schema.Literals(SUBSCRIPTION_DISCOUNT_TYPES)
/** `{type: "AMOUNT", value: 20}` takes 20 off each payment; `PERCENT` takes a percentage. */
export const SubscriptionDiscount = Schema.Struct({ type: opt(SubscriptionDiscountType), value: opt(Schema.Number) })
export type SubscriptionDiscount = typeof SubscriptionDiscount.Type

export const SubscriptionOption = Schema.Struct({
  id: nullable(Schema.String),
  title: nullable(Schema.String),
  description: nullable(Schema.String),
  subscriptionSettings: opt(SubscriptionSettings),
  discount: opt(SubscriptionDiscount)
})
export type SubscriptionOption = typeof SubscriptionOption.Type

/** An option as assigned to a product; only `id` and `hidden` are read when assigning. */
export const SubscriptionOptionInProduct = Schema.Struct({
  id: opt(Schema.String),
  hidden: opt(Schema.Boolean),
  title: nullable(Schema.String),
  description: nullable(Schema.String),
  subscriptionSettings: opt(SubscriptionSettings),
  discount: opt(SubscriptionDiscount)
})
export type SubscriptionOptionInProduct = typeof SubscriptionOptionInProduct.Type

// readers

export const GetSubscriptionOptionRequest = Schema.Struct({ id: Schema.String })
export const SubscriptionOptionResponse = Schema.Struct({ subscriptionOption: opt(SubscriptionOption) })
export type SubscriptionOptionResponse = typeof SubscriptionOptionResponse.Type

export const GetSubscriptionOptionsForProductRequest = Schema.Struct({
  productId: Schema.String,
  includeHiddenSubscriptionOptions: opt(Schema.Boolean)
})
export const SubscriptionOptionsForProductResponse = Schema.Struct({
  subscriptionOptions: opt(Schema.Array(SubscriptionOptionInProduct))
})
export type SubscriptionOptionsForProductResponse = typeof SubscriptionOptionsForProductResponse.Type

export const GetProductIdsForSubscriptionOptionRequest = Schema.Struct({
  id: Schema.String,
  includeHiddenProducts: opt(Schema.Boolean),
  paging: opt(Paging)
})
export const ProductIdsPagingMetadata = Schema.Struct({ items: opt(Schema.Number), offset: opt(Schema.Number) })
export const ProductIdsResponse = Schema.Struct({
  productIds: opt(Schema.Array(Schema.String)),
  metadata: opt(ProductIdsPagingMetadata),
  totalResults: opt(Schema.Number)
})
export type ProductIdsResponse = typeof ProductIdsResponse.Type

export const GetOneTimePurchasesStatusRequest = Schema.Struct({ productId: Schema.String })
export const OneTimePurchasesStatusResponse = Schema.Struct({ allowed: opt(Schema.Boolean) })
export type OneTimePurchasesStatusResponse = typeof OneTimePurchasesStatusResponse.Type

// writers

/** Create: `title` and `subscriptionSettings` are required; update: only what is passed changes. */
export const SubscriptionOptionRequest = Schema.Struct({ subscriptionOption: SubscriptionOption })
export type SubscriptionOptionRequest = typeof SubscriptionOptionRequest.Type

export const BulkSubscriptionOptionsRequest = Schema.Struct({ subscriptionOptions: Schema.Array(SubscriptionOption) })
export type BulkSubscriptionOptionsRequest = typeof BulkSubscriptionOptionsRequest.Type
export const SubscriptionOptionsResponse = Schema.Struct({ subscriptionOptions: opt(Schema.Array(SubscriptionOption)) })
export type SubscriptionOptionsResponse = typeof SubscriptionOptionsResponse.Type

export const BulkDeleteSubscriptionOptionsRequest = Schema.Struct({ ids: Schema.Array(Schema.String) })

/** Replaces the product's options with these, in this order (at most 6; empty removes them all). */
export const AssignSubscriptionOptionsRequest = Schema.Struct({
  productId: opt(Schema.String),
  assignedSubscriptionOptions: nullable(Schema.Array(SubscriptionOptionInProduct))
})
export type AssignSubscriptionOptionsRequest = typeof AssignSubscriptionOptionsRequest.Type

export const AllowOneTimePurchasesRequest = Schema.Struct({
  productId: opt(Schema.String),
  allowed: Schema.NullOr(Schema.Boolean)
})
export type AllowOneTimePurchasesRequest = typeof AllowOneTimePurchasesRequest.Type
