/**
 * The official `@wix/sdk` webhook processing, unchanged, beside sitefx's: tokens signed the way
 * test/support/events.ts signs them (RS256, claims as PROTOCOL-DETAIL §6.3) are accepted by the official
 * client (AppStrategy with the public key, handlers registered through the modules' `onXxx` event
 * definitions, `client.webhooks.process(body)`) and by sitefx's `Webhooks`, and both see the same
 * event type, entity id and identity, for data, catalog v1, inventory, cart and catalog v3 events. Both
 * refuse forged, `alg: none`, HS256 and expired tokens; where they differ (sitefx refuses RS512, which
 * the official client accepts) the test says so.
 */
import { assert, describe, it } from "@effect/vitest"
import { checkout, orders } from "@wix/ecom"
import { backups, indexes, items, movementJobs } from "@wix/data"
import { AppStrategy, createClient } from "@wix/sdk"
import { abandonedCarts, brandsV3, customizationsV3, infoSectionsV3, inventory, inventoryItemsV3, products, productsV3, ribbonsV3 } from "@wix/stores"
import * as Effect from "effect/Effect"
import type { SiteEvent } from "../../src/events/Event.ts"
import { CatalogV1EventTypes, CatalogV3EventTypes, DataAdminEventTypes, DataEventTypes, EcomEventTypes, EVENT_TYPES, type EventEnvelope, type Identity } from "../../src/events/protocol.ts"
import * as Webhooks from "../../src/events/Webhooks.ts"
import { domainEvent, envelope, rsaKeys, signEvent, signJwt } from "../support/events.ts"

const keys = rsaKeys()
const v1 = CatalogV1EventTypes
const v3 = CatalogV3EventTypes

/** What a handler saw, reduced to what both clients must agree on. */
interface Seen {
  readonly type: string
  readonly entityId: string | undefined
  readonly identity: Identity | undefined
  readonly instanceId: string | undefined
}

type OfficialEnvelope = {
  readonly entity?: { readonly _id?: string }
  readonly data?: Record<string, unknown>
  readonly metadata: { readonly entityId?: string; readonly identity?: Identity; readonly instanceId?: string }
}

