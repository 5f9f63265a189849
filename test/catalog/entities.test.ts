/**
 * The catalog v3 entity services through sitefx's client, against the local platform over real HTTP:
 * every call of brands, ribbons, info sections, customizations and v3 inventory items; queries with
 * filters, sorts, cursors both ways and streams; revisions; unique names; client-side refusals (no
 * request sent) and the platform's own 4xx for what slips past them; visitors and members refused
 * writes; the domain event of every write; the demo seed.
 */
import { assert, describe, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as Redacted from "effect/Redacted"
import * as Stream from "effect/Stream"
import { CatalogError } from "../../src/catalog/CatalogError.ts"
import { call, withClient } from "../../src/catalog/calls.ts"
import * as Brands from "../../src/catalog/entities/Brands.ts"
import * as Customizations from "../../src/catalog/entities/Customizations.ts"
import * as InfoSections from "../../src/catalog/entities/InfoSections.ts"
import * as InventoryItems from "../../src/catalog/entities/InventoryItems.ts"
import * as Ribbons from "../../src/catalog/entities/Ribbons.ts"
import { Filter } from "../../src/data/Filter.ts"
import * as G from "../../src/http/guard.ts"
import type { PlatformClient } from "../../src/http/PlatformClient.ts"
import type { PlatformRequest } from "../../src/http/PlatformRequest.ts"
import { DEFAULT_LOCATION_ID, DEMO_BRANDS, DEMO_RIBBONS, seedId } from "../../src/server/catalog/entities/index.ts"
import { DEMO_MEMBER_EMAIL, DEMO_MEMBER_PASSWORD } from "../../src/server/accounts/seed.ts"
import { Session } from "../../src/session/Session.ts"
import { asAdmin, asVisitor } from "../data/support.ts"
import { domainOf, loggedSince, logMark } from "../support/eventLog.ts"
import { dev, LocalPlatform, settings, stats, withSite } from "../support/platform.ts"
import { layerWithCore } from "../../src/server/LocalPlatform.ts"


/** Runs a call as the demo member (a signed-in session, not an API key). */
const asMember = <A, E>(effect: Effect.Effect<A, E, PlatformClient>) =>
  withSite(Effect.gen(function*() {
    const session = yield* Session
    const result = yield* session.login({ email: DEMO_MEMBER_EMAIL, password: DEMO_MEMBER_PASSWORD })
    if (result.loginState !== "SUCCESS") throw new Error(`login: ${JSON.stringify(result)}`)
    yield* session.completeDirectLogin(result.data.sessionToken)
    return yield* effect
  }))

/** A request sitefx's functions would refuse before sending: straight to the platform, its answer or refusal as CatalogError. */
const raw = (request: PlatformRequest) => withClient((client) => call(client, request, G.unknown))

/** The CatalogError an effect fails with. */
const refusal = <A, E, R>(effect: Effect.Effect<A, E, R>) =>
  Effect.map(Effect.flip(effect), (e) => {
    assert.instanceOf(e, CatalogError)
    return e as unknown as CatalogError
  })

let counter = 0
const unique = (prefix: string) => `${prefix} ${Date.now().toString(36).slice(-5)}${counter++}`

const names = (items: ReadonlyArray<{ readonly name?: string }>) => items.map((i) => i.name)

describe("catalog v3 entities through sitefx", () => {
  it.layer(layerWithCore({}))((it) => {
    it.effect("the demo seed: five brands, four ribbons, two info sections, the gift wrap modifier; seeding again changes nothing", () =>
      Effect.gen(function*() {
        const brands = yield* asVisitor(Brands.query().in("id", DEMO_BRANDS.map((_, i) => seedId(1, i + 1))).ascending("name").find)
        assert.deepStrictEqual(names(brands.items), [...DEMO_BRANDS].sort())
        assert.isTrue(brands.items.every((b) => b.revision === "1" && b.createdDate === "2026-01-01T00:00:00.000Z"))
        const ribbons = yield* asVisitor(Ribbons.query().in("name", [...DEMO_RIBBONS]).find)
        assert.sameMembers(names(ribbons.items), [...DEMO_RIBBONS])
        const care = yield* asVisitor(InfoSections.get(seedId(3, 2)))
        assert.strictEqual(care.title, "Care instructions")
        assert.include(care.plainDescription ?? "", "Machine wash cold")
        assert.strictEqual(care.description?.nodes?.length, 2)
        const wrap = yield* asVisitor(Customizations.get(seedId(4, 1)))
        assert.strictEqual(wrap.name, "Gift wrap")
        assert.strictEqual(wrap.customizationType, "MODIFIER")
        assert.deepStrictEqual(wrap.choicesSettings?.choices?.map((c) => [c.name, c.defaultAddedPrice]), [["Recycled paper", "3"], ["Linen wrap", "6.5"]])

        const before = yield* asVisitor(Effect.all([Brands.count(), Ribbons.count(), InfoSections.count(), Customizations.count()]))
        yield* dev("/seed", { body: { seed: "demo" } })
        const after = yield* asVisitor(Effect.all([Brands.count(), Ribbons.count(), InfoSections.count(), Customizations.count()]))
        assert.deepStrictEqual(after, before)
        assert.strictEqual((yield* asVisitor(Brands.get(seedId(1, 1)))).revision, "1")
      }))

    it.effect("brands: create, get, update with its revision, a stale revision refused, remove", () =>
      Effect.gen(function*() {
        const name = unique("Heron")
        const created = yield* asAdmin(Brands.create({ name }))
        assert.strictEqual(created.name, name)
        assert.strictEqual(created.revision, "1")
        assert.isString(created.id)
        assert.isTrue(!Number.isNaN(Date.parse(created.createdDate ?? "")))
        const got = yield* asVisitor(Brands.get(created.id!, { fields: ["ASSIGNED_PRODUCTS_COUNT"] }))
        assert.deepStrictEqual(got, { ...created, assignedProductsCount: 0 })

        const renamed = yield* asAdmin(Brands.update({ id: created.id!, revision: "1", name: `${name} & Sons` }))
        assert.strictEqual(renamed.revision, "2")
        assert.strictEqual(renamed.createdDate, created.createdDate)
        const stale = yield* refusal(asAdmin(Brands.update({ id: created.id!, revision: "1", name: "Lost update" })))
        assert.strictEqual(stale.code, "REVISION_MISMATCH")
        assert.strictEqual(stale.status, 409)
        assert.deepStrictEqual(stale.data, { currentRevision: "2" })
        assert.strictEqual((yield* asVisitor(Brands.get(created.id!))).name, `${name} & Sons`)

        yield* asAdmin(Brands.remove(created.id!))
        const gone = yield* refusal(asVisitor(Brands.get(created.id!)))
        assert.strictEqual(gone.code, "BRAND_NOT_FOUND")
        assert.strictEqual(gone.status, 404)
        assert.strictEqual((yield* refusal(asAdmin(Brands.remove(created.id!)))).code, "BRAND_NOT_FOUND")
        assert.strictEqual((yield* refusal(asAdmin(Brands.update({ id: created.id!, revision: "2", name: "x" })))).code, "BRAND_NOT_FOUND")
      }))

    it.effect("brands: names are unique without case or surrounding spaces; get-or-create finds or makes one", () =>
      Effect.gen(function*() {
        const taken = yield* refusal(asAdmin(Brands.create({ name: " northwind " })))
        assert.strictEqual(taken.code, "ALREADY_EXISTS")
        assert.strictEqual(taken.status, 409)
        const other = yield* asAdmin(Brands.create({ name: unique("Osprey") }))
        assert.strictEqual((yield* refusal(asAdmin(Brands.update({ id: other.id!, revision: "1", name: "KESTREL" })))).code, "ALREADY_EXISTS")

        assert.strictEqual((yield* asAdmin(Brands.getOrCreate("LUMEN"))).id, seedId(1, 5))
        const fresh = unique("Wren")
        const made = yield* asAdmin(Brands.getOrCreate(fresh, { fields: ["ASSIGNED_PRODUCTS_COUNT"] }))
        assert.strictEqual(made.name, fresh)
        assert.strictEqual(made.assignedProductsCount, 0)
        assert.strictEqual((yield* asAdmin(Brands.getOrCreate(fresh))).id, made.id)
      }))

    it.effect("brands in bulk: every item's fate in request order, entities only when asked for", () =>
      Effect.gen(function*() {
        const a = unique("Bulk A")
        const created = yield* asAdmin(Brands.bulkCreate([{ name: a }, { name: "Fjord Supply" }, { name: unique("Bulk B") }]))
        assert.deepStrictEqual(created.bulkActionMetadata, { totalSuccesses: 2, totalFailures: 1, undetailedFailures: 0 })
        assert.deepStrictEqual(created.results.map((r) => [r.itemMetadata.originalIndex, r.itemMetadata.success]), [[0, true], [1, false], [2, true]])
        assert.strictEqual(created.results[1]?.itemMetadata.error?.code, "ALREADY_EXISTS")
        assert.isTrue(created.results.every((r) => r.item === undefined))
        const ids = created.results.filter((r) => r.itemMetadata.success).map((r) => r.itemMetadata.id!)

        const withEntities = yield* asAdmin(Brands.bulkCreate([{ name: unique("Bulk C") }], { returnEntity: true }))
        assert.strictEqual(withEntities.results[0]?.item?.revision, "1")

        const updated = yield* asAdmin(Brands.bulkUpdate([
          { brand: { id: ids[0]!, revision: "1", name: `${a} renamed` } },
          { brand: { id: ids[1]!, revision: "7", name: "stale" } },
          { brand: { id: "no-such-brand", revision: "1", name: "x" } },
          { brand: { id: ids[1]!, revision: "1", name: "ignored by the mask" }, fieldMask: ["revision"] }
        ], { returnEntity: true, fields: ["ASSIGNED_PRODUCTS_COUNT"] }))
        assert.deepStrictEqual(updated.results.map((r) => r.itemMetadata.error?.code ?? "ok"), ["ok", "REVISION_MISMATCH", "BRAND_NOT_FOUND", "ok"])
        assert.strictEqual(updated.results[0]?.item?.name, `${a} renamed`)
        assert.strictEqual(updated.results[0]?.item?.assignedProductsCount, 0)
        assert.notStrictEqual(updated.results[3]?.item?.name, "ignored by the mask")
        assert.strictEqual(updated.results[3]?.item?.revision, "2")

        const both = yield* asAdmin(Brands.bulkGetOrCreate(["northwind", `${a} renamed`, unique("Bulk D")]))
        assert.deepStrictEqual(both.results.slice(0, 2).map((r) => r.item?.id), [seedId(1, 1), ids[0]])
        assert.isTrue(both.results[2]?.itemMetadata.success)

        const removed = yield* asAdmin(Brands.bulkRemove([ids[0]!, "no-such-brand", ids[1]!]))
        assert.deepStrictEqual(removed.results.map((r) => [r.itemMetadata.id, r.itemMetadata.success]), [[ids[0], true], ["no-such-brand", false], [ids[1], true]])
        assert.deepStrictEqual(removed.bulkActionMetadata, { totalSuccesses: 2, totalFailures: 1, undetailedFailures: 0 })
      }))

    it.effect("queries: data filters, sorts, cursors forward and back, pages and streams, counts", () =>
      Effect.gen(function*() {
        const prefix = unique("Q")
        const made = yield* asAdmin(Brands.bulkCreate(["e", "b", "g", "a", "f", "c", "d"].map((n) => ({ name: `${prefix} ${n}` })), { returnEntity: true }))
        assert.strictEqual(made.bulkActionMetadata.totalSuccesses, 7)
        const byName = Brands.query().startsWith("name", prefix).ascending("name").limit(3)

        const first = yield* asVisitor(byName.find)
        assert.deepStrictEqual(names(first.items), ["a", "b", "c"].map((n) => `${prefix} ${n}`))
        assert.isTrue(first.hasNext)
        assert.isFalse(first.hasPrev)
        const second = yield* asVisitor(first.next)
        assert.deepStrictEqual(names(second.items), ["d", "e", "f"].map((n) => `${prefix} ${n}`))
        assert.isTrue(second.hasPrev)
        // a brand written between pages does not shift the pages
        yield* asAdmin(Brands.create({ name: `${prefix} 0` }))
        const third = yield* asVisitor(second.next)
        assert.deepStrictEqual(names(third.items), [`${prefix} g`])
        assert.isFalse(third.hasNext)
        assert.strictEqual((yield* refusal(asVisitor(third.next))).code, "INVALID_ARGUMENT")
        const back = yield* asVisitor(third.prev)
        assert.deepStrictEqual(names(back.items), ["d", "e", "f"].map((n) => `${prefix} ${n}`))
        const start = yield* asVisitor(back.prev)
        assert.deepStrictEqual(names(start.items), ["a", "b", "c"].map((n) => `${prefix} ${n}`))
        assert.isTrue(start.hasPrev, "the brand written meanwhile sorts before them")

        const resumed = yield* asVisitor(Brands.query().skipTo(first.cursors.next!).limit(3).find)
        assert.deepStrictEqual(names(resumed.items), names(second.items))

        const descending = yield* asVisitor(Stream.runCollect(Brands.query().startsWith("name", prefix).descending("name").limit(2).stream))
        assert.deepStrictEqual(names(descending), ["g", "f", "e", "d", "c", "b", "a", "0"].map((n) => `${prefix} ${n}`))
        const pages = yield* asVisitor(Stream.runCollect(Brands.query().startsWith("name", prefix).limit(3).pages))
        assert.deepStrictEqual(pages.map((p) => p.items.length), [3, 3, 2])
        const all = yield* asVisitor(Stream.runCollect(Brands.query().stream))
        assert.strictEqual(all.length, yield* asVisitor(Brands.count()))

        const filtered = yield* asVisitor(
          Brands.query().where(Filter.startsWith("name", prefix).or(Filter.eq("id", seedId(1, 3)))).in("name", [`${prefix} a`, "Fjord Supply", `${prefix} z`]).ascending("name").find
        )
        assert.deepStrictEqual(names(filtered.items), ["Fjord Supply", `${prefix} a`])
        const recent = yield* asVisitor(Brands.query().gt("createdDate", new Date("2026-01-02T00:00:00.000Z")).startsWith("name", prefix).find)
        assert.strictEqual(recent.items.length, 8)
        const seededOnly = yield* asVisitor(Brands.query().le("_createdDate", new Date("2026-01-01T00:00:00.000Z")).find)
        assert.sameMembers(names(seededOnly.items), [...DEMO_BRANDS])
        assert.strictEqual(yield* asVisitor(Brands.count(Filter.startsWith("name", prefix).ne("name", `${prefix} 0`))), 7)
        assert.strictEqual(yield* asVisitor(Brands.count({ name: { $in: ["Kestrel", "Lumen"] } })), 2)
      }))

    it.effect("query refusals: the client's before sending, the platform's for hand-made requests", () =>
      Effect.gen(function*() {
        const before = (yield* stats).requests
        const badLimit = yield* refusal(asVisitor(Brands.query().limit(301).find))
        assert.strictEqual(badLimit.code, "INVALID_ARGUMENT")
        assert.strictEqual(badLimit.field, ".limit")
        assert.strictEqual((yield* refusal(asVisitor(Ribbons.query().limit(101).find))).code, "INVALID_ARGUMENT")
        assert.strictEqual((yield* refusal(asVisitor(Brands.query().eq(7 as never, "x").find))).code, "INVALID_ARGUMENT")
        assert.strictEqual((yield* refusal(asVisitor(Brands.query({ fields: ["NOPE" as never] }).find))).field, "fields")
        assert.strictEqual((yield* refusal(asVisitor(Brands.query().skipTo("").find))).code, "INVALID_ARGUMENT")
        assert.strictEqual((yield* stats).requests - before, 1, "only the stats call itself")

        const tooMany = yield* refusal(asVisitor(raw({ method: "POST", path: "/stores/v3/brands/query", payload: { query: { cursorPaging: { limit: 301 } } } })))
        assert.strictEqual(tooMany.status, 400)
        assert.strictEqual(tooMany.fieldViolations?.[0]?.field, "query.cursorPaging.limit")
        const forged = yield* refusal(asVisitor(raw({ method: "POST", path: "/stores/v3/brands/query", payload: { query: { cursorPaging: { cursor: "bm90LWEtY3Vyc29y" } } } })))
        assert.strictEqual(forged.code, "INVALID_CURSOR")
        const ribbonCursor = (yield* asVisitor(Ribbons.query().limit(1).find)).cursors.next!
        assert.strictEqual((yield* refusal(asVisitor(Brands.query().skipTo(ribbonCursor).find))).code, "INVALID_CURSOR")
        const real = JSON.parse(Buffer.from(ribbonCursor, "base64url").toString()) as Record<string, unknown>
        const greedy = Buffer.from(JSON.stringify({ ...real, l: 1_000_000_000 })).toString("base64url")
        const huge = yield* refusal(asVisitor(raw({ method: "POST", path: "/stores/v3/ribbons/query", payload: { query: { cursorPaging: { cursor: greedy } } } })))
        assert.strictEqual(huge.fieldViolations?.[0]?.field, "query.cursorPaging.limit")
        const regex = yield* refusal(asVisitor(raw({ method: "POST", path: "/stores/v3/brands/query", payload: { query: { filter: { name: { $regex: "." } } } } })))
        assert.strictEqual(regex.status, 400)
        const deep = yield* refusal(asVisitor(raw({ method: "POST", path: "/stores/v3/brands/count", payload: { filter: JSON.parse(`${"{\"$and\":[".repeat(60)}{}${"]}".repeat(60)}`) } })))
        assert.strictEqual(deep.status, 400)
        const badSort = yield* refusal(asVisitor(raw({ method: "POST", path: "/stores/v3/brands/query", payload: { query: { sort: [{ fieldName: "a..b" }] } } })))
        assert.strictEqual(badSort.status, 400)
        const notJson = yield* refusal(asVisitor(raw({ method: "POST", path: "/stores/v3/brands/query", json: "{nope" })))
        assert.strictEqual(notJson.status, 400)
      }))

    it.effect("writes are refused to visitors and members, and to a site without a store; reads serve everyone on any store", () =>
      Effect.gen(function*() {
        const visitor = yield* refusal(asVisitor(Brands.create({ name: unique("Visitor brand") })))
        assert.strictEqual(visitor.status, 403)
        assert.strictEqual(visitor.code, "PERMISSION_DENIED")
        const member = yield* refusal(asMember(Ribbons.getOrCreate(unique("Member ribbon"))))
        assert.strictEqual(member.status, 403)
        for (const write of [
          InfoSections.remove(seedId(3, 1)),
          Customizations.addChoices(seedId(4, 1), [{ name: "Foil" }]),
          InventoryItems.create({ variantId: "v", productId: "p", quantity: 1 }),
          Brands.bulkRemove([seedId(1, 1)])
        ]) {
          assert.strictEqual((yield* refusal(asMember(write))).status, 403)
          assert.strictEqual((yield* refusal(asVisitor(write))).status, 403)
        }
        assert.strictEqual((yield* asMember(Brands.get(seedId(1, 1)))).name, "Northwind")
        assert.strictEqual((yield* asVisitor(Brands.get(seedId(1, 1)))).revision, "1")

        yield* settings({ catalogVersion: "V3_CATALOG" })
        assert.strictEqual((yield* asVisitor(Ribbons.get(seedId(2, 1)))).name, "New")
        yield* settings({ catalogVersion: "STORES_NOT_INSTALLED" })
        const none = yield* refusal(asAdmin(Brands.query().find))
        assert.strictEqual(none.code, "STORES_NOT_INSTALLED")
        const platform = yield* LocalPlatform
        const direct = yield* Effect.promise(() => fetch(`${platform.url}/stores/v3/brands/count`, { method: "POST", body: "{}" }))
        assert.strictEqual(direct.status, 428)
        yield* settings({ catalogVersion: "V1_CATALOG" })
      }))

    it.effect("writes checked before sending, and checked again by the platform: 400 naming the field", () =>
      Effect.gen(function*() {
        const before = (yield* stats).requests
        const checks = yield* Effect.all([
          refusal(asAdmin(Brands.create({ name: "" }))),
          refusal(asAdmin(Brands.create({ name: "x".repeat(51) }))),
          refusal(asAdmin(Brands.create({ name: "   " }))),
          refusal(asAdmin(Brands.create(null as never))),
          refusal(asAdmin(Brands.update({ id: "b", revision: "latest", name: "x" }))),
          refusal(asAdmin(Brands.bulkCreate([]))),
          refusal(asAdmin(Brands.bulkRemove(Array.from({ length: 101 }, (_, i) => `b${i}`)))),
          refusal(asAdmin(Ribbons.create({ name: "x".repeat(31) }))),
          refusal(asAdmin(InfoSections.create({ uniqueName: "u", title: "" }))),
          refusal(asAdmin(Customizations.create({ name: "Size", customizationType: "PRODUCT_OPTION", customizationRenderType: "TEXT_CHOICES" }))),
          refusal(asAdmin(Customizations.create({ name: "C", customizationType: "MODIFIER", customizationRenderType: "SWATCH_CHOICES", choicesSettings: { choices: [{ name: "Red", choiceType: "CHOICE_TEXT" }] } }))),
          refusal(asAdmin(InventoryItems.create({ variantId: "v", productId: "p", quantity: 100_000 }))),
          refusal(asAdmin(InventoryItems.bulkIncrement([{ inventoryItemId: "i", incrementBy: 0 }]))),
          refusal(asAdmin(Brands.get("")))
        ])
        assert.isTrue(checks.every((e) => e.code === "INVALID_ARGUMENT"), JSON.stringify(checks.map((e) => e.message)))
        assert.deepStrictEqual(checks.map((e) => e.field), [
          "brand.name",
          "brand.name",
          "brand.name",
          "brand",
          "brand.revision",
          "brands",
          "ids",
          "ribbon.name",
          "infoSection.title",
          "customization.choicesSettings.choices",
          "customization.choicesSettings.choices[0].choiceType",
          "inventoryItem.quantity",
          "incrementData[0].incrementBy",
          "id"
        ])
        assert.strictEqual((yield* stats).requests - before, 1, "only the stats call itself")

        const post = (path: string, payload: Record<string, unknown>) => refusal(asAdmin(raw({ method: "POST", path, payload })))
        const long = yield* post("/stores/v3/brands", { brand: { name: "x".repeat(51) } })
        assert.strictEqual(long.status, 400)
        assert.strictEqual(long.fieldViolations?.[0]?.field, "brand.name")
        const spaces = yield* post("/stores/v3/ribbons", { ribbon: { name: "   " } })
        assert.strictEqual(spaces.fieldViolations?.[0]?.ruleName, "ONLY_SPACES_STRING_ERROR")
        const missing = yield* post("/stores/v3/brands", {})
        assert.strictEqual(missing.fieldViolations?.[0]?.field, "brand")
        const noRevision = yield* refusal(asAdmin(raw({ method: "PATCH", path: `/stores/v3/brands/${seedId(1, 1)}`, payload: { brand: { name: "x" } } })))
        assert.strictEqual(noRevision.fieldViolations?.[0]?.ruleName, "REQUIRED_FIELD")
        assert.strictEqual(noRevision.fieldViolations?.[0]?.field, "brand.revision")
        const wrongType = yield* post("/stores/v3/inventory-items", { inventoryItem: { variantId: "v", productId: "p", quantity: "many" } })
        assert.strictEqual(wrongType.fieldViolations?.[0]?.field, "inventoryItem.quantity")
        const fraction = yield* post("/stores/v3/bulk/inventory-items/increment", { incrementData: [{ inventoryItemId: "i", incrementBy: 1.5 }] })
        assert.strictEqual(fraction.status, 400)
        const tooMany = yield* post("/stores/v3/bulk/brands/create", { brands: Array.from({ length: 101 }, (_, i) => ({ name: `n${i}` })) })
        assert.strictEqual(tooMany.fieldViolations?.[0]?.field, "brands")
        const price = yield* post("/stores/v3/customizations", {
          customization: { name: "Wrap", customizationType: "MODIFIER", customizationRenderType: "TEXT_CHOICES", choicesSettings: { choices: [{ name: "A", defaultAddedPrice: "two" }] } }
        })
        assert.strictEqual(price.fieldViolations?.[0]?.field, "customization.choicesSettings.choices.0.defaultAddedPrice")
        const optionFreeText = yield* post("/stores/v3/customizations", {
          customization: { name: "Note", customizationType: "PRODUCT_OPTION", customizationRenderType: "FREE_TEXT", freeTextInput: { title: "Note" } }
        })
        assert.strictEqual(optionFreeText.fieldViolations?.[0]?.field, "customization.customizationRenderType")
        const swatch = yield* post("/stores/v3/customizations", {
          customization: { name: "Shade", customizationType: "PRODUCT_OPTION", customizationRenderType: "SWATCH_CHOICES", choicesSettings: { choices: [{ name: "Red", colorCode: "red" }] } }
        })
        assert.strictEqual(swatch.fieldViolations?.[0]?.ruleName, "INVALID_CHOICE_VALUE")
        const paragraph = { type: "PARAGRAPH", nodes: [{ type: "TEXT", textData: { text: "x".repeat(9000) } }] }
        const essay = yield* post("/stores/v3/info-sections", { infoSection: { uniqueName: unique("essay"), title: "Essay", description: { nodes: [paragraph, paragraph] } } })
        assert.strictEqual(essay.fieldViolations?.[0]?.field, "infoSection.description")
        const both = yield* post("/stores/v3/inventory-items", { inventoryItem: { variantId: "v", productId: "p", quantity: 1, inStock: true } })
        assert.strictEqual(both.status, 400)
      }))

    it.effect("ribbons: every call", () =>
      Effect.gen(function*() {
        const name = unique("Hot")
        const created = yield* asAdmin(Ribbons.create({ name }))
        assert.strictEqual((yield* asVisitor(Ribbons.get(created.id!, { fields: ["ASSIGNED_PRODUCT_COUNT"] }))).assignedProductCount, 0)
        const updated = yield* asAdmin(Ribbons.update({ id: created.id!, revision: "1", name: `${name}!` }, { fields: ["ASSIGNED_PRODUCT_COUNT"] }))
        assert.deepStrictEqual([updated.name, updated.revision, updated.assignedProductCount], [`${name}!`, "2", 0])
        assert.strictEqual((yield* refusal(asAdmin(Ribbons.update({ id: created.id!, revision: "1", name: "x" })))).code, "REVISION_MISMATCH")
        const page = yield* asVisitor(Ribbons.query().eq("name", `${name}!`).find)
        assert.deepStrictEqual(page.items.map((r) => r.id), [created.id])
        assert.strictEqual(yield* asVisitor(Ribbons.count({ name: `${name}!` })), 1)
        assert.strictEqual((yield* asAdmin(Ribbons.getOrCreate("BESTSELLER"))).id, seedId(2, 4))
        const bulk = yield* asAdmin(Ribbons.bulkCreate([{ name: unique("R1") }, { name: "Limited" }], { returnEntity: true }))
        assert.deepStrictEqual(bulk.results.map((r) => r.itemMetadata.success), [true, false])
        const id = bulk.results[0]!.item!.id!
        const got = yield* asAdmin(Ribbons.bulkGetOrCreate(["limited", bulk.results[0]!.item!.name!]))
        assert.deepStrictEqual(got.results.map((r) => r.item?.id), [seedId(2, 3), id])
        const masked = yield* asAdmin(Ribbons.bulkUpdate([{ ribbon: { id, revision: "1", name: unique("R2") }, fieldMask: ["name"] }], { returnEntity: true }))
        assert.strictEqual(masked.results[0]?.item?.revision, "2")
        yield* asAdmin(Ribbons.remove(created.id!))
        const removed = yield* asAdmin(Ribbons.bulkRemove([id, created.id!]))
        assert.deepStrictEqual(removed.results.map((r) => r.itemMetadata.error?.code ?? "ok"), ["ok", "RIBBON_NOT_FOUND"])
      }))

    it.effect("info sections: every call; HTML and rich content each give the other", () =>
      Effect.gen(function*() {
        const uniqueName = unique("returns").replace(/ /g, "-")
        const created = yield* asAdmin(InfoSections.create({ uniqueName, title: "Returns", plainDescription: "<p>30 days &amp; free.</p><ul><li>Unused</li><li>Tagged</li></ul>" }))
        assert.deepStrictEqual(created.description?.nodes?.map((n) => ((n["nodes"] as Array<any>)[0].textData.text)), ["30 days & free.", "Unused", "Tagged"])
        const rich = { nodes: [{ type: "PARAGRAPH", id: "a", nodes: [{ type: "TEXT", id: "", nodes: [], textData: { text: "Fits <true> to size", decorations: [] } }] }] }
        const updated = yield* asAdmin(InfoSections.update({ id: created.id!, revision: "1", description: rich }, { fields: ["ASSIGNED_PRODUCTS_COUNT"] }))
        assert.strictEqual(updated.plainDescription, "<p>Fits &lt;true&gt; to size</p>")
        assert.strictEqual(updated.title, "Returns")
        assert.strictEqual(updated.assignedProductsCount, 0)
        const { assignedProductsCount: _, ...stored } = updated
        assert.deepStrictEqual(yield* asVisitor(InfoSections.get(created.id!)), stored)

        const taken = yield* refusal(asAdmin(InfoSections.create({ uniqueName: uniqueName.toUpperCase(), title: "Again" })))
        assert.strictEqual(taken.code, "ALREADY_EXISTS")
        assert.strictEqual((yield* asAdmin(InfoSections.getOrCreate({ uniqueName }))).id, created.id)
        assert.strictEqual((yield* asAdmin(InfoSections.getOrCreate({ id: seedId(3, 1) }))).title, "Shipping & returns")
        const needsTitle = yield* refusal(asAdmin(InfoSections.getOrCreate({ uniqueName: unique("nothing-yet") })))
        assert.strictEqual(needsTitle.fieldViolations?.[0]?.field, "infoSection.title")
        assert.strictEqual((yield* refusal(asAdmin(InfoSections.getOrCreate({ id: "no-such-section" })))).code, "INFO_SECTION_NOT_FOUND")

        const page = yield* asVisitor(InfoSections.query().eq("uniqueName", uniqueName).find)
        assert.deepStrictEqual(page.items.map((s) => s.id), [created.id])
        assert.strictEqual(yield* asVisitor(InfoSections.count(Filter.eq("id", created.id!))), 1)
        const bulk = yield* asAdmin(InfoSections.bulkCreate([{ uniqueName: unique("b1").replace(/ /g, "-"), title: "B1" }, { uniqueName, title: "dup" }], { returnEntity: true }))
        assert.deepStrictEqual(bulk.results.map((r) => r.itemMetadata.success), [true, false])
        const b1 = bulk.results[0]!.item!
        const gotOrMade = yield* asAdmin(InfoSections.bulkGetOrCreate([{ uniqueName: b1.uniqueName! }, { uniqueName: unique("b2").replace(/ /g, "-"), title: "B2" }, { uniqueName: unique("b3") }]))
        assert.deepStrictEqual(gotOrMade.results.map((r) => r.itemMetadata.success), [true, true, false])
        assert.strictEqual(gotOrMade.results[0]?.item?.id, b1.id)
        const bulkUpdated = yield* asAdmin(InfoSections.bulkUpdate([{ infoSection: { id: b1.id!, revision: "1", title: "B one", uniqueName: "not-applied" }, fieldMask: ["title"] }], { returnEntity: true }))
        assert.deepStrictEqual([bulkUpdated.results[0]?.item?.title, bulkUpdated.results[0]?.item?.uniqueName], ["B one", b1.uniqueName])
        yield* asAdmin(InfoSections.remove(created.id!))
        const removed = yield* asAdmin(InfoSections.bulkRemove([b1.id!, created.id!]))
        assert.deepStrictEqual(removed.results.map((r) => r.itemMetadata.success), [true, false])
      }))

    it.effect("customizations: create, get, update, query, count, bulk, and every choices call", () =>
      Effect.gen(function*() {
        const name = unique("Colour")
        const created = yield* asAdmin(Customizations.create({
          name,
          customizationType: "PRODUCT_OPTION",
          customizationRenderType: "SWATCH_CHOICES",
          choicesSettings: { choices: [{ name: "Red", colorCode: "#ff0000" }, { name: "Blue", colorCode: "#00f" }] }
        }))
        assert.deepStrictEqual(created.choicesSettings?.choices?.map((c) => [c.name, c.choiceType, c.colorCode, c.key]), [
          ["Red", "ONE_COLOR", "#ff0000", "red"],
          ["Blue", "ONE_COLOR", "#00f", "blue"]
        ])
        assert.isUndefined(created.modifierSettings)
        const red = created.choicesSettings!.choices![0]!.id!
        const blue = created.choicesSettings!.choices![1]!.id!

        const added = yield* asAdmin(Customizations.addChoices(created.id!, [{ name: "Green", colorCode: "#0f0" }], { fields: ["ASSIGNED_PRODUCTS_COUNT"] }))
        assert.deepStrictEqual(added.choicesSettings?.choices?.map((c) => c.name), ["Red", "Blue", "Green"])
        assert.strictEqual(added.revision, "2")
        assert.strictEqual(added.assignedProductsCount, 0)
        const green = added.choicesSettings!.choices![2]!.id!
        const dup = yield* refusal(asAdmin(Customizations.addChoices(created.id!, [{ name: "RED", colorCode: "#f00" }])))
        assert.strictEqual(dup.fieldViolations?.[0]?.ruleName, "DUPLICATE_CHOICE_NAME")
        const wrongType = yield* refusal(asAdmin(raw({ method: "POST", path: `/stores/v3/customizations/${created.id}/add-choices`, payload: { choices: [{ name: "Text", choiceType: "CHOICE_TEXT" }] } })))
        assert.strictEqual(wrongType.fieldViolations?.[0]?.ruleName, "INVALID_CHOICE_TYPE")

        const reordered = yield* asAdmin(Customizations.reorderChoices(created.id!, "2", [green, blue, red]))
        assert.deepStrictEqual(reordered.choicesSettings?.choices?.map((c) => c.name), ["Green", "Blue", "Red"])
        const mismatch = yield* refusal(asAdmin(Customizations.reorderChoices(created.id!, "3", [green, green])))
        assert.strictEqual(mismatch.code, "CHOICE_IDS_MISMATCH")
        assert.deepStrictEqual(mismatch.data, { missingIds: [blue, red], extraIds: [green] })
        assert.strictEqual((yield* refusal(asAdmin(Customizations.reorderChoices(created.id!, "2", [green, blue, red])))).code, "REVISION_MISMATCH")

        const renamedChoice = yield* asAdmin(Customizations.updateChoices(created.id!, "3", [
          { choice: { id: blue, name: "Navy", colorCode: "#000080" } },
          { choice: { id: red, name: "not applied", colorCode: "#aa0000" }, fieldMask: ["colorCode"] }
        ]))
        assert.deepStrictEqual(renamedChoice.choicesSettings?.choices?.map((c) => [c.id, c.name, c.colorCode]), [
          [green, "Green", "#0f0"],
          [blue, "Navy", "#000080"],
          [red, "Red", "#aa0000"]
        ])
        const unknownChoice = yield* refusal(asAdmin(Customizations.updateChoices(created.id!, "4", [{ choice: { id: "no-such-choice", name: "x" } }])))
        assert.strictEqual(unknownChoice.code, "CHOICE_NOT_FOUND")

        const removed = yield* asAdmin(Customizations.removeChoices(created.id!, [green], { revision: "4" }))
        assert.deepStrictEqual(removed.choicesSettings?.choices?.map((c) => c.name), ["Navy", "Red"])
        const lastOnes = yield* refusal(asAdmin(Customizations.removeChoices(created.id!, [blue, red])))
        assert.strictEqual(lastOnes.fieldViolations?.[0]?.ruleName, "NOT_ALLOWED_CUSTOMIZATION_WITHOUT_CHOICES")
        const set = yield* asAdmin(Customizations.setChoices(created.id!, [{ name: "Black", colorCode: "#000" }]))
        assert.deepStrictEqual(set.choicesSettings?.choices?.map((c) => c.name), ["Black"])
        assert.strictEqual(set.revision, "6")

        const renamed = yield* asAdmin(Customizations.update({ id: created.id!, revision: "6", name: `${name}s` }))
        assert.deepStrictEqual([renamed.name, renamed.key, renamed.revision], [`${name}s`, `${name}s`.toLowerCase(), "7"])
        const immutable = yield* refusal(asAdmin(raw({ method: "PATCH", path: `/stores/v3/customizations/${created.id}`, payload: { customization: { revision: "7", customizationType: "MODIFIER" } } })))
        assert.strictEqual(immutable.fieldViolations?.[0]?.field, "customization.customizationType")

        const engraving = yield* asAdmin(Customizations.create({
          name: unique("Engraving"),
          customizationType: "MODIFIER",
          customizationRenderType: "FREE_TEXT",
          freeTextInput: { title: "Your words", maxCharCount: 30, defaultAddedPrice: "4.5" }
        }))
        assert.deepStrictEqual(engraving.freeTextInput, { minCharCount: 0, maxCharCount: 30, defaultAddedPrice: "4.5", title: "Your words", key: "your words" })
        assert.deepStrictEqual(engraving.modifierSettings, {})
        const longer = yield* asAdmin(Customizations.update({ id: engraving.id!, revision: "1", freeTextInput: { maxCharCount: 60 } }))
        assert.strictEqual(longer.freeTextInput?.maxCharCount, 60)
        assert.strictEqual(longer.freeTextInput?.title, "Your words")
        assert.strictEqual((yield* refusal(asAdmin(Customizations.addChoices(engraving.id!, [{ name: "A" }])))).fieldViolations?.[0]?.ruleName, "INVALID_CHOICE_TYPE")

        const modifiers = yield* asVisitor(Customizations.query({ fields: ["ASSIGNED_PRODUCTS_COUNT"] }).eq("customizationType", "MODIFIER").ascending("name").find)
        assert.includeMembers(modifiers.items.map((c) => c.id), [seedId(4, 1), engraving.id])
        assert.isTrue(modifiers.items.every((c) => c.assignedProductsCount === 0))
        assert.strictEqual(yield* asVisitor(Customizations.count({ customizationRenderType: "FREE_TEXT", id: engraving.id })), 1)

        const bulk = yield* asAdmin(Customizations.bulkCreate([
          { name: unique("Fit"), customizationType: "PRODUCT_OPTION", customizationRenderType: "TEXT_CHOICES", choicesSettings: { choices: [{ name: "Slim" }, { name: "slim" }] } },
          { name: unique("Length"), customizationType: "PRODUCT_OPTION", customizationRenderType: "TEXT_CHOICES", choicesSettings: { choices: [{ name: "Short" }] } }
        ], { returnEntity: true }))
        assert.deepStrictEqual(bulk.results.map((r) => r.itemMetadata.success), [false, true])
        assert.strictEqual(bulk.results[0]?.itemMetadata.error?.code, "VALIDATION_ERROR")
        const length = bulk.results[1]!.customization!
        const bulkAdded = yield* asAdmin(Customizations.bulkAddChoices([
          { customizationId: length.id!, choices: [{ name: "Long" }] },
          { customizationId: "no-such-customization", choices: [{ name: "x" }] }
        ], { returnEntity: true }))
        assert.deepStrictEqual(bulkAdded.results.map((r) => r.itemMetadata.error?.code ?? "ok"), ["ok", "CUSTOMIZATION_NOT_FOUND"])
        assert.deepStrictEqual(bulkAdded.results[0]?.customization?.choicesSettings?.choices?.map((c) => c.name), ["Short", "Long"])
        const bulkUpdated = yield* asAdmin(Customizations.bulkUpdate([{ customization: { id: length.id!, revision: "2", name: unique("Lengths") } }], { returnEntity: true }))
        assert.strictEqual(bulkUpdated.results[0]?.customization?.revision, "3")

        yield* asAdmin(Customizations.remove(length.id!))
        assert.strictEqual((yield* refusal(asVisitor(Customizations.get(length.id!)))).code, "CUSTOMIZATION_NOT_FOUND")
      }))

    it.effect("inventory items: counted or in-stock, availability, preorders, increments and decrements by id and by variant", () =>
      Effect.gen(function*() {
        const productId = unique("prod").replace(/ /g, "-")
        const counted = yield* asAdmin(InventoryItems.create({ variantId: "red-s", productId, quantity: 5 }))
        assert.deepStrictEqual(
          [counted.trackQuantity, counted.quantity, counted.inStock, counted.availabilityStatus, counted.locationId],
          [true, 5, undefined, "IN_STOCK", DEFAULT_LOCATION_ID]
        )
        const flagged = yield* asAdmin(InventoryItems.create({ variantId: "red-m", productId, inStock: false }))
        assert.deepStrictEqual([flagged.trackQuantity, flagged.inStock, flagged.quantity, flagged.availabilityStatus], [false, false, undefined, "OUT_OF_STOCK"])
        const preorder = yield* asAdmin(InventoryItems.create({ variantId: "red-l", productId, quantity: 0, preorderInfo: { enabled: true, limit: 3, message: "Ships in May" } }))
        assert.strictEqual(preorder.availabilityStatus, "PREORDER")
        assert.deepStrictEqual(preorder.preorderInfo, { enabled: true, message: "Ships in May", limit: 3, counter: 0, quantity: 3 })
        const twice = yield* refusal(asAdmin(InventoryItems.create({ variantId: "red-s", productId, quantity: 1 })))
        assert.strictEqual(twice.code, "ALREADY_EXISTS")
        const elsewhere = yield* asAdmin(InventoryItems.create({ variantId: "red-s", productId, locationId: "warehouse-2", quantity: 9 }))
        assert.strictEqual(elsewhere.locationId, "warehouse-2")

        assert.strictEqual((yield* asVisitor(InventoryItems.get(counted.id!))).quantity, 5)
        const mine = yield* asVisitor(InventoryItems.query().eq("productId", productId).ascending("variantId").find)
        assert.deepStrictEqual(mine.items.map((i) => i.variantId), ["red-l", "red-m", "red-s", "red-s"])
        const low = yield* asVisitor(InventoryItems.query().eq("productId", productId).lt("quantity", 6).find)
        assert.sameMembers(low.items.map((i) => i.id), [counted.id, preorder.id])
        assert.strictEqual(yield* asVisitor(InventoryItems.count({ productId, availabilityStatus: "IN_STOCK" })), 2)

        const down = yield* asAdmin(InventoryItems.bulkDecrement([
          { inventoryItemId: counted.id!, decrementBy: 2 },
          { inventoryItemId: counted.id!, decrementBy: 4 },
          { inventoryItemId: flagged.id!, decrementBy: 1 },
          { inventoryItemId: "no-such-item", decrementBy: 1 }
        ], { returnEntity: true, reason: "ORDER" }))
        assert.deepStrictEqual(down.results.map((r) => r.itemMetadata.error?.code ?? "ok"), ["ok", "INSUFFICIENT_INVENTORY", "ok", "INVENTORY_ITEM_NOT_FOUND"])
        assert.strictEqual(down.results[0]?.item?.quantity, 3)
        assert.strictEqual(down.results[2]?.item?.inStock, false, "status-only items are left as they are")
        const overdrawn = yield* asAdmin(InventoryItems.bulkDecrement([{ inventoryItemId: counted.id!, decrementBy: 4 }], { restrictInventory: false, returnEntity: true }))
        assert.deepStrictEqual([overdrawn.results[0]?.item?.quantity, overdrawn.results[0]?.item?.availabilityStatus], [-1, "OUT_OF_STOCK"])

        const preordered = yield* asAdmin(InventoryItems.bulkDecrementByVariant([
          { variantId: "red-l", decrementBy: 2, preorderRequest: true },
          { variantId: "red-l", decrementBy: 2, preorderRequest: true },
          { variantId: "no-such-variant", decrementBy: 1 }
        ], { returnEntity: true }))
        assert.deepStrictEqual(preordered.results.map((r) => r.itemMetadata.error?.code ?? "ok"), ["ok", "INSUFFICIENT_INVENTORY", "INVENTORY_ITEM_NOT_FOUND"])
        assert.deepStrictEqual(preordered.results[0]?.item?.preorderInfo, { enabled: true, message: "Ships in May", limit: 3, counter: 2, quantity: 1 })
        assert.strictEqual(preordered.results[0]?.item?.availabilityStatus, "PREORDER")
        const restocked = yield* asAdmin(InventoryItems.bulkIncrementByVariant([
          { variantId: "red-l", incrementBy: 10 },
          { variantId: "red-s", locationId: "warehouse-2", incrementBy: 1 }
        ], { returnEntity: true }))
        assert.deepStrictEqual(restocked.results.map((r) => [r.item?.quantity, r.item?.availabilityStatus]), [[8, "IN_STOCK"], [10, "IN_STOCK"]])
        const incremented = yield* asAdmin(InventoryItems.bulkIncrement([{ inventoryItemId: counted.id!, incrementBy: 6 }, { inventoryItemId: counted.id!, incrementBy: 99_999 }]))
        assert.deepStrictEqual(incremented.results.map((r) => r.itemMetadata.success), [true, false])

        const current = yield* asVisitor(InventoryItems.get(counted.id!))
        assert.strictEqual(current.quantity, 5)
        const switched = yield* asAdmin(InventoryItems.update({ id: counted.id!, revision: current.revision!, inStock: true }, { reason: "MANUAL" }))
        assert.deepStrictEqual([switched.trackQuantity, switched.inStock, switched.quantity, switched.availabilityStatus], [false, true, undefined, "IN_STOCK"])
        assert.strictEqual((yield* refusal(asAdmin(InventoryItems.update({ id: counted.id!, revision: current.revision!, quantity: 1 })))).code, "REVISION_MISMATCH")

        const bulk = yield* asAdmin(InventoryItems.bulkCreate([
          { variantId: "blue-s", productId, quantity: 1 },
          { variantId: "red-m", productId, quantity: 1 }
        ], { returnEntity: true }))
        assert.deepStrictEqual(bulk.results.map((r) => r.itemMetadata.error?.code ?? "ok"), ["ok", "ALREADY_EXISTS"])
        const blue = bulk.results[0]!.item!
        const masked = yield* asAdmin(InventoryItems.bulkUpdate([
          { inventoryItem: { id: blue.id!, revision: "1", quantity: 40, preorderInfo: { enabled: true } }, fieldMask: ["quantity"] }
        ], { returnEntity: true }))
        assert.deepStrictEqual([masked.results[0]?.item?.quantity, masked.results[0]?.item?.preorderInfo?.enabled], [40, false])
        yield* asAdmin(InventoryItems.remove(blue.id!))
        const removed = yield* asAdmin(InventoryItems.bulkRemove([flagged.id!, blue.id!]))
        assert.deepStrictEqual(removed.results.map((r) => r.itemMetadata.success), [true, false])
        assert.strictEqual((yield* refusal(asVisitor(InventoryItems.get(blue.id!)))).code, "INVENTORY_ITEM_NOT_FOUND")
      }))

    it.effect("damaged requests to every entity route: never a 5xx, every refusal in the platform's shape", () =>
      Effect.gen(function*() {
        const platform = yield* LocalPlatform
        const headers = { authorization: Redacted.value(platform.apiKey), "wix-site-id": platform.siteId, "content-type": "application/json" }
        const c = seedId(4, 1)
        const choices = [{ name: "A" }]
        const query = { query: { filter: { name: { $startsWith: "N" } }, sort: [{ fieldName: "name", order: "ASC" }], cursorPaging: { limit: 2 } } }
        const routes: ReadonlyArray<readonly [string, string, Record<string, unknown>]> = [
          ["POST", "/stores/v3/brands", { brand: { name: "Fuzz" } }],
          ["GET", `/stores/v3/brands/${seedId(1, 1)}`, { brandId: seedId(1, 1), fields: ["ASSIGNED_PRODUCTS_COUNT"] }],
          ["PATCH", `/stores/v3/brands/${seedId(1, 2)}`, { brand: { revision: "1", name: "Fuzz" } }],
          ["DELETE", "/stores/v3/brands/no-such-brand", { brandId: "no-such-brand" }],
          ["GET", "/stores/v3/brands/query", query],
          ["POST", "/stores/v3/brands/query", query],
          ["POST", "/stores/v3/brands/count", { filter: { name: "x" } }],
          ["POST", "/stores/v3/brands/get-or-create", { brandName: "Fuzz" }],
          ["POST", "/stores/v3/bulk/brands/create", { brands: [{ name: "Fuzz" }], returnEntity: true }],
          ["POST", "/stores/v3/bulk/brands/update", { brands: [{ brand: { id: seedId(1, 3), revision: "9", name: "x" }, fieldMask: "name" }] }],
          ["POST", "/stores/v3/bulk/brands/get-or-create", { brandNames: ["Fuzz"] }],
          ["POST", "/stores/v3/bulk/brands/delete", { brandIds: ["no-such-brand"] }],
          ["POST", "/stores/v3/ribbons", { ribbon: { name: "Fuzz" } }],
          ["PATCH", `/stores/v3/ribbons/${seedId(2, 1)}`, { ribbon: { revision: "9", name: "x" } }],
          ["POST", "/stores/v3/ribbons/query", query],
          ["POST", "/stores/v3/bulk/ribbons/update", { ribbons: [{ ribbon: { id: seedId(2, 1), revision: "9" } }] }],
          ["POST", "/stores/v3/info-sections", { infoSection: { uniqueName: "fuzz", title: "Fuzz", plainDescription: "<p>x</p>" } }],
          ["PATCH", `/stores/v3/info-sections/${seedId(3, 1)}`, { infoSection: { revision: "9", description: { nodes: [] } } }],
          ["GET", "/stores/v3/info-sections/query", query],
          ["POST", "/stores/v3/info-sections/get-or-create", { infoSection: { uniqueName: "fuzz-2", title: "T" } }],
          ["POST", "/stores/v3/bulk/info-sections/get-or-create", { infoSections: [{ id: "nope" }] }],
          ["POST", "/stores/v3/bulk/info-sections/update", { infoSections: [{ infoSection: { id: seedId(3, 1), revision: "9" } }] }],
          ["POST", "/stores/v3/customizations", {
            customization: { name: "Fuzz", customizationType: "PRODUCT_OPTION", customizationRenderType: "TEXT_CHOICES", choicesSettings: { choices } }
          }],
          ["PATCH", `/stores/v3/customizations/${c}`, { customization: { revision: "9", name: "x", freeTextInput: { title: "t" } } }],
          ["GET", "/stores/v3/customizations/query", query],
          ["POST", `/stores/v3/customizations/${c}/add-choices`, { choices: [{ name: "Fuzz", primaryChoiceIds: ["x"] }] }],
          ["POST", `/stores/v3/customizations/${c}/set-choices`, { choices: [{ name: "Fuzz", colorCode: "#fff" }] }],
          ["POST", `/stores/v3/customizations/${c}/remove-choices`, { choiceIds: ["x"], revision: "9" }],
          ["POST", `/stores/v3/customizations/${c}/update-choices`, { revision: "9", choices: [{ choice: { id: "x", name: "y" }, fieldMask: "name" }] }],
          ["POST", `/stores/v3/customizations/${c}/reorder-choices`, { revision: "9", choiceIds: ["x"] }],
          ["POST", "/stores/v3/bulk/customizations/add-choices", { customizationsChoices: [{ customizationId: c, choices }] }],
          ["POST", "/stores/v3/bulk/customizations/update", { customizations: [{ customization: { id: c, revision: "9" } }] }],
          ["POST", "/stores/v3/inventory-items", { inventoryItem: { variantId: "fuzz", productId: "fuzz", quantity: 1, preorderInfo: { enabled: true, limit: 3 } } }],
          ["PATCH", "/stores/v3/inventory-items/no-such-item", { inventoryItem: { revision: "1", inStock: true }, reason: "MANUAL" }],
          ["GET", "/stores/v3/inventory-items/query", query],
          ["GET", "/stores/v3/inventory-items/count", { filter: { productId: "p" } }],
          ["POST", "/stores/v3/bulk/inventory-items/update", { inventoryItems: [{ inventoryItem: { id: "x", revision: "1", quantity: 1 } }] }],
          ["POST", "/stores/v3/bulk/inventory-items/increment", { incrementData: [{ inventoryItemId: "x", incrementBy: 1 }] }],
          ["POST", "/stores/v3/bulk/inventory-items/decrement", { decrementData: [{ inventoryItemId: "x", decrementBy: 1 }], restrictInventory: false }],
          ["POST", "/stores/v3/bulk/inventory-items/increment-by-variant-and-location", { incrementData: [{ variantId: "x", incrementBy: 1 }] }],
          ["POST", "/stores/v3/bulk/inventory-items/decrement-by-variant-and-location", { decrementData: [{ variantId: "x", decrementBy: 1 }] }]
        ]
        const deep = JSON.parse(`${"{\"a\":".repeat(300)}1${"}".repeat(300)}`)
        const damage: ReadonlyArray<unknown> = [null, 7, -1.5, 1e300, "x", "x".repeat(20_000), true, [], [null], {}, [{}], { $and: [] }, deep]
        const variants = (sample: Record<string, unknown>): ReadonlyArray<unknown> => [
          sample,
          {},
          ...Object.keys(sample).flatMap((key) => [
            Object.fromEntries(Object.entries(sample).filter(([k]) => k !== key)),
            ...damage.map((value) => ({ ...sample, [key]: value })),
            ...(typeof sample[key] === "object" && sample[key] !== null && !Array.isArray(sample[key])
              ? Object.keys(sample[key] as object).flatMap((inner) => damage.map((value) => ({ ...sample, [key]: { ...(sample[key] as object), [inner]: value } })))
              : [])
          ])
        ]
        const problems: Array<string> = []
        const statuses = new Map<number, number>()
        for (const [method, path, sample] of routes) {
          for (const variant of variants(sample)) {
            const text = JSON.stringify(variant)
            const url = method === "GET" || method === "DELETE" ? `${platform.url}${path}?.r=${Buffer.from(text).toString("base64url")}` : `${platform.url}${path}`
            const res = yield* Effect.promise(() => fetch(url, { method, headers, ...(method === "GET" || method === "DELETE" ? {} : { body: text }) }))
            const body = yield* Effect.promise(() => res.text())
            statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1)
            if (res.status >= 500) problems.push(`${method} ${path} ${text.slice(0, 120)}: ${res.status} ${body.slice(0, 200)}`)
            else if (res.status >= 400) {
              const parsed = JSON.parse(body)
              if (parsed?.details?.validationError === undefined && parsed?.details?.applicationError === undefined) problems.push(`${method} ${path}: ${res.status} without details`)
            }
          }
          for (const broken of ["{", "[1]", "\"x\"", "null"]) {
            if (method === "GET" || method === "DELETE") continue
            const res = yield* Effect.promise(() => fetch(`${platform.url}${path}`, { method, headers, body: broken }))
            if (res.status >= 500) problems.push(`${method} ${path} ${broken}: ${res.status}`)
          }
        }
        assert.deepStrictEqual(problems, [])
        // the samples themselves pass, their damaged copies are refused
        assert.isAbove(statuses.get(200) ?? 0, 100)
        assert.isAbove(statuses.get(400) ?? 0, 1000)
      }))

    it.effect("every write logs its domain event as it commits; refused writes log none", () =>
      Effect.gen(function*() {
        const mark = yield* logMark
        const brand = yield* asAdmin(Brands.create({ name: unique("Evented") }))
        yield* refusal(asAdmin(Brands.create({ name: "Northwind" })))
        const renamed = yield* asAdmin(Brands.update({ id: brand.id!, revision: "1", name: unique("Evented again") }))
        yield* asAdmin(Brands.bulkCreate([{ name: "Kestrel" }]))
        yield* asAdmin(Brands.remove(brand.id!))
        const ribbon = yield* asAdmin(Ribbons.getOrCreate(unique("Evented ribbon")))
        yield* asAdmin(Ribbons.getOrCreate(ribbon.name!))
        const section = yield* asAdmin(InfoSections.create({ uniqueName: unique("evented").replace(/ /g, "-"), title: "Evented" }))
        const wrap = yield* asAdmin(Customizations.get(seedId(4, 1)))
        yield* asAdmin(Customizations.addChoices(wrap.id!, [{ name: unique("Evented choice") }]))
        const item = yield* asAdmin(InventoryItems.create({ variantId: unique("v").replace(/ /g, "-"), productId: "p", quantity: 2 }))
        yield* asAdmin(InventoryItems.bulkDecrement([{ inventoryItemId: item.id!, decrementBy: 5 }]))
        yield* asAdmin(InventoryItems.bulkDecrement([{ inventoryItemId: item.id!, decrementBy: 2 }]))

        const seen = yield* loggedSince(mark)
        assert.deepStrictEqual(seen.map((e) => [e.type, domainOf(e).entityId]), [
          ["wix.stores.catalog.v3.brand_created", brand.id],
          ["wix.stores.catalog.v3.brand_updated", brand.id],
          ["wix.stores.catalog.v3.brand_deleted", brand.id],
          ["wix.stores.catalog.v3.ribbon_created", ribbon.id],
          ["wix.stores.catalog.v3.info_section_created", section.id],
          ["wix.stores.catalog.v3.customization_updated", wrap.id],
          ["wix.stores.catalog.v3.inventory_item_created", item.id],
          ["wix.stores.catalog.v3.inventory_item_updated", item.id]
        ])
        const updated = domainOf(seen[1]!)
        assert.strictEqual(updated.entityFqdn, "wix.stores.catalog.v3.brand")
        assert.strictEqual(updated.slug, "updated")
        assert.deepStrictEqual(Object.keys(updated.updatedEvent!.modifiedFields!), ["name"])
        assert.strictEqual((updated.updatedEvent!.currentEntity as { name: string }).name, renamed.name)
        assert.isTrue(seen.every((e) => e.identity.identityType === "WIX_USER"))
        assert.sameMembers(Object.keys(domainOf(seen[7]!).updatedEvent!.modifiedFields!), ["quantity", "availabilityStatus"])
        assert.strictEqual((domainOf(seen[2]!).deletedEvent!.deletedEntity as { id: string }).id, brand.id)
      }))
  })
})
