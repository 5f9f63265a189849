/**
 * Subscription options: ways to buy a product as a subscription (every month for 6 months, every week
 * until cancelled), each with an optional discount. The store owner (an API key) creates, changes and
 * deletes options, one at a time or up to 100 at once, assigns up to 6 to a product (some hidden on
 * it), and says whether the product may also be bought once. Storefronts (any visitor) read an
 * option, a product's visible options, the products of an option, and the one-time purchase setting.
 * Every function needs only the `PlatformClient` of a session or an API key; arguments that break the
 * platform's rules fail with INVALID_ARGUMENT before anything is sent.
 *
 * @example
 * import { SubscriptionOptions } from "sitefx/catalog"
 * declare const productId: string
 * const monthly = yield* SubscriptionOptions.create({
 *   title: "Monthly",
 *   subscriptionSettings: { frequency: "MONTH", autoRenewal: false, billingCycles: 6 },
 *   discount: { type: "PERCENT", value: 10 }
 * })
 * yield* SubscriptionOptions.assignToProduct(productId, [{ id: monthly.id }])
 * const offered = yield* SubscriptionOptions.forProduct(productId)
 */
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import * as Stream from "effect/Stream"
import { first, unlessInvalid } from "../http/checks.ts"
import type { PlatformClient, PlatformClientShape } from "../http/PlatformClient.ts"
import type { PlatformRequest } from "../http/PlatformRequest.ts"
import { FailureCodes } from "../http/Refusal.ts"
import { ANY_STORE, call, callVoid, type CatalogFailure, requireCatalog } from "./calls.ts"
import { badAnswer, CatalogError, invalidArgument } from "./CatalogError.ts"
import * as G from "./guards/subscriptions.ts"
import { SubscriptionCodes, SubscriptionLimits, SubscriptionPaths } from "./protocol.ts"
import { optionProblems } from "./subscriptionRules.ts"

export { SubscriptionCodes, SubscriptionLimits } from "./protocol.ts"
export type { SubscriptionDiscountType } from "./protocol.ts"

/** A subscription option: its title, how it bills, and its discount. */
export type SubscriptionOption = G.SubscriptionOption
/** An option as a product carries it, with whether it is hidden there. */
export type SubscriptionOptionInProduct = G.SubscriptionOptionInProduct
type Opt = SubscriptionOption
/** An option as stored: it has its id. */
export type StoredSubscriptionOption = Opt & { readonly id: string }

/** A product's option as assigned: the option's id, and whether it is hidden on that product. */
export interface Assigned {
  readonly id: string
  readonly hidden?: boolean | undefined
}

/** One page of the product ids of an option, with the way to the next one. */
export interface ProductIdsPage {
  readonly productIds: ReadonlyArray<string>
  readonly totalResults: number
  readonly offset: number
  readonly limit: number
  readonly hasNext: boolean
  /** The next page; fails with INVALID_ARGUMENT when there is none. */
  readonly next: Effect.Effect<ProductIdsPage, CatalogFailure, PlatformClient>
}

/** Which page of an option's products to read, and whether hidden ones count. */
export interface ProductIdsOptions {
  /** Also products the option is hidden on (an API key only). */
  readonly includeHiddenProducts?: boolean | undefined
  /** 1 to 100; default 50. */
  readonly limit?: number | undefined
  readonly offset?: number | undefined
}

const L = SubscriptionLimits

const nonEmpty = (value: unknown, field: string): CatalogError | undefined =>
  typeof value === "string" && value !== "" ? undefined : invalidArgument(`${field} must be a non-empty string`, field)

const isWhole = (n: unknown, min: number, max: number): boolean => typeof n === "number" && Number.isInteger(n) && n >= min && n <= max

/** The first problem of these options, as a CatalogError. */
const firstProblem = (options: ReadonlyArray<Opt>, at: (i: number) => string, complete: boolean): CatalogError | undefined => {
  for (const [i, o] of options.entries()) {
    if (typeof o !== "object" || o === null) return invalidArgument(`${at(i)} must be an object`, at(i))
    const [problem] = optionProblems(o, at(i), complete)
    if (problem !== undefined) return invalidArgument(problem.description, problem.field)
  }
  return undefined
}