/** The official client with every module whose events the local platform publishes, its handlers recording into `seen`. */
const officialClient = (publicKey: string) => {
  const seen: Array<Seen> = []
  const client = createClient({
    auth: AppStrategy({ appId: "app-under-test", publicKey }),
    modules: { items, indexes, backups, movementJobs, products, inventory, abandonedCarts, productsV3, brandsV3, ribbonsV3, inventoryItemsV3, customizationsV3, infoSectionsV3, orders, checkout }
  })
  const record = (type: string, legacyId?: string) => (e: unknown) => {
    const env = e as OfficialEnvelope
    seen.push({
      type,
      entityId: legacyId === undefined ? env.metadata.entityId : env.data?.[legacyId] as string | undefined,
      identity: env.metadata.identity,
      instanceId: env.metadata.instanceId
    })
  }
  client.items.onDataItemCreated(record(DataEventTypes.itemCreated))
  client.items.onDataItemUpdated(record(DataEventTypes.itemUpdated))
  client.items.onDataItemDeleted(record(DataEventTypes.itemDeleted))
  client.indexes.onIndexCreated(record(DataAdminEventTypes.indexCreated))
  client.indexes.onIndexUpdated(record(DataAdminEventTypes.indexUpdated))
  client.indexes.onIndexDeleted(record(DataAdminEventTypes.indexDeleted))
  client.backups.onBackupStateChanged(record(DataAdminEventTypes.backupStateChanged))
  client.backups.onBackupRestorationStateChanged(record(DataAdminEventTypes.restorationStateChanged))
  client.movementJobs.onJobCreated(record(DataAdminEventTypes.jobCreated))
  client.movementJobs.onJobUpdated(record(DataAdminEventTypes.jobUpdated))
  client.movementJobs.onJobDeleted(record(DataAdminEventTypes.jobDeleted))
  client.products.onProductCreated(record(v1.productCreated, "productId"))
  client.products.onProductChanged(record(v1.productChanged, "productId"))
  client.products.onProductDeleted(record(v1.productDeleted, "productId"))
  client.products.onProductVariantsChanged(record(v1.variantsChanged, "productId"))
  client.products.onProductCollectionCreated(record(v1.collectionCreated, "collection_Id"))
  client.products.onProductCollectionChanged(record(v1.collectionChanged, "collection_Id"))
  client.products.onProductCollectionDeleted(record(v1.collectionDeleted, "collection_Id"))
  client.inventory.onInventoryItemChanged(record(v1.inventoryItemChanged, "inventoryItemId"))
  client.inventory.onInventoryVariantsChanged(record(v1.inventoryVariantsChanged, "inventoryItemId"))
  client.abandonedCarts.onAbandonedCartCartAbandonedEvent(record(v1.cartAbandoned, "cartId"))
  client.abandonedCarts.onAbandonedCartCartRecoveredEvent(record(v1.cartRecovered, "cartId"))
  client.productsV3.onProductCreated(record(v3.product.created))
  client.productsV3.onProductUpdated(record(v3.product.updated))
  client.productsV3.onProductDeleted(record(v3.product.deleted))
  client.brandsV3.onBrandCreated(record(v3.brand.created))
  client.brandsV3.onBrandUpdated(record(v3.brand.updated))
  client.brandsV3.onBrandDeleted(record(v3.brand.deleted))
  client.ribbonsV3.onRibbonCreated(record(v3.ribbon.created))
  client.ribbonsV3.onRibbonUpdated(record(v3.ribbon.updated))
  client.ribbonsV3.onRibbonDeleted(record(v3.ribbon.deleted))
  client.inventoryItemsV3.onInventoryItemCreated(record(v3.inventoryItem.created))
  client.inventoryItemsV3.onInventoryItemUpdated(record(v3.inventoryItem.updated))
  client.inventoryItemsV3.onInventoryItemDeleted(record(v3.inventoryItem.deleted))
  client.customizationsV3.onCustomizationCreated(record(v3.customization.created))
  client.customizationsV3.onCustomizationUpdated(record(v3.customization.updated))
  client.customizationsV3.onCustomizationDeleted(record(v3.customization.deleted))
  client.infoSectionsV3.onInfoSectionCreated(record(v3.infoSection.created))
  client.infoSectionsV3.onInfoSectionUpdated(record(v3.infoSection.updated))
  client.infoSectionsV3.onInfoSectionDeleted(record(v3.infoSection.deleted))
  client.orders.onOrderCreated(record(EcomEventTypes.orderCreated))
  client.orders.onOrderUpdated(record(EcomEventTypes.orderUpdated))
  client.orders.onOrderApproved(record(EcomEventTypes.orderApproved))
  client.orders.onOrderCanceled(record(EcomEventTypes.orderCanceled))
  client.orders.onOrderPaymentStatusUpdated(record(EcomEventTypes.orderPaymentStatusUpdated))
  client.orders.onOrderFulfilled(record(EcomEventTypes.orderFulfilled))
  client.checkout.onCheckoutCompleted(record(EcomEventTypes.checkoutCompleted))
  return { client, seen }
}

const legacyIds: Record<string, string> = {
  [v1.productCreated]: "productId",
  [v1.productChanged]: "productId",
  [v1.productDeleted]: "productId",
  [v1.variantsChanged]: "productId",
  [v1.collectionCreated]: "collection_Id",
  [v1.collectionChanged]: "collection_Id",
  [v1.collectionDeleted]: "collection_Id",
  [v1.inventoryItemChanged]: "inventoryItemId",
  [v1.inventoryVariantsChanged]: "inventoryItemId",
  [v1.cartAbandoned]: "cartId",
  [v1.cartRecovered]: "cartId"
}

/** sitefx's processor handling every type, recording the same things. */
const sitefxProcessor = (publicKey: string) => {
  const seen: Array<Seen> = []
  const processor = Webhooks.handler({
    publicKey,
    exhaustive: EVENT_TYPES,
    handlers: Webhooks.forTypes(EVENT_TYPES, (event: SiteEvent) =>
      Effect.sync(() =>
        void seen.push({
          type: event.type,
          entityId: event._tag === "Domain" ? event.entityId : (event.data as Record<string, unknown>)[legacyIds[event.type]!] as string,
          identity: event.identity,
          instanceId: event.instanceId
        })
      ))
  })
  return { processor, seen }
}

