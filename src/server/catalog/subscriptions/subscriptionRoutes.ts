/**
 * The subscription-option calls. Readers (`/_api/subscription-options-reader-server/v1/...`: one
 * option, a product's options, an option's products, a product's one-time purchase setting) serve
 * visitors, members and API keys; hidden options and products are shown to an API key only. Writers
 * (`/stores/v1/subscription-options...`: create, update, delete, their bulk forms, assigning options to
 * a product, allowing one-time purchases) need an API key. Every body is decoded with the shared
 * Schemas and checked by the same rules the client applies; a refused write changes nothing.
 */
import * as Effect from "effect/Effect"
import * as HttpRouter from "effect/http/HttpRouter"
import type * as Schema from "effect/Schema"
import { SubscriptionLimits as L } from "../../../catalog/protocol.ts"
import { optionProblems, type OptionProblem } from "../../../catalog/subscriptionRules.ts"
import {
  AllowOneTimePurchasesRequest,
  AssignSubscriptionOptionsRequest,
  BulkDeleteSubscriptionOptionsRequest,
  BulkSubscriptionOptionsRequest,
  GetProductIdsForSubscriptionOptionRequest,
  GetSubscriptionOptionsForProductRequest,
  OneTimePurchasesStatusResponse,
  ProductIdsResponse,
  SubscriptionOptionRequest,
  SubscriptionOptionResponse,
  SubscriptionOptionsForProductResponse,
  SubscriptionOptionsResponse
} from "../../../catalog/wire/subscriptions.ts"
import { getPayload } from "../../store/payload.ts"
import type { FieldViolation } from "../../../http/wire.ts"
import { failure, reject, violations } from "../../store/engine.ts"
import { type EngineFailure, toReject } from "../../store/engineFailures.ts"
import { forbidden, invalidField, type Reject, reply, replyEmpty } from "../../platform/responses.ts"
import { body, pathParam, route } from "../../platform/routing.ts"
import { storeAccess } from "../access.ts"
import { CatalogEngine } from "../CatalogEngine.ts"
import { readPaging } from "../carts/queryParts.ts"
import { ProductStore } from "../products/ProductStore.ts"
import { type Assignment, checkProduct, type StoredOption, SubscriptionOptionStore } from "./SubscriptionOptionStore.ts"

const READER = "/_api/subscription-options-reader-server/v1/subscription-options"
const WRITER = "/stores/v1/subscription-options"