const list = <A>(value: unknown, field: string, max: number, min = 0): CatalogError | undefined =>
  !Array.isArray(value)
    ? invalidArgument(`${field} must be an array`, field)
    : value.length > max || value.length < min
    ? invalidArgument(`${field} holds ${min === 0 ? "at most" : `${min} to`} ${max} items`, field)
    : undefined

const notFound = (id: string) => badAnswer(SubscriptionCodes.notFound, `Subscription option ${id} was not found`)

const withId = (option: Opt | undefined, what: string): Effect.Effect<StoredSubscriptionOption, CatalogError> =>
  option === undefined || option.id === undefined || option.id === null
    ? Effect.fail(badAnswer(FailureCodes.unknown, `${what}: the platform answered without the option`))
    : Effect.succeed(option as StoredSubscriptionOption)

/** Runs a call on any installed store. */
const store = <A>(what: string, f: (client: PlatformClientShape) => Effect.Effect<A, CatalogFailure>) => requireCatalog(ANY_STORE, what, f)

// ---- writers (an API key) ----------------------------------------------------------------------------

/** Creates an option: a title (1–20 characters), a frequency, and billing cycles (2–999) unless it renews by itself. */
export const create = (option: Opt): Effect.Effect<StoredSubscriptionOption, CatalogFailure, PlatformClient> =>
  unlessInvalid(firstProblem([option], () => "subscriptionOption", true), () =>
    store("SubscriptionOptions.create", (client) =>
      call(client, { method: "POST", path: SubscriptionPaths.options, payload: { subscriptionOption: option } }, G.SubscriptionOptionResponse)
        .pipe(Effect.flatMap((r) => withId(r.subscriptionOption, "SubscriptionOptions.create")))))

/** Changes what `patch` passes, and nothing else; SUBSCRIPTION_OPTION_NOT_FOUND for an unknown id. */
export const update = (id: string, patch: Omit<Opt, "id">): Effect.Effect<StoredSubscriptionOption, CatalogFailure, PlatformClient> =>
  unlessInvalid(first(nonEmpty(id, "id"), firstProblem([patch], () => "subscriptionOption", false)), () =>
    store("SubscriptionOptions.update", (client) =>
      call(
        client,
        { method: "PATCH", path: SubscriptionPaths.writeOption(id), payload: { subscriptionOption: { ...patch, id } } },
        G.SubscriptionOptionResponse
      ).pipe(Effect.flatMap((r) => withId(r.subscriptionOption, "SubscriptionOptions.update")))))

/** Deletes an option (and its assignments to products). */
export const remove = (id: string): Effect.Effect<void, CatalogFailure, PlatformClient> =>
  unlessInvalid(nonEmpty(id, "id"), () =>
    store("SubscriptionOptions.remove", (client) => callVoid(client, { method: "DELETE", path: SubscriptionPaths.writeOption(id), payload: { id } })))

/** Creates up to 100 options at once: all of them, in order, or none when one breaks a rule. */
export const bulkCreate = (options: ReadonlyArray<Opt>): Effect.Effect<ReadonlyArray<StoredSubscriptionOption>, CatalogFailure, PlatformClient> =>
  unlessInvalid(
    first(list(options, "subscriptionOptions", L.maxBulk), Array.isArray(options) ? firstProblem(options, (i) => `subscriptionOptions[${i}]`, true) : undefined),
    () =>
      store("SubscriptionOptions.bulkCreate", (client) =>
        call(client, { method: "POST", path: SubscriptionPaths.createBulk, payload: { subscriptionOptions: options } }, G.SubscriptionOptionsResponse)
          .pipe(Effect.flatMap((r) => Effect.forEach(r.subscriptionOptions ?? [], (o) => withId(o, "SubscriptionOptions.bulkCreate")))))
  )