const fqdn = (type: string) => type.replace(/^(wix\.ecom\.v1\.(order|checkout))_.*$/, "$1").replace(/_(created|updated|deleted)$/, "").replace(/_(backup|restoration)_state_changed$/, "")

const admin = DataAdminEventTypes
const backupEntity = { id: "b-1", status: "READY", type: "ON_DEMAND", requestedDate: "2024-05-06T07:08:09.000Z", sizeInBytes: "4096", collections: [{ id: "Books" }] }
const jobEntity = (status: string) => ({
  id: "item-1",
  status,
  source: { wixDataCollection: { collectionId: "Books" } },
  destination: { wixDataCollection: { collectionId: "Archive", writePolicy: "OVERWRITE" } },
  startedAt: "2024-05-06T07:08:09.000Z"
})

const orderEntity = (status: string) => ({
  id: "item-1",
  number: "10001",
  status,
  paymentStatus: "PAID",
  fulfillmentStatus: "NOT_FULFILLED",
  createdDate: "2024-05-06T07:08:09.000Z",
  lineItems: [{ id: "line-1", productName: { original: "Hat" }, quantity: 1, price: { amount: "10", formattedAmount: "$10.00" } }]
})

/** One event of every type the local platform publishes, each with its own identity. */
const cases: Array<{ readonly name: string; readonly envelope: EventEnvelope; readonly entityId: string }> = [
  ...[
    [DataEventTypes.itemCreated, { createdEvent: { entity: { id: "item-1", dataCollectionId: "Books", data: { title: "Dune" } } } }],
    [DataEventTypes.itemUpdated, { updatedEvent: { currentEntity: { id: "item-1", dataCollectionId: "Books", data: { title: "Dune 2" } }, modifiedFields: { title: "Dune" } } }],
    [DataEventTypes.itemDeleted, { deletedEvent: { deletedEntity: { id: "item-1", dataCollectionId: "Books" } } }],
    [v3.product.created, { createdEvent: { entity: { id: "item-1", name: "Hat" } } }],
    [v3.product.updated, { updatedEvent: { currentEntity: { id: "item-1", name: "Hat", revision: "2" }, modifiedFields: { name: "Cap" } } }],
    [v3.product.deleted, { deletedEvent: { deletedEntity: { id: "item-1" } } }],
    [v3.brand.created, { createdEvent: { entity: { id: "item-1", name: "Acme" } } }],
    [v3.brand.updated, { updatedEvent: { currentEntity: { id: "item-1", name: "Acme 2" } } }],
    [v3.brand.deleted, { deletedEvent: {} }],
    [v3.ribbon.created, { createdEvent: { entity: { id: "item-1", name: "Sale" } } }],
    [v3.ribbon.updated, { updatedEvent: { currentEntity: { id: "item-1", name: "Sale!" } } }],
    [v3.ribbon.deleted, { deletedEvent: { deletedEntity: { id: "item-1", name: "Sale" } } }],
    [v3.inventoryItem.created, { createdEvent: { entity: { id: "item-1", quantity: 4, productId: "p-1" } } }],
    [v3.inventoryItem.updated, { updatedEvent: { currentEntity: { id: "item-1", quantity: 3 } } }],
    [v3.inventoryItem.deleted, { deletedEvent: { deletedEntity: { id: "item-1" } } }],
    [v3.customization.created, { createdEvent: { entity: { id: "item-1", name: "Size", customizationType: "PRODUCT_OPTION" } } }],
    [v3.customization.updated, { updatedEvent: { currentEntity: { id: "item-1", name: "Sizes" } } }],
    [v3.customization.deleted, { deletedEvent: { deletedEntity: { id: "item-1" } } }],
    [v3.infoSection.created, { createdEvent: { entity: { id: "item-1", uniqueName: "care", title: "Care" } } }],
    [v3.infoSection.updated, { updatedEvent: { currentEntity: { id: "item-1", title: "Care!" } } }],
    [v3.infoSection.deleted, { deletedEvent: {} }],
    [admin.indexCreated, { createdEvent: { entity: { id: "item-1", name: "byN", fields: [{ path: "n" }], status: "BUILDING" } } }],
    [admin.indexUpdated, { updatedEvent: { currentEntity: { id: "item-1", name: "byN", fields: [{ path: "n" }], status: "ACTIVE" } } }],
    [admin.indexDeleted, { deletedEvent: { deletedEntity: { id: "item-1", name: "byN", fields: [{ path: "n" }], status: "DROPPED" } } }],
    [admin.backupStateChanged, { actionEvent: { body: { backup: backupEntity } } }],
    [admin.restorationStateChanged, { actionEvent: { body: { restoration: { id: "item-1", status: "COMPLETED", backup: backupEntity, requestedDate: "2024-05-06T07:08:09.000Z" } } } }],
    [admin.jobCreated, { createdEvent: { entity: jobEntity("UNINITIALIZED") } }],
    [admin.jobUpdated, { updatedEvent: { currentEntity: jobEntity("COMPLETED") } }],
    [admin.jobDeleted, { deletedEvent: { deletedEntity: jobEntity("FAILED") } }],
    [EcomEventTypes.orderCreated, { createdEvent: { entity: orderEntity("APPROVED") } }],
    [EcomEventTypes.orderUpdated, { updatedEvent: { currentEntity: orderEntity("CANCELED"), modifiedFields: { status: null } } }],
    [EcomEventTypes.orderApproved, { actionEvent: { body: { order: orderEntity("APPROVED") } } }],
    [EcomEventTypes.orderCanceled, { actionEvent: { body: { order: orderEntity("CANCELED"), restockAllItems: true } } }],
    [EcomEventTypes.orderPaymentStatusUpdated, { actionEvent: { body: { order: orderEntity("APPROVED"), previousPaymentStatus: "NOT_PAID" } } }],
    [EcomEventTypes.orderFulfilled, { actionEvent: { body: { order: orderEntity("APPROVED") } } }],
    [EcomEventTypes.checkoutCompleted, { actionEvent: { body: { checkout: { id: "item-1", completed: true } } } }]
  ].map(([type, change], i) => ({
    name: type as string,
    entityId: "item-1",
    envelope: envelope(type as string, domainEvent(fqdn(type as string), "item-1", change as never), {
      instanceId: `inst-${i}`,
      identity: [
        { identityType: "MEMBER", memberId: "mem-1" },
        { identityType: "WIX_USER", wixUserId: "user-1" },
        { identityType: "APP", appId: "app-9" },
        { identityType: "ANONYMOUS_VISITOR", anonymousVisitorId: "vis-1" }
      ][i % 4] as Identity,
      accountInfo: { accountId: "acc-1", siteId: "site-1" }
    })
  })),
  ...([
    [v1.productCreated, { productId: "p-1", name: "Shirt", price: { price: 10.5, currency: "USD" }, visible: true, sku: "S1", slug: "shirt" }],
    [v1.productChanged, { productId: "p-1", changedFields: ["name", "price"] }],
    [v1.productDeleted, { productId: "p-1" }],
    [v1.variantsChanged, { productId: "p-1", variants: [{ variantId: "v-1", changedFields: ["price"] }] }],
    [v1.collectionCreated, { collection_Id: "p-1", name: "Summer", visible: true }],
    [v1.collectionChanged, { collection_Id: "p-1", changedFields: ["name"] }],
    [v1.collectionDeleted, { collection_Id: "p-1" }],
    [v1.inventoryItemChanged, { inventoryItemId: "p-1", productId: "p-9", trackInventory: true }],
    [v1.inventoryVariantsChanged, { inventoryItemId: "p-1", variants: [{ id: "v-1", oldValue: { quantity: 3 }, newValue: { quantity: 2 } }] }],
    [v1.cartAbandoned, { cartId: "p-1", itemsCount: 2, checkoutUrl: "https://x.test/checkout" }],
    [v1.cartRecovered, { cartId: "p-1", recoveredTime: "2024-05-06T07:08:09.000Z" }]
  ] as const).map(([type, data]) => ({
    name: type,
    entityId: "p-1",
    envelope: envelope(type, data, { identity: { identityType: "WIX_USER", wixUserId: "user-1" } })
  }))
]

