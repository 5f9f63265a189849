/**
 * The official `@wix/sdk` webhook processing, unchanged, on bodies the local platform actually
 * delivered: a receiver in the test takes the platform's deliveries of data, catalog v1 and v3 writes;
 * `client.webhooks.process(body)` with `AppStrategy({ appId, publicKey })` (the platform's public key,
 * as PEM text and as the base64 of the PEM) verifies each one and runs the handlers registered through
 * the modules' event definitions, which see the entity and who made the change. A body altered on the
 * way runs no handler.
 */
import { assert, describe, it } from "@effect/vitest"
import { items } from "@wix/data"
import { AppStrategy, createClient } from "@wix/sdk"
import { brandsV3, products } from "@wix/stores"
import * as Effect from "effect/Effect"
import type { Scope } from "effect/Scope"
import * as http from "node:http"
import type { AddressInfo } from "node:net"
import * as Brands from "../../src/catalog/entities/Brands.ts"
import * as Products from "../../src/catalog/Products.ts"
import * as DataItems from "../../src/data/DataItems.ts"
import { EventPaths, WebhookHeaders } from "../../src/events/protocol.ts"
import { asAdmin, asVisitor, freshCollection } from "../data/support.ts"
import { LocalPlatform } from "../support/platform.ts"
import { asMember, raw } from "../support/store.ts"

