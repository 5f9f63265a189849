/**
 * End to end: a site's webhooks received by sitefx. A `Webhooks.handler` served through its fetch adapter
 * is registered at the local platform with the platform's public key; writes on the site (data items by
 * a visitor, a product and a brand by an API key) reach its typed handlers with their entity and who made
 * them, and a handler that fails gets the event again (the adapter answers 500, the platform retries).
 */
import { assert, describe, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as Redacted from "effect/Redacted"
import * as Products from "../../src/catalog/Products.ts"
import * as Brands from "../../src/catalog/entities/Brands.ts"
import * as DataItems from "../../src/data/DataItems.ts"
import type { EventOf } from "../../src/events/Event.ts"
import { CatalogV1EventTypes, CatalogV3EventTypes, DataEventTypes, EventPaths } from "../../src/events/protocol.ts"
import * as Webhooks from "../../src/events/Webhooks.ts"
import { asAdmin, asVisitor, freshCollection } from "../data/support.ts"
import { serveFetch } from "../support/events.ts"
import { LocalPlatform } from "../support/platform.ts"

describe("the platform's webhooks, received by sitefx", () => {
  it.layer(LocalPlatform.layer({ seed: "demo", webhookDelivery: { attempts: 4, retryBaseMillis: 20, retryCapMillis: 100 } }), { excludeTestServices: true })((it) => {
    it.effect("writes reach typed handlers with their entity and identity; a failing handler gets the event again", () =>
      Effect.scoped(Effect.gen(function*() {
        const platform = yield* LocalPlatform
        const key = Redacted.value(platform.apiKey)
        const { publicKey } = yield* Effect.promise(() => fetch(`${platform.url}${EventPaths.publicKey}`).then((r) => r.json() as Promise<{ publicKey: string }>))
        const items: Array<EventOf<typeof DataEventTypes.itemCreated>> = []
        const products: Array<EventOf<typeof CatalogV1EventTypes.productCreated>> = []
        const brands: Array<EventOf<typeof CatalogV3EventTypes.brand.created>> = []
        let failFirst = true
        const processor = Webhooks.handler({
          publicKey,
          handlers: {
            [DataEventTypes.itemCreated]: (e) =>
              Effect.suspend(() => {
                if (failFirst) {
                  failFirst = false
                  return Effect.fail("not now")
                }
                items.push(e)
                return Effect.void
              }),
            [CatalogV1EventTypes.productCreated]: (e) => Effect.sync(() => products.push(e)),
            [CatalogV3EventTypes.brand.created]: (e) => Effect.sync(() => brands.push(e))
          }
        })
        const receiver = yield* Effect.acquireRelease(Effect.promise(() => serveFetch(Webhooks.toFetchHandler(processor))), (s) => Effect.promise(() => s.close()))
        const registered = yield* Effect.promise(() =>
          fetch(`${platform.url}${EventPaths.webhooks}`, {
            method: "POST",
            headers: { authorization: key, "content-type": "application/json" },
            body: JSON.stringify({ url: `${receiver.url}/hooks`, eventTypes: [DataEventTypes.itemCreated, CatalogV1EventTypes.productCreated, CatalogV3EventTypes.brand.created] })
          })
        )
        assert.strictEqual(registered.status, 200)
        const c = yield* freshCollection("Hooked")
        const item = yield* asVisitor(DataItems.insert(c, { title: "hooked" }))
        const product = yield* asAdmin(Products.create({ name: `Hooked ${Date.now()}`, priceData: { price: 5 } }))
        const brand = yield* asAdmin(Brands.create({ name: `Hooked ${Date.now()}` }))
        for (let i = 0; i < 200 && (items.length === 0 || products.length === 0 || brands.length === 0); i++) yield* Effect.sleep("25 millis")
        assert.strictEqual(items.length, 1, "the item's event, once, after the handler failed the first time")
        assert.strictEqual(items[0]!.entityId, item._id)
        assert.strictEqual(items[0]!.identity?.identityType, "ANONYMOUS_VISITOR")
        assert.strictEqual(items[0]!.change._tag === "Created" && items[0]!.change.entity.data?.["title"], "hooked")
        assert.strictEqual(products[0]!.data.productId, product.id)
        assert.strictEqual(products[0]!.identity?.identityType, "WIX_USER")
        assert.strictEqual(brands[0]!.entityId, brand.id)
        assert.strictEqual(products[0]!.instanceId, platform.siteId)
      })))
  })
})