/** Updates up to 100 options at once (each by its id, only what it passes): all of them, or none. */
export const bulkUpdate = (
  options: ReadonlyArray<Opt & { readonly id: string }>
): Effect.Effect<ReadonlyArray<StoredSubscriptionOption>, CatalogFailure, PlatformClient> =>
  unlessInvalid(
    first(
      list(options, "subscriptionOptions", L.maxBulk),
      ...(Array.isArray(options) ? options.map((o, i) => nonEmpty(o?.id, `subscriptionOptions[${i}].id`)) : []),
      Array.isArray(options) ? firstProblem(options, (i) => `subscriptionOptions[${i}]`, false) : undefined
    ),
    () =>
      store("SubscriptionOptions.bulkUpdate", (client) =>
        call(client, { method: "PATCH", path: SubscriptionPaths.options, payload: { subscriptionOptions: options } }, G.SubscriptionOptionsResponse)
          .pipe(Effect.flatMap((r) => Effect.forEach(r.subscriptionOptions ?? [], (o) => withId(o, "SubscriptionOptions.bulkUpdate")))))
  )

/** Deletes up to 100 options at once; when one is unknown, none is deleted. */
export const bulkRemove = (ids: ReadonlyArray<string>): Effect.Effect<void, CatalogFailure, PlatformClient> =>
  unlessInvalid(first(list(ids, "ids", L.maxBulk), ...(Array.isArray(ids) ? ids.map((id, i) => nonEmpty(id, `ids[${i}]`)) : [])), () =>
    store("SubscriptionOptions.bulkRemove", (client) => callVoid(client, { method: "POST", path: SubscriptionPaths.deleteBulk, payload: { ids } })))

/**
 * Offers these options (at most 6, in this order) for a product, replacing what it offered; an empty
 * list removes them all. A hidden option stays assigned but storefronts do not see it.
 *
 * @example
 * import * as SubscriptionOptions from "sitefx/catalog/subscription-options"
 * declare const productId: string, monthlyId: string, weeklyId: string
 * yield* SubscriptionOptions.assignToProduct(productId, [{ id: monthlyId }, { id: weeklyId, hidden: true }])
 */
export const assignToProduct = (productId: string, assigned: ReadonlyArray<Assigned>): Effect.Effect<void, CatalogFailure, PlatformClient> =>
  unlessInvalid(
    first(
      nonEmpty(productId, "productId"),
      list(assigned, "assignedSubscriptionOptions", L.maxAssigned),
      ...(Array.isArray(assigned) ? assigned.map((a, i) => nonEmpty(a?.id, `assignedSubscriptionOptions[${i}].id`)) : [])
    ),
    () =>
      store("SubscriptionOptions.assignToProduct", (client) =>
        callVoid(client, {
          method: "POST",
          path: SubscriptionPaths.assign(productId),
          payload: { productId, assignedSubscriptionOptions: assigned.map((a) => (a.hidden === undefined ? { id: a.id } : { id: a.id, hidden: a.hidden })) }
        }))
  )

/** Whether the product may also be bought once, without subscribing. */
export const allowOneTimePurchases = (productId: string, allowed: boolean): Effect.Effect<void, CatalogFailure, PlatformClient> =>
  unlessInvalid(
    first(nonEmpty(productId, "productId"), typeof allowed === "boolean" ? undefined : invalidArgument("allowed must be true or false", "allowed")),
    () =>
      store("SubscriptionOptions.allowOneTimePurchases", (client) =>
        callVoid(client, { method: "PATCH", path: SubscriptionPaths.allowOneTimePurchase(productId), payload: { productId, allowed } }))
  )

// ---- readers (anyone) --------------------------------------------------------------------------------

/** One option; SUBSCRIPTION_OPTION_NOT_FOUND for an unknown id. */
export const get = (id: string): Effect.Effect<StoredSubscriptionOption, CatalogFailure, PlatformClient> =>
  unlessInvalid(nonEmpty(id, "id"), () =>
    store("SubscriptionOptions.get", (client) =>
      call(client, { method: "GET", path: SubscriptionPaths.option(id), payload: { id } }, G.SubscriptionOptionResponse).pipe(
        Effect.flatMap((r) => (r.subscriptionOption === undefined ? Effect.fail(notFound(id)) : withId(r.subscriptionOption, "SubscriptionOptions.get")))
      )))

/**
 * The options a product offers, in order; hidden ones too with `includeHidden` (an API key only).
 *
 * @example
 * import * as SubscriptionOptions from "sitefx/catalog/subscription-options"
 * declare const productId: string
 * const offered = yield* SubscriptionOptions.forProduct(productId)
 * const labels = offered.map((o) => o.discount?.type === "PERCENT" ? `${o.title} (−${o.discount.value} %)` : o.title)
 */