export const subscriptionRoutes = HttpRouter.addAll(Effect.gen(function*() {
  const access = yield* storeAccess
  const options = yield* SubscriptionOptionStore
  const engine = yield* CatalogEngine
  const products = yield* ProductStore

  /** On a v1 catalog, the product a write names must exist (v3 products live outside this store). */
  const productExists = (productId: string) =>
    access.version() === "V1_CATALOG" && products.find(productId) === undefined
      ? failure(404, "PRODUCT_NOT_FOUND", `Product ${productId} not found`)
      : undefined

  /** A write on the product in the path: an API key, the body, and a product that exists and is the one the body names. */
  const productWrite = <A extends { readonly productId?: string | undefined }, I>(schema: Schema.Codec<A, I>) =>
    Effect.gen(function*() {
      yield* access.writer
      const productId = yield* pathParam("productId")
      const request = yield* body(schema)
      const badProduct = checkProduct(productId) ?? productExists(productId)
      if (badProduct !== undefined) return yield* reject(badProduct)
      if (request.productId !== undefined && request.productId !== productId) {
        return yield* invalidField("productId", "productId must be the product id in the path")
      }
      return { productId, request }
    })

  const checkMerged = (at: (i: number) => string) => (merged: ReadonlyArray<StoredOption>): void => {
    const wrong = refusal(merged.flatMap((o, i) => optionProblems(o, at(i), true)))
    if (wrong !== undefined) throw wrong
  }

  /** A reader asking for hidden things must be an API key. */
  const hiddenNeedsKey = (include: boolean | undefined, what: string) =>
    Effect.gen(function*() {
      const caller = yield* access.reader
      if (include === true && caller.kind !== "admin") return yield* forbidden(`Hidden ${what} are shown to an API key only`)
          .because({ kind: "permission", id: "store.hidden.api-key-only", required: "ADMIN", caller: caller.kind })
    })

  return [
    // readers
    route(
      "GET",
      `${READER}/byProduct/:productId`,
      Effect.gen(function*() {
        const request = yield* getPayload(GetSubscriptionOptionsForProductRequest, { booleans: ["includeHiddenSubscriptionOptions"] }, {
          productId: yield* pathParam("productId")
        })
        yield* hiddenNeedsKey(request.includeHiddenSubscriptionOptions, "subscription options")
        return reply(SubscriptionOptionsForProductResponse, {
          subscriptionOptions: yield* engine.read(() => options.forProduct(request.productId, request.includeHiddenSubscriptionOptions === true))
        })
      })
    ),
    route(
      "GET",
      `${READER}/product/:productId/oneTimePurchasesStatus`,
      Effect.gen(function*() {
        yield* access.reader
        const productId = yield* pathParam("productId")
        return reply(OneTimePurchasesStatusResponse, { allowed: yield* engine.read(() => options.oneTimePurchasesAllowed(productId)) })
      })
    ),
    route(
      "GET",
      `${READER}/:id/productIds`,
      Effect.gen(function*() {
        const request = yield* getPayload(
          GetProductIdsForSubscriptionOptionRequest,
          { booleans: ["includeHiddenProducts"], numbers: ["paging.limit", "paging.offset"] },
          { id: yield* pathParam("id") }
        )
        yield* hiddenNeedsKey(request.includeHiddenProducts, "products")
        const page = readPaging(request.paging, "paging", L.maxProductIdsPage, L.defaultProductIdsPage)
        if (!page.ok) return yield* page.reject
        const { ids, total } = yield* engine.read(() => options.productIds(request.id, request.includeHiddenProducts === true, page.value))
        return reply(ProductIdsResponse, { productIds: ids, metadata: { items: ids.length, offset: page.value.offset }, totalResults: total })
      })
    ),
    route(
      "GET",
      `${READER}/:id`,
      Effect.gen(function*() {
        yield* access.reader
        const id = yield* pathParam("id")
        return reply(SubscriptionOptionResponse, { subscriptionOption: yield* engine.read(() => options.require(id)) })
      })
    ),
    // writers
    route(
      "POST",
      WRITER,
      Effect.gen(function*() {
        yield* access.writer
        const { subscriptionOption } = yield* body(SubscriptionOptionRequest)
        const wrong = refuse(optionProblems(subscriptionOption, "subscriptionOption", true))
        if (wrong !== undefined) return yield* wrong
        const [created] = yield* engine.commit(() => options.create([subscriptionOption]))
        return reply(SubscriptionOptionResponse, { subscriptionOption: created! })
      })
    ),
    route(
      "POST",
      `${WRITER}/createBulk`,
      Effect.gen(function*() {
        yield* access.writer
        const { subscriptionOptions } = yield* body(BulkSubscriptionOptionsRequest)
        const wrong = refuse([
          ...tooMany("subscriptionOptions", subscriptionOptions.length, L.maxBulk),
          ...subscriptionOptions.flatMap((o, i) => optionProblems(o, `subscriptionOptions[${i}]`, true)),
          ...duplicates(subscriptionOptions.map((o) => o.id), (i) => `subscriptionOptions[${i}].id`)
        ])
        if (wrong !== undefined) return yield* wrong
        return reply(SubscriptionOptionsResponse, { subscriptionOptions: yield* engine.commit(() => options.create(subscriptionOptions)) })
      })
    ),
    route(
      "PATCH",
      `${WRITER}/:id`,
      Effect.gen(function*() {
        yield* access.writer
        const id = yield* pathParam("id")
        const { subscriptionOption } = yield* body(SubscriptionOptionRequest)
        if (subscriptionOption.id !== undefined && subscriptionOption.id !== null && subscriptionOption.id !== id) {
          return yield* invalidField("subscriptionOption.id", "subscriptionOption.id must be the id in the path")
        }
        const wrong = refuse(optionProblems(subscriptionOption, "subscriptionOption", false))
        if (wrong !== undefined) return yield* wrong
        const [updated] = yield* engine.commit(() => options.update([{ ...subscriptionOption, id }], checkMerged(() => "subscriptionOption")))
        return reply(SubscriptionOptionResponse, { subscriptionOption: updated! })
      })
    ),
    route(
      "PATCH",
      WRITER,
      Effect.gen(function*() {
        yield* access.writer
        const { subscriptionOptions } = yield* body(BulkSubscriptionOptionsRequest)
        const wrong = refuse([
          ...tooMany("subscriptionOptions", subscriptionOptions.length, L.maxBulk),
          ...subscriptionOptions.flatMap((o, i): ReadonlyArray<OptionProblem | FieldViolation> =>
            o.id === undefined || o.id === null
              ? [violation(`subscriptionOptions[${i}].id`, `subscriptionOptions[${i}].id is required`, "REQUIRED_FIELD")]
              : optionProblems(o, `subscriptionOptions[${i}]`, false)
          ),
          ...duplicates(subscriptionOptions.map((o) => o.id), (i) => `subscriptionOptions[${i}].id`)
        ])
        if (wrong !== undefined) return yield* wrong
        const updated = yield* engine.commit(() =>
          options.update(
            subscriptionOptions.map((o) => ({ ...o, id: o.id! })),
            checkMerged((i) => `subscriptionOptions[${i}]`)
          )
        )
        return reply(SubscriptionOptionsResponse, { subscriptionOptions: updated })
      })
    ),
    route(
      "DELETE",
      `${WRITER}/:id`,
      Effect.gen(function*() {
        yield* access.writer
        const id = yield* pathParam("id")
        yield* engine.commit(() => options.remove([id]))
        return replyEmpty()
      })
    ),
    route(
      "POST",
      `${WRITER}/deleteBulk`,
      Effect.gen(function*() {
        yield* access.writer
        const { ids } = yield* body(BulkDeleteSubscriptionOptionsRequest)
        const wrong = refuse([
          ...tooMany("ids", ids.length, L.maxBulk),
          ...ids.flatMap((id, i) => (id === "" ? [violation(`ids[${i}]`, "An id is not empty")] : []))
        ])
        if (wrong !== undefined) return yield* wrong
        yield* engine.commit(() => options.remove(ids))
        return replyEmpty()
      })
    ),
    route(
      "POST",
      `${WRITER}/product/:productId/assign`,
      Effect.gen(function*() {
        const { productId, request } = yield* productWrite(AssignSubscriptionOptionsRequest)
        const assigned = request.assignedSubscriptionOptions ?? []
        const wrong = refuse([
          ...tooMany("assignedSubscriptionOptions", assigned.length, L.maxAssigned),
          ...assigned.flatMap((a, i) =>
            a.id === undefined || a.id === ""
              ? [violation(`assignedSubscriptionOptions[${i}].id`, `assignedSubscriptionOptions[${i}].id is required`, "REQUIRED_FIELD")]
              : []
          ),
          ...duplicates(assigned.map((a) => a.id), (i) => `assignedSubscriptionOptions[${i}].id`)
        ])
        if (wrong !== undefined) return yield* wrong
        yield* engine.commit(() => options.assign(productId, assigned.map((a): Assignment => ({ id: a.id!, hidden: a.hidden === true }))))
        return replyEmpty()
      })
    ),
    route(
      "PATCH",
      `${WRITER}/product/:productId/allowOneTimePurchase`,
      Effect.gen(function*() {
        const { productId, request } = yield* productWrite(AllowOneTimePurchasesRequest)
        if (request.allowed === null) return yield* invalidField("allowed", "allowed is required (true or false)", "REQUIRED_FIELD")
        const allowed = request.allowed
        yield* engine.commit(() => options.allowOneTimePurchases(productId, allowed))
        return replyEmpty()
      })
    )
  ]
}))