describe("official @wix/sdk webhooks.process and sitefx's Webhooks on the same tokens", () => {
  it("covers every event type the local platform publishes", () => {
    assert.sameMembers(cases.map((c) => c.envelope.eventType), [...EVENT_TYPES])
  })

  for (const publicKeyForm of ["PEM", "base64 of the PEM"] as const) {
    it(`every event type: both accept, and see the same type, entity id, identity and instance (key as ${publicKeyForm})`, async () => {
      const publicKey = publicKeyForm === "PEM" ? keys.publicKey : Buffer.from(keys.publicKey).toString("base64")
      const official = officialClient(publicKey)
      const ours = sitefxProcessor(publicKey)
      for (const c of cases) {
        const body = signEvent(keys.privateKey, c.envelope)
        const processed = await official.client.webhooks.process(body)
        assert.strictEqual(processed.eventType, c.envelope.eventType, c.name)
        const event = await Effect.runPromise(ours.processor.process(body))
        assert.strictEqual(event.type, c.envelope.eventType, c.name)
      }
      assert.strictEqual(official.seen.length, cases.length)
      assert.deepStrictEqual(ours.seen, official.seen)
      for (const [i, c] of cases.entries()) {
        assert.strictEqual(ours.seen[i]!.entityId, c.entityId, c.name)
        assert.deepStrictEqual(ours.seen[i]!.identity, JSON.parse(c.envelope.identity!), c.name)
      }
    })
  }

  it("a data item's entity: the official client renames id to _id; sitefx keeps the wire's id and fills data._id", async () => {
    const official = createClient({ auth: AppStrategy({ appId: "app-under-test", publicKey: keys.publicKey }), modules: { items } })
    let officialEntity: Record<string, unknown> | undefined
    official.items.onDataItemCreated((event) => {
      officialEntity = event.entity as unknown as Record<string, unknown>
    })
    const body = signEvent(keys.privateKey, cases[0]!.envelope)
    await official.webhooks.process(body)
    const { processor } = sitefxProcessor(keys.publicKey)
    const event = await Effect.runPromise(processor.process(body))
    assert.strictEqual(officialEntity?.["_id"], "item-1")
    assert.strictEqual(officialEntity?.["dataCollectionId"], "Books")
    if (event.type !== DataEventTypes.itemCreated || event.change._tag !== "Created") return assert.fail("a created data item")
    assert.strictEqual(event.change.entity.id, "item-1")
    assert.strictEqual(event.change.entity.dataCollectionId, "Books")
    assert.deepStrictEqual(event.change.entity.data, { _id: "item-1", title: "Dune" })
  })

  it("both refuse a token signed with another key, alg none, HS256 keyed with the public key, and an expired token; no handler runs", async () => {
    const other = rsaKeys()
    const good = cases[0]!.envelope
    const claims = { data: JSON.stringify(good) }
    const bodies = {
      "another key": signEvent(other.privateKey, good),
      "alg none": signJwt(keys.privateKey, claims, "none"),
      "HS256 with the public key": signJwt(keys.publicKey, claims, "HS256"),
      "expired": signEvent(keys.privateKey, good, { exp: Math.floor(Date.now() / 1000) - 3600 })
    }
    const official = officialClient(keys.publicKey)
    const ours = sitefxProcessor(keys.publicKey)
    for (const [name, body] of Object.entries(bodies)) {
      let officialRefused = false
      await official.client.webhooks.process(body).catch(() => {
        officialRefused = true
      })
      assert.isTrue(officialRefused, `official refuses: ${name}`)
      const error = await Effect.runPromise(Effect.flip(ours.processor.process(body)))
      assert.strictEqual(error._tag, "WebhookError", name)
    }
    assert.deepStrictEqual(official.seen, [])
    assert.deepStrictEqual(ours.seen, [])
  })

  it("where they differ: RS512 with the site's key is accepted by the official client and refused by sitefx (RS256 only)", async () => {
    const body = signJwt(keys.privateKey, { data: JSON.stringify(cases[0]!.envelope) }, "RS512")
    const official = officialClient(keys.publicKey)
    const processed = await official.client.webhooks.process(body)
    assert.strictEqual(processed.eventType, DataEventTypes.itemCreated)
    const ours = sitefxProcessor(keys.publicKey)
    const error = await Effect.runPromise(Effect.flip(ours.processor.process(body)))
    assert.strictEqual(error.reason._tag, "UnsupportedAlgorithm")
    assert.deepStrictEqual(ours.seen, [])
  })
})