/** A node:http server that keeps the bodies the platform POSTs to it, in order. */
const receiver: Effect.Effect<{ readonly url: string; readonly bodies: Array<string> }, never, Scope> = Effect.acquireRelease(
  Effect.promise(() =>
    new Promise<{ readonly url: string; readonly bodies: Array<string>; readonly server: http.Server }>((resolve) => {
      const bodies: Array<string> = []
      const server = http.createServer((req, res) => {
        let body = ""
        req.setEncoding("utf8")
        req.on("data", (chunk) => {
          body += chunk
        })
        req.on("end", () => {
          assert.match(String(req.headers[WebhookHeaders.eventId]), /^\d+$/)
          bodies.push(body)
          res.writeHead(200).end()
        })
      })
      server.listen(0, "127.0.0.1", () => resolve({ url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/wix-webhooks`, bodies, server }))
    })
  ),
  ({ server }) =>
    Effect.promise(() =>
      new Promise<void>((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      })
    )
)

const until = (check: () => boolean) =>
  Effect.gen(function*() {
    for (let i = 0; i < 500 && !check(); i++) yield* Effect.sleep("20 millis")
    assert.isTrue(check(), "the deliveries arrived")
  })

const officialApp = (publicKey: string) =>
  createClient({ auth: AppStrategy({ appId: "sitefx-compat-app", publicKey }), modules: { items, products, brandsV3 } })

describe("official @wix/sdk webhooks.process on the local platform's deliveries", () => {
  it.layer(LocalPlatform.layer({ seed: "demo" }), { excludeTestServices: true })((it) => {
    it.effect("data, catalog v1 and v3 events reach the modules' handlers with the entity and who made them", () =>
      Effect.scoped(Effect.gen(function*() {
        const platform = yield* LocalPlatform
        const publicKey = (yield* raw("GET", EventPaths.publicKey, undefined, "none")).body.publicKey as string
        const r = yield* receiver
        const subscribed = yield* raw("POST", EventPaths.webhooks, { url: r.url })
        assert.strictEqual(subscribed.status, 200)
        yield* Effect.addFinalizer(() => Effect.asVoid(raw("DELETE", `${EventPaths.webhooks}/${subscribed.body.webhook.id}`)))

        const c = yield* freshCollection("Official")
        const byVisitor = yield* asVisitor(DataItems.insert(c, { title: "Dune" }))
        const byMember = yield* asMember(DataItems.insert(c, { title: "Emma" }))
        yield* asAdmin(DataItems.update(c, { ...byVisitor, title: "Dune Messiah" }))
        yield* asAdmin(DataItems.remove(c, byMember._id))
        const product = yield* asAdmin(Products.create({ name: `Official ${Date.now()}`, priceData: { price: 12.5 } }))
        const brand = yield* asAdmin(Brands.create({ name: `Official brand ${Date.now()}` }))
        yield* until(() => r.bodies.length >= 6)

        const client = officialApp(publicKey)
        const seen: Array<{ readonly handler: string; readonly event: any }> = []
        const record = (handler: string) => (event: unknown) => {
          seen.push({ handler, event })
        }
        client.items.onDataItemCreated(record("items.onDataItemCreated"))
        client.items.onDataItemUpdated(record("items.onDataItemUpdated"))
        client.items.onDataItemDeleted(record("items.onDataItemDeleted"))
        client.products.onProductCreated(record("products.onProductCreated"))
        client.brandsV3.onBrandCreated(record("brandsV3.onBrandCreated"))

        const processed = []
        for (const body of r.bodies.slice(0, 6)) processed.push(yield* Effect.promise(() => client.webhooks.process(body)))
        assert.deepStrictEqual(seen.map((s) => s.handler), [
          "items.onDataItemCreated",
          "items.onDataItemCreated",
          "items.onDataItemUpdated",
          "items.onDataItemDeleted",
          "products.onProductCreated",
          "brandsV3.onBrandCreated"
        ])
        for (const result of processed) {
          assert.strictEqual(result.instanceId, platform.siteId)
          assert.strictEqual(result.accountInfo?.siteId, platform.siteId)
        }

        // data items: domain events, entity {_id, dataCollectionId, data}, metadata with the identity
        const [created, createdByMember, updated, deleted, productCreated, brandCreated] = seen.map((s) => s.event)
        assert.strictEqual(created.entity._id, byVisitor._id)
        assert.strictEqual(created.entity.dataCollectionId, c)
        assert.strictEqual(created.entity.data.title, "Dune")
        assert.strictEqual(created.metadata.instanceId, platform.siteId)
        assert.strictEqual(created.metadata.entityId, byVisitor._id)
        assert.instanceOf(created.metadata.eventTime, Date)
        assert.strictEqual(created.metadata.identity.identityType, "ANONYMOUS_VISITOR")
        assert.isString(created.metadata.identity.anonymousVisitorId)
        assert.strictEqual(createdByMember.entity.data.title, "Emma")
        assert.strictEqual(createdByMember.metadata.identity.identityType, "MEMBER")
        assert.isString(createdByMember.metadata.identity.memberId)
        assert.strictEqual(updated.entity._id, byVisitor._id)
        assert.strictEqual(updated.entity.data.title, "Dune Messiah")
        assert.strictEqual(updated.modifiedFields.title, "Dune")
        assert.strictEqual(updated.metadata.identity.identityType, "WIX_USER")
        assert.strictEqual(deleted.entity._id, byMember._id)
        assert.strictEqual(deleted.metadata.entityId, byMember._id)

        // catalog v1: a non-domain event, the payload as data
        assert.strictEqual(productCreated.data.productId, product.id)
        assert.strictEqual(productCreated.data.name, product.name)
        assert.strictEqual(productCreated.metadata.identity.identityType, "WIX_USER")
        // catalog v3: a domain event with the brand as entity
        assert.strictEqual(brandCreated.entity._id, brand.id)
        assert.strictEqual(brandCreated.entity.name, brand.name)
        assert.strictEqual(brandCreated.metadata.entityId, brand.id)
      })))

    it.effect("the public key as the base64 of the PEM works the same; a body altered on the way runs no handler", () =>
      Effect.scoped(Effect.gen(function*() {
        const publicKey = (yield* raw("GET", EventPaths.publicKey, undefined, "none")).body.publicKey as string
        const r = yield* receiver
        const subscribed = yield* raw("POST", EventPaths.webhooks, { url: r.url, eventTypes: ["wix.data.v2.data_item_created"] })
        yield* Effect.addFinalizer(() => Effect.asVoid(raw("DELETE", `${EventPaths.webhooks}/${subscribed.body.webhook.id}`)))
        const c = yield* freshCollection("Altered")
        const item = yield* asAdmin(DataItems.insert(c, { title: "original" }))
        yield* until(() => r.bodies.length >= 1)
        const body = r.bodies[0]!

        const client = officialApp(Buffer.from(publicKey).toString("base64"))
        const titles: Array<string> = []
        client.items.onDataItemCreated((event) => {
          titles.push(String((event.entity as { data?: { title?: unknown } }).data?.title))
        })
        const result = yield* Effect.promise(() => client.webhooks.process(body))
        assert.strictEqual(result.eventType, "wix.data.v2.data_item_created")
        assert.deepStrictEqual(titles, ["original"])

        // the same claims with another title, under the platform's signature
        const [header, payload, signature] = body.split(".")
        const claims = JSON.parse(Buffer.from(payload!, "base64url").toString("utf8"))
        const altered = Buffer.from(JSON.stringify({ ...claims, data: claims.data.replace("original", "altered!") })).toString("base64url")
        const refused = yield* Effect.promise(() => client.webhooks.process(`${header}.${altered}.${signature}`).then(() => undefined, (e: Error) => e))
        assert.instanceOf(refused, Error)
        assert.deepStrictEqual(titles, ["original"], "no handler ran")
        assert.strictEqual(item.title, "original")
      })))
  })
})
