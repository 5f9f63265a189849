/**
 * What the subscription-options client needs of the wire at run time, without Schema: the
 * enumerations, the paths (readers and writers live under different services), the bounds the
 * platform sets, and guards for the answers it reads. The Schemas of the same shapes are in
 * `../wire/subscriptions.ts`; a typed test keeps each guard's type equal to its Schema's.
 */
import * as G from "../../http/guard.ts"
import { SUBSCRIPTION_FREQUENCIES } from "../protocol.ts"

/** A subscription option's discount: none (`UNDEFINED`), an amount off, or a percentage off. */
export const SUBSCRIPTION_DISCOUNT_TYPES = ["UNDEFINED", "AMOUNT", "PERCENT"] as const
export type SubscriptionDiscountType = typeof SUBSCRIPTION_DISCOUNT_TYPES[number]

/** The platform's bounds on a subscription option and on its calls. */
export const SubscriptionLimits = {
  maxTitle: 20,
  maxDescription: 60,
  minBillingCycles: 2,
  maxBillingCycles: 999,
  minInterval: 1,
  maxInterval: 50,
  maxPercent: 100,
  maxAmount: 999_999_999.99,
  /** Options in one bulk call, and ids in one bulk delete. */
  maxBulk: 100,
  /** Options assigned to one product. */
  maxAssigned: 6,
  maxProductIdsPage: 100,
  defaultProductIdsPage: 50
} as const

/** Application codes of the subscription-option calls. */
export const SubscriptionCodes = {
  notFound: "SUBSCRIPTION_OPTION_NOT_FOUND",
  alreadyExists: "SUBSCRIPTION_OPTION_ALREADY_EXISTS"
} as const

const READER = "/_api/subscription-options-reader-server/v1/subscription-options"
const WRITER = "/stores/v1/subscription-options"
const e = encodeURIComponent

/** The paths as the platform's official client sends them: readers under their own service, writers under `/stores`. */
export const SubscriptionPaths = {
  option: (id: string) => `${READER}/${e(id)}`,
  forProduct: (productId: string) => `${READER}/byProduct/${e(productId)}`,
  productIds: (id: string) => `${READER}/${e(id)}/productIds`,
  oneTimePurchasesStatus: (productId: string) => `${READER}/product/${e(productId)}/oneTimePurchasesStatus`,
  options: WRITER,
  writeOption: (id: string) => `${WRITER}/${e(id)}`,
  createBulk: `${WRITER}/createBulk`,
  deleteBulk: `${WRITER}/deleteBulk`,
  assign: (productId: string) => `${WRITER}/product/${e(productId)}/assign`,
  allowOneTimePurchase: (productId: string) => `${WRITER}/product/${e(productId)}/allowOneTimePurchase`
} as const

// ---- guards of the answers ---------------------------------------------------------------------------

const opt = G.optional
const nullable = <A>(g: G.Guard<A>) => opt(G.nullOr(g))

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

// ---- the rules an option follows ---------------------------------------------------------------------

/** One thing wrong with an option: where, what, and which rule (as the platform names its rules). */
export interface OptionProblem {
  readonly field: string
  readonly description: string
  readonly rule: "REQUIRED_FIELD" | "MAX_LENGTH" | "MIN" | "MAX" | "OTHER"
}

const isWhole = (n: unknown, min: number, max: number): boolean => typeof n === "number" && Number.isInteger(n) && n >= min && n <= max

/**
 * What is wrong with an option under `at` (`subscriptionOption`, `subscriptionOptions[2]`). A
 * `complete` option is one about to be stored (created, or updated and merged): it needs a title, a
 * frequency, and a number of billing cycles unless it renews automatically. Otherwise (an update's
 * patch) only the fields present are checked. The client and the local platform apply the same rules.
 */
export const optionProblems = (o: SubscriptionOption, at: string, complete: boolean): ReadonlyArray<OptionProblem> => {
  const out: Array<OptionProblem> = []
  const L = SubscriptionLimits
  const add = (field: string, description: string, rule: OptionProblem["rule"]) => out.push({ field: `${at}.${field}`, description, rule })
  if (o.id !== undefined && o.id !== null && (o.id === "" || o.id.length > 100)) add("id", "id has 1 to 100 characters", "MAX_LENGTH")
  if (o.title === undefined || o.title === null) {
    if (complete) add("title", "title is required", "REQUIRED_FIELD")
  } else if (o.title.trim() === "" || o.title.length > L.maxTitle) {
    add("title", `title has 1 to ${L.maxTitle} characters`, "MAX_LENGTH")
  }
  if (typeof o.description === "string" && o.description.length > L.maxDescription) {
    add("description", `description has at most ${L.maxDescription} characters`, "MAX_LENGTH")
  }
  const s = o.subscriptionSettings
  if (s === undefined) {
    if (complete) add("subscriptionSettings", "subscriptionSettings is required", "REQUIRED_FIELD")
  } else {
    if (s.frequency === "UNDEFINED" || (complete && s.frequency === undefined)) {
      add("subscriptionSettings.frequency", "subscriptionSettings.frequency is required (DAY, WEEK, MONTH or YEAR)", "REQUIRED_FIELD")
    }
    if (s.interval !== undefined && s.interval !== null && !isWhole(s.interval, L.minInterval, L.maxInterval)) {
      add("subscriptionSettings.interval", `subscriptionSettings.interval is a whole number from ${L.minInterval} to ${L.maxInterval}`, "MAX")
    }
    if (s.billingCycles !== undefined && s.billingCycles !== null && !isWhole(s.billingCycles, L.minBillingCycles, L.maxBillingCycles)) {
      add("subscriptionSettings.billingCycles", `subscriptionSettings.billingCycles is a whole number from ${L.minBillingCycles} to ${L.maxBillingCycles}`, "MAX")
    } else if (complete && s.autoRenewal !== true && (s.billingCycles === undefined || s.billingCycles === null)) {
      add("subscriptionSettings.billingCycles", "subscriptionSettings.billingCycles is required unless the subscription renews automatically", "REQUIRED_FIELD")
    }
  }
  const d = o.discount
  if (d !== undefined) {
    const value = d.value ?? 0
    if (!Number.isFinite(value) || value < 0) add("discount.value", "discount.value is a number from 0", "MIN")
    else if (d.type === "PERCENT" && value > L.maxPercent) add("discount.value", `a PERCENT discount is at most ${L.maxPercent}`, "MAX")
    else if (d.type === "AMOUNT" && value > L.maxAmount) add("discount.value", `an AMOUNT discount is at most ${L.maxAmount}`, "MAX")
    else if ((d.type === undefined || d.type === "UNDEFINED") && value !== 0) add("discount.type", "a discount with a value needs its type (AMOUNT or PERCENT)", "REQUIRED_FIELD")
  }
  return out
}
