/**
 * Subscription options: sitefx's SubscriptionOptions against the local platform over HTTP. Creating,
 * changing and deleting options one at a time and in bulk (all or nothing), assigning them to
 * products (order, hidden ones), the products of an option page by page, the one-time purchase
 * setting, the rules an option follows (checked by the client before sending, and by the platform for
 * anyone who skips the client), and who may do what (anyone reads; only an API key writes or sees
 * hidden things).
 */
import { assert, describe, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as Stream from "effect/Stream"
import * as G from "../../src/catalog/guards/subscriptions.ts"
import * as SubscriptionOptions from "../../src/catalog/SubscriptionOptions.ts"
import { asAdmin, asVisitor } from "../data/support.ts"
import { LocalPlatform, settings } from "../support/platform.ts"
import { asMember, failure, newProduct, raw, unique } from "../support/store.ts"


const READER = "/_api/subscription-options-reader-server/v1/subscription-options"
const WRITER = "/stores/v1/subscription-options"

const monthly: G.SubscriptionOption = {
  title: "Monthly",
  description: "Every month, for six months",
  subscriptionSettings: { frequency: "MONTH", autoRenewal: false, billingCycles: 6 },
  discount: { type: "PERCENT", value: 10 }
}
const weekly: G.SubscriptionOption = { title: "Weekly", subscriptionSettings: { frequency: "WEEK", autoRenewal: true } }

describe("subscription options", () => {
  it.layer(LocalPlatform.layer({}))((it) => {
    it.effect("create, get (by anyone), update what is passed, delete", () =>
      Effect.gen(function*() {
        const created = yield* asAdmin(SubscriptionOptions.create(monthly))
        assert.isString(created.id)
        assert.deepStrictEqual(created, { id: created.id, ...monthly })
        const renewing = yield* asAdmin(SubscriptionOptions.create(weekly))
        // what the platform always fills: the discount, and no number of payments for a renewing subscription
        assert.deepStrictEqual(renewing, {
          id: renewing.id,
          title: "Weekly",
          subscriptionSettings: { frequency: "WEEK", autoRenewal: true },
          discount: { type: "UNDEFINED", value: 0 }
        })
        assert.deepStrictEqual(yield* asVisitor(SubscriptionOptions.get(created.id)), created)
        assert.deepStrictEqual(yield* asMember(SubscriptionOptions.get(created.id)), created)

        const renamed = yield* asAdmin(SubscriptionOptions.update(created.id, { title: "Monthly (6)" }))
        assert.deepStrictEqual(renamed, { ...created, title: "Monthly (6)" })
        const longer = yield* asAdmin(SubscriptionOptions.update(created.id, { subscriptionSettings: { billingCycles: 12, interval: 2 } }))
        assert.deepStrictEqual(longer.subscriptionSettings, { frequency: "MONTH", interval: 2, autoRenewal: false, billingCycles: 12 })
        assert.deepStrictEqual(longer.discount, { type: "PERCENT", value: 10 })
        const amount = yield* asAdmin(SubscriptionOptions.update(created.id, { discount: { type: "AMOUNT", value: 2.5 } }))
        assert.deepStrictEqual(amount.discount, { type: "AMOUNT", value: 2.5 })
        const forever = yield* asAdmin(SubscriptionOptions.update(created.id, { subscriptionSettings: { autoRenewal: true } }))
        assert.deepStrictEqual(forever.subscriptionSettings, { frequency: "MONTH", interval: 2, autoRenewal: true })
        // back to a fixed number of payments: it must say how many
        const unsaid = yield* failure(asAdmin(SubscriptionOptions.update(created.id, { subscriptionSettings: { autoRenewal: false } })))
        assert.strictEqual(unsaid.code, "VALIDATION_ERROR")
        assert.strictEqual(unsaid.status, 400)
        assert.strictEqual(unsaid.fieldViolations?.[0]?.field, "subscriptionOption.subscriptionSettings.billingCycles")
        assert.deepStrictEqual((yield* asAdmin(SubscriptionOptions.get(created.id))).subscriptionSettings, forever.subscriptionSettings)

        yield* asAdmin(SubscriptionOptions.remove(created.id))
        const gone = yield* failure(asVisitor(SubscriptionOptions.get(created.id)))
        assert.strictEqual(gone.code, "SUBSCRIPTION_OPTION_NOT_FOUND")
        assert.strictEqual(gone.status, 404)
        assert.strictEqual((yield* failure(asAdmin(SubscriptionOptions.remove(created.id)))).code, "SUBSCRIPTION_OPTION_NOT_FOUND")
        assert.strictEqual((yield* failure(asAdmin(SubscriptionOptions.update(created.id, { title: "x" })))).code, "SUBSCRIPTION_OPTION_NOT_FOUND")

        // ids travel escaped in paths and come back as they were
        const odd = `option één/${unique("odd")}?&#`
        const [made] = yield* asAdmin(SubscriptionOptions.bulkCreate([{ ...weekly, id: odd }]))
        assert.strictEqual(made!.id, odd)
        assert.strictEqual((yield* asVisitor(SubscriptionOptions.get(odd))).id, odd)
        assert.strictEqual((yield* asAdmin(SubscriptionOptions.update(odd, { title: "Odd" }))).title, "Odd")
        const oddsProduct = yield* newProduct()
        yield* asAdmin(SubscriptionOptions.assignToProduct(oddsProduct, [{ id: odd }]))
        assert.deepStrictEqual((yield* asVisitor(SubscriptionOptions.productIds(odd))).productIds, [oddsProduct])
        yield* asAdmin(SubscriptionOptions.remove(odd))
      }))

    it.effect("bulk create, update and delete: every item answered in order, all or nothing", () =>
      Effect.gen(function*() {
        const made = yield* asAdmin(SubscriptionOptions.bulkCreate([monthly, weekly, { ...weekly, title: "Yearly", subscriptionSettings: { frequency: "YEAR", autoRenewal: true } }]))
        assert.deepStrictEqual(made.map((o) => o.title), ["Monthly", "Weekly", "Yearly"])
        assert.strictEqual(new Set(made.map((o) => o.id)).size, 3)
        assert.deepStrictEqual(yield* asAdmin(SubscriptionOptions.bulkCreate([])), [])

        // one bad item: the platform names it, and creates none of them
        const [okId, badId] = [unique("ok"), unique("bad")]
        const refused = yield* raw("POST", `${WRITER}/createBulk`, {
          subscriptionOptions: [{ ...monthly, id: okId }, { ...monthly, id: badId, title: "A title far longer than twenty" }]
        })
        assert.strictEqual(refused.status, 400)
        assert.strictEqual(refused.body.details.validationError.fieldViolations[0].field, "subscriptionOptions[1].title")
        assert.strictEqual((yield* failure(asAdmin(SubscriptionOptions.get(okId)))).code, "SUBSCRIPTION_OPTION_NOT_FOUND")
        const taken = yield* raw("POST", `${WRITER}/createBulk`, { subscriptionOptions: [{ ...monthly, id: okId }, { ...monthly, id: made[0]!.id }] })
        assert.strictEqual(taken.status, 409)
        assert.strictEqual((yield* failure(asAdmin(SubscriptionOptions.get(okId)))).code, "SUBSCRIPTION_OPTION_NOT_FOUND")

        const [a, b, c] = made as [SubscriptionOptions.StoredSubscriptionOption, SubscriptionOptions.StoredSubscriptionOption, SubscriptionOptions.StoredSubscriptionOption]
        const updated = yield* asAdmin(SubscriptionOptions.bulkUpdate([{ id: c.id, title: "Annual" }, { id: a.id, discount: { type: "AMOUNT", value: 5 } }]))
        assert.deepStrictEqual(updated.map((o) => [o.id, o.title, o.discount?.type]), [[c.id, "Annual", "UNDEFINED"], [a.id, "Monthly", "AMOUNT"]])
        const unknown = yield* failure(asAdmin(SubscriptionOptions.bulkUpdate([{ id: b.id, title: "Changed" }, { id: "no-such-option", title: "x" }])))
        assert.strictEqual(unknown.code, "SUBSCRIPTION_OPTION_NOT_FOUND")
        assert.strictEqual((yield* asAdmin(SubscriptionOptions.get(b.id))).title, "Weekly")
        const mergedBad = yield* raw("PATCH", WRITER, { subscriptionOptions: [{ id: b.id, title: "Ok" }, { id: a.id, subscriptionSettings: { autoRenewal: false, billingCycles: null } }] })
        assert.strictEqual(mergedBad.status, 200, "null keeps the value: billingCycles stays 6")
        const twice = yield* raw("PATCH", WRITER, { subscriptionOptions: [{ id: b.id, title: "One" }, { id: b.id, title: "Two" }] })
        assert.strictEqual(twice.status, 400)
        assert.strictEqual(twice.body.details.validationError.fieldViolations[0].field, "subscriptionOptions[1].id")
        const noId = yield* raw("PATCH", WRITER, { subscriptionOptions: [{ title: "No id" }] })
        assert.strictEqual(noId.body.details.validationError.fieldViolations[0].field, "subscriptionOptions[0].id")

        const partly = yield* failure(asAdmin(SubscriptionOptions.bulkRemove([a.id, "no-such-option"])))
        assert.strictEqual(partly.code, "SUBSCRIPTION_OPTION_NOT_FOUND")
        assert.deepStrictEqual(partly.data, undefined)
        assert.strictEqual((yield* asAdmin(SubscriptionOptions.get(a.id))).id, a.id)
        const several = yield* raw("POST", `${WRITER}/deleteBulk`, { ids: ["gone-1", a.id, "gone-2"] })
        assert.strictEqual(several.status, 404)
        assert.deepStrictEqual(several.body.details.applicationError.data, { ids: ["gone-1", "gone-2"] })
        yield* asAdmin(SubscriptionOptions.bulkRemove([a.id, b.id, c.id, a.id]))
        for (const o of [a, b, c]) assert.strictEqual((yield* failure(asAdmin(SubscriptionOptions.get(o.id)))).code, "SUBSCRIPTION_OPTION_NOT_FOUND")
      }))

    it.effect("assigning options to a product replaces what it offers; hidden ones are shown to an API key only", () =>
      Effect.gen(function*() {
        const product = yield* newProduct()
        const [a, b, c] = (yield* asAdmin(SubscriptionOptions.bulkCreate([monthly, weekly, { ...monthly, title: "Quarterly" }]))) as [
          SubscriptionOptions.StoredSubscriptionOption,
          SubscriptionOptions.StoredSubscriptionOption,
          SubscriptionOptions.StoredSubscriptionOption
        ]
        assert.deepStrictEqual(yield* asVisitor(SubscriptionOptions.forProduct(product)), [])
        // a product the store does not have
        const missing = yield* failure(asAdmin(SubscriptionOptions.assignToProduct("no-such-product", [{ id: a.id }])))
        assert.strictEqual(missing.code, "PRODUCT_NOT_FOUND")
        assert.strictEqual((yield* failure(asAdmin(SubscriptionOptions.allowOneTimePurchases("no-such-product", false)))).code, "PRODUCT_NOT_FOUND")
        yield* asAdmin(SubscriptionOptions.assignToProduct(product, [{ id: c.id }, { id: b.id, hidden: true }, { id: a.id }]))
        const visible = yield* asVisitor(SubscriptionOptions.forProduct(product))
        assert.deepStrictEqual(visible.map((o) => [o.id, o.hidden]), [[c.id, false], [a.id, false]])
        const { id: _, ...rest } = c
        assert.deepStrictEqual(visible[0], { id: c.id, hidden: false, ...rest })
        const all = yield* asAdmin(SubscriptionOptions.forProduct(product, { includeHidden: true }))
        assert.deepStrictEqual(all.map((o) => [o.id, o.hidden]), [[c.id, false], [b.id, true], [a.id, false]])
        const peek = yield* failure(asVisitor(SubscriptionOptions.forProduct(product, { includeHidden: true })))
        assert.strictEqual(peek.status, 403)
        assert.strictEqual((yield* failure(asMember(SubscriptionOptions.forProduct(product, { includeHidden: true })))).status, 403)

        // an unknown option: nothing changes
        const unknown = yield* failure(asAdmin(SubscriptionOptions.assignToProduct(product, [{ id: a.id }, { id: "no-such-option" }])))
        assert.strictEqual(unknown.code, "SUBSCRIPTION_OPTION_NOT_FOUND")
        assert.strictEqual((yield* asAdmin(SubscriptionOptions.forProduct(product, { includeHidden: true }))).length, 3)
        // a deleted option leaves the products it was offered on
        yield* asAdmin(SubscriptionOptions.remove(b.id))
        assert.deepStrictEqual((yield* asAdmin(SubscriptionOptions.forProduct(product, { includeHidden: true }))).map((o) => o.id), [c.id, a.id])
        yield* asAdmin(SubscriptionOptions.assignToProduct(product, [{ id: a.id }]))
        assert.deepStrictEqual((yield* asVisitor(SubscriptionOptions.forProduct(product))).map((o) => o.id), [a.id])
        yield* asAdmin(SubscriptionOptions.assignToProduct(product, []))
        assert.deepStrictEqual(yield* asVisitor(SubscriptionOptions.forProduct(product)), [])

        const seven = Array.from({ length: 7 }, () => ({ id: a.id }))
        assert.strictEqual((yield* failure(asAdmin(SubscriptionOptions.assignToProduct(product, seven)))).code, "INVALID_ARGUMENT")
        const cases: ReadonlyArray<readonly [unknown, string]> = [
          [{ assignedSubscriptionOptions: seven }, "assignedSubscriptionOptions"],
          [{ assignedSubscriptionOptions: [{ id: a.id }, { id: a.id }] }, "assignedSubscriptionOptions[1].id"],
          [{ assignedSubscriptionOptions: [{ hidden: true }] }, "assignedSubscriptionOptions[0].id"],
          [{ productId: "another", assignedSubscriptionOptions: [] }, "productId"],
          [{ assignedSubscriptionOptions: [{ id: 7 }] }, "assignedSubscriptionOptions.0.id"]
        ]
        for (const [body, field] of cases) {
          const answer = yield* raw("POST", `${WRITER}/product/${product}/assign`, body)
          assert.strictEqual(answer.status, 400, JSON.stringify(body))
          assert.strictEqual(answer.body.details.validationError.fieldViolations[0].field, field, JSON.stringify(body))
        }
      }))

    it.effect("the products of an option, page by page, and all of them as a Stream", () =>
      Effect.gen(function*() {
        const option = yield* asAdmin(SubscriptionOptions.create(weekly))
        const products = [...(yield* Effect.all(Array.from({ length: 7 }, newProduct)))].sort()
        for (const [i, p] of products.entries()) {
          yield* asAdmin(SubscriptionOptions.assignToProduct(p, [{ id: option.id, hidden: i === 3 }]))
        }
        const visible = products.filter((_, i) => i !== 3)
        const first = yield* asVisitor(SubscriptionOptions.productIds(option.id, { limit: 4 }))
        assert.deepStrictEqual(first.productIds, visible.slice(0, 4))
        assert.strictEqual(first.totalResults, 6)
        assert.isTrue(first.hasNext)
        const second = yield* asVisitor(first.next)
        assert.deepStrictEqual(second.productIds, visible.slice(4))
        assert.strictEqual(second.offset, 4)
        assert.isFalse(second.hasNext)
        assert.strictEqual((yield* failure(asVisitor(second.next))).code, "INVALID_ARGUMENT")
        const withHidden = yield* asAdmin(SubscriptionOptions.productIds(option.id, { includeHiddenProducts: true }))
        assert.deepStrictEqual(withHidden.productIds, products)
        assert.strictEqual(withHidden.totalResults, 7)
        assert.strictEqual((yield* failure(asVisitor(SubscriptionOptions.productIds(option.id, { includeHiddenProducts: true })))).status, 403)
        const offset = yield* asVisitor(SubscriptionOptions.productIds(option.id, { offset: 5 }))
        assert.deepStrictEqual(offset.productIds, visible.slice(5))
        assert.deepStrictEqual(yield* asVisitor(Stream.runCollect(SubscriptionOptions.allProductIds(option.id, { limit: 2 }))), visible)
        assert.deepStrictEqual(yield* asAdmin(Stream.runCollect(SubscriptionOptions.allProductIds(option.id, { includeHiddenProducts: true }))), products)
        const unknown = yield* failure(asVisitor(SubscriptionOptions.productIds("no-such-option")))
        assert.strictEqual(unknown.code, "SUBSCRIPTION_OPTION_NOT_FOUND")

        const answer = yield* raw("GET", `${READER}/${option.id}/productIds?id=${option.id}&paging.limit=2&paging.offset=1`, undefined, "admin")
        assert.deepStrictEqual(answer.body, { productIds: visible.slice(1, 3), metadata: { items: 2, offset: 1 }, totalResults: 6 })
        for (const query of ["paging.limit=101", "paging.limit=abc", "paging.offset=-1", "paging.limit=1.5", "includeHiddenProducts=maybe"]) {
          const bad = yield* raw("GET", `${READER}/${option.id}/productIds?${query}`)
          assert.strictEqual(bad.status, 400, query)
        }
      }))

    it.effect("one-time purchases: allowed unless the owner says otherwise; anyone reads the setting", () =>
      Effect.gen(function*() {
        const product = yield* newProduct()
        assert.isTrue(yield* asVisitor(SubscriptionOptions.oneTimePurchasesAllowed(product)))
        yield* asAdmin(SubscriptionOptions.allowOneTimePurchases(product, false))
        assert.isFalse(yield* asVisitor(SubscriptionOptions.oneTimePurchasesAllowed(product)))
        assert.isFalse(yield* asMember(SubscriptionOptions.oneTimePurchasesAllowed(product)))
        yield* asAdmin(SubscriptionOptions.allowOneTimePurchases(product, true))
        assert.isTrue(yield* asAdmin(SubscriptionOptions.oneTimePurchasesAllowed(product)))
        assert.strictEqual((yield* failure(asAdmin(SubscriptionOptions.allowOneTimePurchases(product, "no" as never)))).code, "INVALID_ARGUMENT")
        const cases: ReadonlyArray<readonly [unknown, string]> = [
          [{ allowed: null }, "allowed"],
          [{}, "allowed"],
          [{ allowed: "yes" }, "allowed"],
          [{ productId: "another", allowed: true }, "productId"]
        ]
        for (const [body, field] of cases) {
          const answer = yield* raw("PATCH", `${WRITER}/product/${product}/allowOneTimePurchase`, body)
          assert.strictEqual(answer.status, 400, JSON.stringify(body))
          assert.strictEqual(answer.body.details.validationError.fieldViolations[0].field, field, JSON.stringify(body))
        }
        // ids longer than the router reads match no route
        const long = yield* raw("PATCH", `${WRITER}/product/${"p".repeat(101)}/allowOneTimePurchase`, { allowed: true })
        assert.strictEqual(long.status, 404)
      }))

    it.effect("the rules of an option: the client refuses before sending, the platform refuses the same with field violations", () =>
      Effect.gen(function*() {
        const { title: _, ...untitled } = monthly
        const cases: ReadonlyArray<readonly [G.SubscriptionOption, string]> = [
          [untitled, "subscriptionOption.title"],
          [{ ...monthly, title: "" }, "subscriptionOption.title"],
          [{ ...monthly, title: "x".repeat(21) }, "subscriptionOption.title"],
          [{ ...monthly, description: "x".repeat(61) }, "subscriptionOption.description"],
          [{ title: "No settings" }, "subscriptionOption.subscriptionSettings"],
          [{ ...monthly, subscriptionSettings: { frequency: "UNDEFINED", autoRenewal: true } }, "subscriptionOption.subscriptionSettings.frequency"],
          [{ ...monthly, subscriptionSettings: { autoRenewal: true } }, "subscriptionOption.subscriptionSettings.frequency"],
          [{ ...monthly, subscriptionSettings: { frequency: "DAY", autoRenewal: false } }, "subscriptionOption.subscriptionSettings.billingCycles"],
          [{ ...monthly, subscriptionSettings: { frequency: "DAY", billingCycles: 1 } }, "subscriptionOption.subscriptionSettings.billingCycles"],
          [{ ...monthly, subscriptionSettings: { frequency: "DAY", billingCycles: 1000 } }, "subscriptionOption.subscriptionSettings.billingCycles"],
          [{ ...monthly, subscriptionSettings: { frequency: "DAY", billingCycles: 2.5 } }, "subscriptionOption.subscriptionSettings.billingCycles"],
          [{ ...monthly, subscriptionSettings: { frequency: "DAY", autoRenewal: true, interval: 51 } }, "subscriptionOption.subscriptionSettings.interval"],
          [{ ...monthly, subscriptionSettings: { frequency: "DAY", autoRenewal: true, interval: 0 } }, "subscriptionOption.subscriptionSettings.interval"],
          [{ ...monthly, discount: { type: "PERCENT", value: 101 } }, "subscriptionOption.discount.value"],
          [{ ...monthly, discount: { type: "AMOUNT", value: -1 } }, "subscriptionOption.discount.value"],
          [{ ...monthly, discount: { type: "AMOUNT", value: 1e12 } }, "subscriptionOption.discount.value"],
          [{ ...monthly, discount: { value: 5 } }, "subscriptionOption.discount.type"]
        ]
        for (const [option, field] of cases) {
          const client = yield* failure(asAdmin(SubscriptionOptions.create(option)))
          assert.strictEqual(client.code, "INVALID_ARGUMENT", JSON.stringify(option))
          assert.strictEqual(client.field, field, JSON.stringify(option))
          assert.isUndefined(client.status)
          const platform = yield* raw("POST", WRITER, { subscriptionOption: option })
          assert.strictEqual(platform.status, 400, JSON.stringify(option))
          assert.strictEqual(platform.body.details.validationError.fieldViolations[0].field, field, JSON.stringify(option))
        }
        const clientOnly = [
          SubscriptionOptions.get(""),
          SubscriptionOptions.update("", { title: "x" }),
          SubscriptionOptions.update("id", { title: "x".repeat(21) }),
          SubscriptionOptions.remove(""),
          SubscriptionOptions.bulkCreate(Array.from({ length: 101 }, () => monthly)),
          SubscriptionOptions.bulkCreate([monthly, { title: "x" }]),
          SubscriptionOptions.bulkUpdate([{ id: "", title: "x" }]),
          SubscriptionOptions.bulkRemove([""]),
          SubscriptionOptions.forProduct(""),
          SubscriptionOptions.productIds("id", { limit: 0 }),
          SubscriptionOptions.productIds("id", { offset: -1 }),
          SubscriptionOptions.oneTimePurchasesAllowed(""),
          SubscriptionOptions.assignToProduct("", [])
        ]
        for (const call of clientOnly) assert.strictEqual((yield* failure(asAdmin(call))).code, "INVALID_ARGUMENT")
        // the platform's own checks of bodies and ids
        const bodies: ReadonlyArray<readonly [string, string, unknown, number]> = [
          ["POST", WRITER, "{oops", 400],
          ["POST", WRITER, {}, 400],
          ["POST", WRITER, { subscriptionOption: { ...monthly, subscriptionSettings: { frequency: "FORTNIGHT" } } }, 400],
          ["POST", `${WRITER}/createBulk`, { subscriptionOptions: Array.from({ length: 101 }, () => monthly) }, 400],
          ["POST", `${WRITER}/deleteBulk`, { ids: Array.from({ length: 101 }, (_, i) => `id${i}`) }, 400],
          ["POST", `${WRITER}/deleteBulk`, { ids: [""] }, 400],
          ["PATCH", `${WRITER}/some-id`, { subscriptionOption: { id: "other-id", title: "x" } }, 400],
          ["POST", WRITER, "[".repeat(3000) + "]".repeat(3000), 400]
        ]
        for (const [method, path, body, status] of bodies) {
          assert.strictEqual((yield* raw(method, path, body)).status, status, `${method} ${path} ${JSON.stringify(body).slice(0, 80)}`)
        }
      }))

    it.effect("writers need an API key: a visitor and a member are refused (403), nobody at all 401", () =>
      Effect.gen(function*() {
        const option = yield* asAdmin(SubscriptionOptions.create(monthly))
        const writes = [
          SubscriptionOptions.create(monthly),
          SubscriptionOptions.update(option.id, { title: "Mine now" }),
          SubscriptionOptions.remove(option.id),
          SubscriptionOptions.bulkCreate([monthly]),
          SubscriptionOptions.bulkUpdate([{ id: option.id, title: "Mine now" }]),
          SubscriptionOptions.bulkRemove([option.id]),
          SubscriptionOptions.assignToProduct("any-product", [{ id: option.id }]),
          SubscriptionOptions.allowOneTimePurchases("any-product", false)
        ]
        for (const write of writes) {
          const visitor = yield* failure(asVisitor(write))
          assert.strictEqual(visitor.status, 403)
          assert.strictEqual(visitor.code, "PERMISSION_DENIED")
          assert.strictEqual((yield* failure(asMember(write))).status, 403)
        }
        // nothing changed
        assert.deepStrictEqual(yield* asAdmin(SubscriptionOptions.get(option.id)), option)
        assert.isTrue(yield* asAdmin(SubscriptionOptions.oneTimePurchasesAllowed("any-product")))
        assert.strictEqual((yield* raw("POST", WRITER, { subscriptionOption: monthly }, "none")).status, 401)
        assert.strictEqual((yield* raw("GET", `${READER}/${option.id}`, undefined, "none")).status, 401)
      }))

    it.effect("a site without a store: the client says so, the platform answers 428", () =>
      Effect.gen(function*() {
        yield* settings({ catalogVersion: "STORES_NOT_INSTALLED" })
        assert.strictEqual((yield* failure(asVisitor(SubscriptionOptions.forProduct("p")))).code, "STORES_NOT_INSTALLED")
        assert.strictEqual((yield* raw("GET", `${READER}/byProduct/p`)).status, 428)
        assert.strictEqual((yield* raw("POST", WRITER, { subscriptionOption: monthly })).status, 428)
        yield* settings({ catalogVersion: "V3_CATALOG" })
        assert.deepStrictEqual(yield* asVisitor(SubscriptionOptions.forProduct("p")), [])
        yield* settings({ catalogVersion: "V1_CATALOG" })
      }))
  })
})