/** The refusal of a request with problems; none when it has none. */
const refusal = (problems: ReadonlyArray<OptionProblem | FieldViolation>): EngineFailure | undefined => {
  if (problems.length === 0) return undefined
  const list = problems.map((p): FieldViolation =>
    "rule" in p ? { field: p.field, description: p.description, violatedRule: p.rule, data: {} } : p
  )
  return violations(list.length === 1 ? list[0]!.description ?? "Invalid request" : `Invalid request: ${list[0]!.description}`, list)
}

const refuse = (problems: ReadonlyArray<OptionProblem | FieldViolation>): Reject | undefined => {
  const wrong = refusal(problems)
  return wrong === undefined ? undefined : toReject(wrong)
}

/** The list's violation when it is longer than `max`, none otherwise. */
const tooMany = (field: string, count: number, max: number): ReadonlyArray<FieldViolation> =>
  count > max ? [{ field, description: `${field} holds at most ${max} items`, violatedRule: "MAX_SIZE", data: { max } }] : []

const violation = (field: string, description: string, violatedRule = "OTHER"): FieldViolation => ({ field, description, violatedRule, data: {} })

/** Ids each present once. */
const duplicates = (ids: ReadonlyArray<string | null | undefined>, field: (i: number) => string): ReadonlyArray<FieldViolation> => {
  const seen = new Set<string>()
  const out: Array<FieldViolation> = []
  ids.forEach((id, i) => {
    if (id === undefined || id === null) return
    if (seen.has(id)) out.push(violation(field(i), `${id} is listed twice`))
    seen.add(id)
  })
  return out
}
