/**
 * The rules a subscription option follows, as the platform states them: the client checks an option
 * before sending it and the local platform checks what it receives with the same function, so both
 * refuse the same options with the same words.
 */
import type { SubscriptionOption } from "./guards/subscriptions.ts"
import { SubscriptionLimits } from "./protocol.ts"

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