export const forProduct = (
  productId: string,
  options: { readonly includeHidden?: boolean | undefined } = {}
): Effect.Effect<ReadonlyArray<G.SubscriptionOptionInProduct>, CatalogFailure, PlatformClient> =>
  unlessInvalid(nonEmpty(productId, "productId"), () =>
    store("SubscriptionOptions.forProduct", (client) =>
      call(
        client,
        {
          method: "GET",
          path: SubscriptionPaths.forProduct(productId),
          payload: { productId, ...(options.includeHidden === undefined ? {} : { includeHiddenSubscriptionOptions: options.includeHidden }) }
        },
        G.SubscriptionOptionsForProductResponse
      ).pipe(Effect.map((r) => r.subscriptionOptions ?? []))))

/** Whether the product may be bought once, without subscribing (true unless the owner said otherwise). */
export const oneTimePurchasesAllowed = (productId: string): Effect.Effect<boolean, CatalogFailure, PlatformClient> =>
  unlessInvalid(nonEmpty(productId, "productId"), () =>
    store("SubscriptionOptions.oneTimePurchasesAllowed", (client) =>
      call(client, { method: "GET", path: SubscriptionPaths.oneTimePurchasesStatus(productId), payload: { productId } }, G.OneTimePurchasesStatusResponse)
        .pipe(Effect.map((r) => r.allowed ?? true))))

const productIdsPage = (id: string, o: ProductIdsOptions, offset: number): Effect.Effect<ProductIdsPage, CatalogFailure, PlatformClient> => {
  const limit = o.limit ?? L.defaultProductIdsPage
  const req: PlatformRequest = {
    method: "GET",
    path: SubscriptionPaths.productIds(id),
    payload: {
      id,
      ...(o.includeHiddenProducts === undefined ? {} : { includeHiddenProducts: o.includeHiddenProducts }),
      ...(o.limit === undefined && offset === 0 ? {} : { paging: { ...(o.limit === undefined ? {} : { limit: o.limit }), offset } })
    }
  }
  return store("SubscriptionOptions.productIds", (client) =>
    call(client, req, G.ProductIdsResponse).pipe(Effect.map((answer): ProductIdsPage => {
      const productIds = answer.productIds ?? []
      const totalResults = answer.totalResults ?? offset + productIds.length
      const hasNext = productIds.length > 0 && offset + productIds.length < totalResults
      return {
        productIds,
        totalResults,
        offset,
        limit,
        hasNext,
        next: hasNext
          ? Effect.suspend(() => productIdsPage(id, o, offset + productIds.length))
          : Effect.fail(invalidArgument("There is no next page of product ids", "next"))
      }
    })))
}

const productIdsProblem = (id: string, o: ProductIdsOptions): CatalogError | undefined =>
  first(
    nonEmpty(id, "id"),
    o.limit === undefined || isWhole(o.limit, 1, L.maxProductIdsPage)
      ? undefined
      : invalidArgument(`limit must be a whole number from 1 to ${L.maxProductIdsPage}`, "limit"),
    o.offset === undefined || isWhole(o.offset, 0, Number.MAX_SAFE_INTEGER) ? undefined : invalidArgument("offset must be a whole number from 0", "offset")
  )

/** One page of the ids of the products an option is assigned to (by product id). */
export const productIds = (id: string, options: ProductIdsOptions = {}): Effect.Effect<ProductIdsPage, CatalogFailure, PlatformClient> =>
  unlessInvalid(productIdsProblem(id, options), () => productIdsPage(id, options, options.offset ?? 0))

/** Every product id of an option, page after page (100 a page unless `limit` says otherwise). */
export const allProductIds = (id: string, options: ProductIdsOptions = {}): Stream.Stream<string, CatalogFailure, PlatformClient> => {
  const o = { ...options, limit: options.limit ?? L.maxProductIdsPage }
  return Stream.paginate(productIds(id, o), (current) =>
    Effect.map(current, (page) => [page.productIds, page.hasNext ? Option.some(page.next) : Option.none()] as const))
}
