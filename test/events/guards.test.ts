/**
 * The guards sitefx's events client reads envelopes and payloads with: each has exactly the type of its
 * wire Schema (checked by the compiler, one line a guard), and guard and Schema judge alike what the
 * local platform really publishes: writes of every kind on the platform, each logged envelope and its
 * payload checked by both.
 */
import { assert, describe, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as Schema from "effect/Schema"
import * as Collections from "../../src/catalog/Collections.ts"
import * as Brands from "../../src/catalog/entities/Brands.ts"
import * as Customizations from "../../src/catalog/entities/Customizations.ts"
import * as InfoSections from "../../src/catalog/entities/InfoSections.ts"
import * as InventoryItems from "../../src/catalog/entities/InventoryItems.ts"
import * as Ribbons from "../../src/catalog/entities/Ribbons.ts"
import * as EG from "../../src/catalog/entities/guards/index.ts"
import * as EW from "../../src/catalog/entities/wire/index.ts"
import * as Inventory from "../../src/catalog/Inventory.ts"
import * as Products from "../../src/catalog/Products.ts"
import * as DataItems from "../../src/data/DataItems.ts"
import * as E from "../../src/events/guards/envelope.ts"
import * as P from "../../src/events/guards/payloads.ts"
import * as S from "../../src/events/guards/subscriptions.ts"
import { CatalogV1EventTypes, CatalogV3EventTypes, DataEventTypes, type EventType } from "../../src/events/protocol.ts"
import * as W from "../../src/events/wire/index.ts"
import * as G from "../../src/http/guard.ts"
import type * as WebhooksWire from "../../src/events/wire/subscriptions.ts"
import { asAdmin, asVisitor, freshCollection } from "../data/support.ts"
import { loggedSince, logMark } from "../support/eventLog.ts"
import { dev } from "../support/platform.ts"
import { unique } from "../support/store.ts"
import { sameType } from "../support/types.ts"
import { layerWithCore } from "../../src/server/LocalPlatform.ts"

describe("event guards have their Schemas' types", () => {
  it("the envelope", () => {
    sameType<G.TypeOf<typeof E.AccountInfo>, typeof W.AccountInfo.Type>(true)
    sameType<G.TypeOf<typeof E.Envelope>, typeof W.Envelope.Type>(true)
    sameType<G.TypeOf<typeof E.Identity>, typeof W.Identity.Type>(true)
    sameType<G.TypeOf<typeof E.DomainPayload>, typeof W.DomainPayload.Type>(true)
  })

  it("the payloads", () => {
    sameType<G.TypeOf<typeof P.DataItemEntity>, typeof W.DataItemEntity.Type>(true)
    sameType<G.TypeOf<typeof P.ProductV3Entity>, typeof W.ProductV3Entity.Type>(true)
    sameType<G.TypeOf<typeof P.ProductCreated>, typeof W.ProductCreated.Type>(true)
    sameType<G.TypeOf<typeof P.ProductChanged>, typeof W.ProductChanged.Type>(true)
    sameType<G.TypeOf<typeof P.ProductDeleted>, typeof W.ProductDeleted.Type>(true)
    sameType<G.TypeOf<typeof P.VariantChanged>, typeof W.VariantChanged.Type>(true)
    sameType<G.TypeOf<typeof P.VariantsChanged>, typeof W.VariantsChanged.Type>(true)
    sameType<G.TypeOf<typeof P.CollectionCreated>, typeof W.CollectionCreated.Type>(true)
    sameType<G.TypeOf<typeof P.CollectionChanged>, typeof W.CollectionChanged.Type>(true)
    sameType<G.TypeOf<typeof P.CollectionDeleted>, typeof W.CollectionDeleted.Type>(true)
    sameType<G.TypeOf<typeof P.PreorderInfoV1>, typeof W.PreorderInfoV1.Type>(true)
    sameType<G.TypeOf<typeof P.InventoryItemChanged>, typeof W.InventoryItemChanged.Type>(true)
    sameType<G.TypeOf<typeof P.InventoryVariantState>, typeof W.InventoryVariantState.Type>(true)
    sameType<G.TypeOf<typeof P.InventoryVariantsChanged>, typeof W.InventoryVariantsChanged.Type>(true)
    sameType<G.TypeOf<typeof P.CartAbandoned>, typeof W.CartAbandoned.Type>(true)
    sameType<G.TypeOf<typeof P.CartRecovered>, typeof W.CartRecovered.Type>(true)
  })

  it("webhook subscriptions", () => {
    sameType<G.TypeOf<typeof S.Webhook>, typeof WebhooksWire.Webhook.Type>(true)
    sameType<G.TypeOf<typeof S.WebhookResponse>, typeof WebhooksWire.WebhookResponse.Type>(true)
    sameType<G.TypeOf<typeof S.WebhooksResponse>, typeof WebhooksWire.WebhooksResponse.Type>(true)
  })
})

const v1 = CatalogV1EventTypes
const v3 = CatalogV3EventTypes

/** The Schema and the guard of each type's payload: a legacy event's data, a domain event's entity. */
const payloadOf = (type: EventType): readonly [Schema.Top, G.Guard<unknown>] => {
  switch (type) {
    case DataEventTypes.itemCreated:
    case DataEventTypes.itemUpdated:
    case DataEventTypes.itemDeleted:
      return [W.DataItemEntity, P.DataItemEntity]
    case v1.productCreated:
      return [W.ProductCreated, P.ProductCreated]
    case v1.productChanged:
      return [W.ProductChanged, P.ProductChanged]
    case v1.productDeleted:
      return [W.ProductDeleted, P.ProductDeleted]
    case v1.variantsChanged:
      return [W.VariantsChanged, P.VariantsChanged]
    case v1.collectionCreated:
      return [W.CollectionCreated, P.CollectionCreated]
    case v1.collectionChanged:
      return [W.CollectionChanged, P.CollectionChanged]
    case v1.collectionDeleted:
      return [W.CollectionDeleted, P.CollectionDeleted]
    case v1.inventoryItemChanged:
      return [W.InventoryItemChanged, P.InventoryItemChanged]
    case v1.inventoryVariantsChanged:
      return [W.InventoryVariantsChanged, P.InventoryVariantsChanged]
    case v1.cartAbandoned:
      return [W.CartAbandoned, P.CartAbandoned]
    case v1.cartRecovered:
      return [W.CartRecovered, P.CartRecovered]
    default: {
      const entity = type.slice("wix.stores.catalog.v3.".length).replace(/_(created|updated|deleted)$/, "")
      const pairs: Record<string, readonly [Schema.Top, G.Guard<unknown>]> = {
        product: [W.ProductV3Entity, P.ProductV3Entity],
        brand: [EW.Brand, EG.Brand],
        ribbon: [EW.RibbonV3, EG.Ribbon],
        info_section: [EW.InfoSection, EG.InfoSection],
        customization: [EW.Customization, EG.Customization],
        inventory_item: [EW.InventoryItemV3, EG.InventoryItem]
      }
      return pairs[entity]!
    }
  }
}

/** Whether guard and Schema both take `value`, as `what`; fails the test when they disagree. */
const judge = (what: string, schema: Schema.Top, guard: G.Guard<unknown>, value: unknown): boolean => {
  const wrong = guard(value)
  assert.strictEqual(Schema.is(schema as Schema.Codec<unknown>)(value), wrong === undefined, `${what}: guard and Schema disagree on ${JSON.stringify(value)}`)
  return wrong === undefined
}

describe("what the platform publishes", () => {
  it.layer(layerWithCore({}), { excludeTestServices: true })((it) => {
    it.effect("every envelope and payload of writes of every kind passes guard and Schema alike", () =>
      Effect.gen(function*() {
        const mark = yield* logMark
        const c = yield* freshCollection("Guarded")
        const item = yield* asVisitor(DataItems.insert(c, { title: "guarded" }))
        yield* asVisitor(DataItems.update(c, { ...item, title: "changed" }))
        yield* asVisitor(DataItems.remove(c, item._id))

        const product = yield* asAdmin(Products.create({ name: unique("Guarded"), priceData: { price: 5 } }))
        yield* asAdmin(Products.update(product.id!, { priceData: { price: 6 } }))
        yield* asAdmin(Inventory.update(product.id!, { trackQuantity: true, variants: [{ variantId: "00000000-0000-0000-0000-000000000000", quantity: 4 }] }))
        const collection = yield* asAdmin(Collections.create({ name: unique("Guarded") }))
        yield* asAdmin(Collections.addProducts(collection.id!, [product.id!]))
        yield* asAdmin(Collections.remove(collection.id!))
        yield* asAdmin(Products.remove(product.id!))

        const cart = yield* dev<{ abandonedCart: { id: string } }>("/store/abandoned-carts", { body: { buyerInfo: { email: "guarded@example.com" }, total: 12 } })
        yield* dev(`/store/abandoned-carts/${cart.abandonedCart.id}/recover`, { body: {} })

        const brand = yield* asAdmin(Brands.create({ name: unique("Guarded") }))
        yield* asAdmin(Brands.update({ id: brand.id!, revision: brand.revision!, name: unique("Renamed") }))
        yield* asAdmin(Brands.remove(brand.id!))
        const ribbon = yield* asAdmin(Ribbons.create({ name: unique("G").slice(0, 20) }))
        yield* asAdmin(Ribbons.remove(ribbon.id!))
        const section = yield* asAdmin(InfoSections.create({ uniqueName: unique("guarded"), title: "Care" }))
        yield* asAdmin(InfoSections.remove(section.id!))
        const customization = yield* asAdmin(Customizations.create({
          name: unique("Wrap").slice(0, 40),
          customizationType: "MODIFIER",
          customizationRenderType: "TEXT_CHOICES",
          choicesSettings: { choices: [{ choiceType: "CHOICE_TEXT", name: "Paper" }] }
        }))
        yield* asAdmin(Customizations.remove(customization.id!))
        const stock = yield* asAdmin(InventoryItems.create({ variantId: "red-s", productId: unique("prod"), quantity: 5 }))
        yield* asAdmin(InventoryItems.bulkIncrement([{ inventoryItemId: stock.id!, incrementBy: 1 }]))
        yield* asAdmin(InventoryItems.remove(stock.id!))

        const events = yield* loggedSince(mark)
        const seen = new Set<string>()
        for (const e of events) {
          assert.isTrue(judge(`${e.type} envelope`, W.Envelope, E.Envelope, e.envelope))
          assert.isTrue(judge(`${e.type} identity`, W.Identity, E.Identity, e.identity))
          const [schema, guard] = payloadOf(e.type as EventType)
          if (e.type.startsWith("wix.")) {
            assert.isTrue(judge(`${e.type} domain event`, W.DomainPayload, E.DomainPayload, e.payload))
            const entity = e.payload.createdEvent?.entity ?? e.payload.updatedEvent?.currentEntity ?? e.payload.deletedEvent?.deletedEntity
            assert.isTrue(judge(`${e.type} entity`, schema, guard, entity))
          } else {
            assert.isTrue(judge(`${e.type} data`, schema, guard, e.payload))
          }
          seen.add(e.type)
        }
        const expected: ReadonlyArray<EventType> = [
          DataEventTypes.itemCreated, DataEventTypes.itemUpdated, DataEventTypes.itemDeleted,
          v1.productCreated, v1.productChanged, v1.productDeleted, v1.inventoryItemChanged,
          v1.collectionCreated, v1.collectionChanged, v1.collectionDeleted, v1.cartAbandoned, v1.cartRecovered,
          v3.brand.created, v3.brand.updated, v3.brand.deleted, v3.ribbon.created, v3.ribbon.deleted,
          v3.infoSection.created, v3.infoSection.deleted, v3.customization.created, v3.customization.deleted,
          v3.inventoryItem.created, v3.inventoryItem.updated, v3.inventoryItem.deleted
        ]
        assert.deepStrictEqual(expected.filter((t) => !seen.has(t)), [])
      }))

    it("refuse alike what breaks a payload", () => {
      const broken: ReadonlyArray<readonly [EventType, unknown]> = [
        [v1.productCreated, { name: "no id" }],
        [v1.productCreated, { productId: "p", price: { price: "5" } }],
        [v1.cartAbandoned, { cartId: "c", buyerInfo: { identityType: "ROBOT" } }],
        [v1.inventoryVariantsChanged, { inventoryItemId: "i", variants: [{ newValue: { quantity: "1" } }] }],
        [DataEventTypes.itemCreated, { id: "i", dataCollectionId: "c", data: [] }],
        [v3.product.created, { id: 7 }]
      ]
      for (const [type, value] of broken) {
        const [schema, guard] = payloadOf(type)
        assert.isFalse(judge(type, schema, guard, value))
      }
    })
  })
})
