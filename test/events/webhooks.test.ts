/**
 * sitefx's webhook processor with bodies signed as the platform signs them (RS256 with an RSA-2048 key
 * pair made here): each event type reaches its own typed handler with its decoded payload, identity and
 * account; one handler serves several types; accepted types run nothing; a failing handler is a typed
 * error; and both adapters (the fetch handler behind a real node:http server, the HttpRouter route on an
 * Effect Node server) answer over real HTTP.
 */
import { NodeHttpServer } from "@effect/platform-node"
import { assert, describe, expectTypeOf, it } from "@effect/vitest"
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as ManagedRuntime from "effect/ManagedRuntime"
import * as HttpRouter from "effect/http/HttpRouter"
import * as HttpServer from "effect/http/HttpServer"
import { createServer } from "node:http"
import type { Item } from "../../src/data/calls.ts"
import { decodeEnvelope, type EventOf, type SiteEvent } from "../../src/events/Event.ts"
import { CatalogV1EventTypes, CatalogV3EventTypes, DataEventTypes, EVENT_TYPES, type EventType } from "../../src/events/protocol.ts"
import * as Webhooks from "../../src/events/Webhooks.ts"
import { domainEvent, envelope, EVENT_TIME, rsaKeys, serveFetch, signEvent } from "../support/events.ts"

const keys = rsaKeys()
const sign = (eventType: string, payload: unknown, options: Parameters<typeof envelope>[2] = {}) =>
  signEvent(keys.privateKey, envelope(eventType, payload, options))

const v1 = CatalogV1EventTypes
const v3 = CatalogV3EventTypes
const member = { identityType: "MEMBER", memberId: "mem-1" } as const

const itemCreated = (id = "item-1") =>
  domainEvent("wix.data.v2.data_item", id, {
    createdEvent: {
      entity: { id, dataCollectionId: "Books", data: { _id: id, title: "Dune", _createdDate: { $date: EVENT_TIME } } }
    }
  })

/** A processor whose handlers record every event they get, under the handled types. */
const recorder = (types: ReadonlyArray<EventType>) => {
  const seen: Array<SiteEvent> = []
  const processor = Webhooks.handler({
    publicKey: keys.publicKey,
    handlers: Webhooks.forTypes(types, (event) => Effect.sync(() => void seen.push(event)))
  })
  return { seen, processor }
}

describe("Webhooks.handler: data item events", () => {
  it.effect("created: the entity with its fields as the data client gives them, the event's id, time, who and where", () =>
    Effect.gen(function*() {
      const seen: Array<EventOf<typeof DataEventTypes.itemCreated>> = []
      const processor = Webhooks.handler({
        publicKey: keys.publicKey,
        handlers: { [DataEventTypes.itemCreated]: (event) => Effect.sync(() => void seen.push(event)) }
      })
      const body = sign(DataEventTypes.itemCreated, itemCreated(), {
        identity: member,
        accountInfo: { accountId: "acc-1", siteId: "site-1" }
      })
      const event = yield* processor.process(body)
      assert.strictEqual(seen.length, 1)
      assert.strictEqual(seen[0], event)
      assert.strictEqual(event._tag, "Domain")
      assert.strictEqual(event.type, DataEventTypes.itemCreated)
      assert.strictEqual(event.id, "evt-item-1-createdEvent")
      assert.strictEqual(event.entityFqdn, "wix.data.v2.data_item")
      assert.strictEqual(event.entityId, "item-1")
      assert.strictEqual(event.instanceId, "inst-1")
      assert.deepStrictEqual(event.identity, member)
      assert.deepStrictEqual(event.accountInfo, { accountId: "acc-1", siteId: "site-1" })
      assert.deepStrictEqual(event.eventTime, new Date(EVENT_TIME))
      assert.strictEqual(event.entityEventSequence, "3")
      assert.strictEqual(event.triggeredByAnonymizeRequest, false)
      assert.strictEqual(event.change._tag, "Created")
      if (event.change._tag !== "Created") return
      const entity = event.change.entity
      expectTypeOf(entity.data).toEqualTypeOf<Item | undefined>()
      assert.strictEqual(entity.id, "item-1")
      assert.strictEqual(entity.dataCollectionId, "Books")
      assert.strictEqual(entity.data?._id, "item-1")
      assert.strictEqual(entity.data?.["title"], "Dune")
      assert.deepStrictEqual(entity.data?._createdDate, new Date(EVENT_TIME))
    }))

  it.effect("updated with modified fields, deleted with and without the entity: each to its own handler", () =>
    Effect.gen(function*() {
      const got: Array<string> = []
      const processor = Webhooks.handler({
        publicKey: keys.publicKey,
        handlers: {
          [DataEventTypes.itemUpdated]: (event) =>
            Effect.sync(() => {
              if (event.change._tag !== "Updated") throw new Error("expected an update")
              got.push(`updated ${event.change.entity.data?.["title"]} was ${JSON.stringify(event.change.modifiedFields)}`)
            }),
          [DataEventTypes.itemDeleted]: (event) =>
            Effect.sync(() => {
              if (event.change._tag !== "Deleted") throw new Error("expected a deletion")
              got.push(`deleted ${event.entityId} ${event.change.entity?.dataCollectionId ?? "(no entity)"} by ${event.identity?.identityType}`)
            })
        }
      })
      yield* processor.process(sign(
        DataEventTypes.itemUpdated,
        domainEvent("wix.data.v2.data_item", "item-1", {
          updatedEvent: { currentEntity: { id: "item-1", dataCollectionId: "Books", data: { title: "Dune 2" } }, modifiedFields: { title: "Dune" } }
        }),
        { identity: { identityType: "WIX_USER", wixUserId: "user-1" } }
      ))
      yield* processor.process(sign(
        DataEventTypes.itemDeleted,
        domainEvent("wix.data.v2.data_item", "item-1", { deletedEvent: { deletedEntity: { id: "item-1", dataCollectionId: "Books" } } }),
        { identity: { identityType: "APP", appId: "app-9" } }
      ))
      yield* processor.process(sign(
        DataEventTypes.itemDeleted,
        domainEvent("wix.data.v2.data_item", "item-2", { deletedEvent: {} }),
        { identity: { identityType: "ANONYMOUS_VISITOR", anonymousVisitorId: "vis-1" } }
      ))
      assert.deepStrictEqual(got, [
        `updated Dune 2 was {"title":"Dune"}`,
        "deleted item-1 Books by APP",
        "deleted item-2 (no entity) by ANONYMOUS_VISITOR"
      ])
    }))
})

describe("Webhooks.handler: catalog v1, inventory and cart events (legacy payloads)", () => {
  it.effect("products, variants and collections reach their handlers with their payloads", () =>
    Effect.gen(function*() {
      const got: Array<string> = []
      const processor = Webhooks.handler({
        publicKey: keys.publicKey,
        handlers: {
          [v1.productCreated]: (event) =>
            Effect.sync(() => void got.push(`created ${event.data.productId} ${event.data.name} ${event.data.price?.price} ${event.data.price?.currency}`)),
          [v1.productChanged]: (event) => Effect.sync(() => void got.push(`changed ${event.data.productId} ${event.data.changedFields?.join(",")}`)),
          [v1.productDeleted]: (event) => Effect.sync(() => void got.push(`deleted ${event.data.productId}`)),
          [v1.variantsChanged]: (event) =>
            Effect.sync(() => void got.push(`variants ${event.data.productId} ${event.data.variants?.map((v) => `${v.variantId}:${v.changedFields}`)}`)),
          [v1.collectionCreated]: (event) => Effect.sync(() => void got.push(`collection ${event.data.collection_Id} ${event.data.name}`)),
          [v1.collectionChanged]: (event) => Effect.sync(() => void got.push(`collection changed ${event.data.collection_Id}`)),
          [v1.collectionDeleted]: (event) => Effect.sync(() => void got.push(`collection deleted ${event.data.collection_Id}`))
        }
      })
      const who = { identity: { identityType: "WIX_USER", wixUserId: "user-1" } } as const
      const created = yield* processor.process(sign(
        v1.productCreated,
        { productId: "p-1", name: "Shirt", price: { price: 10.5, currency: "USD" }, visible: true, sku: "S1", slug: "shirt" },
        who
      ))
      assert.strictEqual(created._tag, "Legacy")
      assert.deepStrictEqual(created.identity, who.identity)
      assert.isUndefined(created.id)
      yield* processor.process(sign(v1.productChanged, { productId: "p-1", changedFields: ["name", "price"] }))
      yield* processor.process(sign(v1.productDeleted, { productId: "p-1" }))
      yield* processor.process(sign(v1.variantsChanged, { productId: "p-1", variants: [{ variantId: "v-1", changedFields: ["price"] }] }))
      yield* processor.process(sign(v1.collectionCreated, { collection_Id: "c-1", name: "Summer", visible: true }))
      yield* processor.process(sign(v1.collectionChanged, { collection_Id: "c-1", changedFields: ["name"] }))
      yield* processor.process(sign(v1.collectionDeleted, { collection_Id: "c-1" }))
      assert.deepStrictEqual(got, [
        "created p-1 Shirt 10.5 USD",
        "changed p-1 name,price",
        "deleted p-1",
        "variants p-1 v-1:price",
        "collection c-1 Summer",
        "collection changed c-1",
        "collection deleted c-1"
      ])
    }))

  it.effect("inventory and abandoned carts", () =>
    Effect.gen(function*() {
      const got: Array<string> = []
      const processor = Webhooks.handler({
        publicKey: keys.publicKey,
        handlers: {
          [v1.inventoryItemChanged]: (event) => Effect.sync(() => void got.push(`item ${event.data.inventoryItemId} track ${event.data.trackInventory}`)),
          [v1.inventoryVariantsChanged]: (event) =>
            Effect.sync(() => void got.push(`variants ${event.data.variants?.map((v) => `${v.id}:${v.oldValue?.quantity}->${v.newValue?.quantity}`)}`)),
          [v1.cartAbandoned]: (event) => Effect.sync(() => void got.push(`abandoned ${event.data.cartId} ${event.data.itemsCount} ${event.data.checkoutUrl}`)),
          [v1.cartRecovered]: (event) => Effect.sync(() => void got.push(`recovered ${event.data.cartId} at ${event.data.recoveredTime}`))
        }
      })
      yield* processor.process(sign(v1.inventoryItemChanged, { inventoryItemId: "inv-1", productId: "p-1", trackInventory: true, updatedDate: EVENT_TIME }))
      yield* processor.process(sign(v1.inventoryVariantsChanged, {
        inventoryItemId: "inv-1",
        productId: "p-1",
        variants: [{ id: "v-1", oldValue: { inStock: true, quantity: 3 }, newValue: { inStock: true, quantity: 2 } }]
      }))
      yield* processor.process(sign(v1.cartAbandoned, {
        cartId: "cart-1",
        abandonTime: EVENT_TIME,
        itemsCount: 2,
        checkoutUrl: "https://x.test/checkout",
        buyerInfo: { id: "b-1", identityType: "VISITOR" }
      }))
      yield* processor.process(sign(v1.cartRecovered, { cartId: "cart-1", recoveredTime: EVENT_TIME }))
      assert.deepStrictEqual(got, [
        "item inv-1 track true",
        "variants v-1:3->2",
        "abandoned cart-1 2 https://x.test/checkout",
        `recovered cart-1 at ${EVENT_TIME}`
      ])
    }))
})

describe("Webhooks.handler: catalog v3 entity events", () => {
  it.effect("product updated with modified fields, brand created, ribbon deleted, an inventory item and an action", () =>
    Effect.gen(function*() {
      const got: Array<string> = []
      const processor = Webhooks.handler({
        publicKey: keys.publicKey,
        handlers: {
          [v3.product.updated]: (event) =>
            Effect.sync(() => {
              if (event.change._tag === "Updated") got.push(`product ${event.change.entity.id} ${event.change.entity["name"]} was ${event.change.modifiedFields?.["name"]}`)
            }),
          [v3.product.created]: (event) =>
            Effect.sync(() => {
              if (event.change._tag === "Action") got.push(`action ${event.change.action} ${JSON.stringify(event.change.body)} on ${event.entityId}`)
            }),
          [v3.brand.created]: (event) =>
            Effect.sync(() => {
              if (event.change._tag === "Created") got.push(`brand ${event.change.entity.id} ${event.change.entity.name}`)
            }),
          [v3.ribbon.deleted]: (event) =>
            Effect.sync(() => {
              if (event.change._tag === "Deleted") got.push(`ribbon ${event.entityId} ${event.change.entity?.name}`)
            }),
          [v3.inventoryItem.updated]: (event) =>
            Effect.sync(() => {
              if (event.change._tag === "Updated") got.push(`inventory ${event.change.entity.id} ${event.change.entity.quantity}`)
            })
        }
      })
      const app = { identity: { identityType: "APP", appId: "app-9" } } as const
      const updated = yield* processor.process(sign(
        v3.product.updated,
        domainEvent("wix.stores.catalog.v3.product", "p-3", {
          updatedEvent: { currentEntity: { id: "p-3", name: "Hat", revision: "2" }, modifiedFields: { name: "Cap" } }
        }),
        app
      ))
      assert.strictEqual(updated.entityFqdn, "wix.stores.catalog.v3.product")
      yield* processor.process(sign(
        v3.product.created,
        domainEvent("wix.stores.catalog.v3.product", "p-4", { actionEvent: { body: { some: "payload" } } }, "x_action")
      ))
      yield* processor.process(sign(v3.brand.created, domainEvent("wix.stores.catalog.v3.brand", "b-1", { createdEvent: { entity: { id: "b-1", name: "Acme" } } })))
      yield* processor.process(sign(v3.ribbon.deleted, domainEvent("wix.stores.catalog.v3.ribbon", "r-1", { deletedEvent: { deletedEntity: { id: "r-1", name: "Sale" } } })))
      yield* processor.process(sign(
        v3.inventoryItem.updated,
        domainEvent("wix.stores.catalog.v3.inventory_item", "ii-1", { updatedEvent: { currentEntity: { id: "ii-1", quantity: 4 } } })
      ))
      assert.deepStrictEqual(got, [
        "product p-3 Hat was Cap",
        `action x_action {"some":"payload"} on p-4`,
        "brand b-1 Acme",
        "ribbon r-1 Sale",
        "inventory ii-1 4"
      ])
    }))
})

describe("Webhooks.handler: one handler for many types, accepted types, failing handlers", () => {
  it.effect("forTypes: one function serves every data and v1 product type, narrowing on the type", () =>
    Effect.gen(function*() {
      const { processor, seen } = recorder([...Object.values(DataEventTypes), v1.productCreated, v1.productDeleted])
      yield* processor.process(sign(DataEventTypes.itemCreated, itemCreated("a")))
      yield* processor.process(sign(v1.productDeleted, { productId: "p-9" }))
      yield* processor.process(sign(DataEventTypes.itemDeleted, domainEvent("wix.data.v2.data_item", "b", { deletedEvent: {} })))
      assert.deepStrictEqual(seen.map((e) => [e.type, e._tag]), [
        [DataEventTypes.itemCreated, "Domain"],
        [v1.productDeleted, "Legacy"],
        [DataEventTypes.itemDeleted, "Domain"]
      ])
      assert.sameMembers([...processor.types], [...Object.values(DataEventTypes), v1.productCreated, v1.productDeleted])
    }))

  it.effect("the same function under several keys gets the union of their events", () =>
    Effect.gen(function*() {
      const ids: Array<string> = []
      const onCollection = (event: EventOf<typeof v1.collectionCreated | typeof v1.collectionDeleted>) =>
        Effect.sync(() => void ids.push(`${event.type.split(".").at(-1)} ${event.data.collection_Id}`))
      const processor = Webhooks.handler({
        publicKey: keys.publicKey,
        handlers: { [v1.collectionCreated]: onCollection, [v1.collectionDeleted]: onCollection }
      })
      yield* processor.process(sign(v1.collectionCreated, { collection_Id: "c-1", name: "Summer" }))
      yield* processor.process(sign(v1.collectionDeleted, { collection_Id: "c-1" }))
      assert.deepStrictEqual(ids, ["CollectionCreated c-1", "CollectionDeleted c-1"])
    }))

  it.effect("exhaustive: the compiler requires a handler for every listed type; accepted types are acknowledged without one", () =>
    Effect.gen(function*() {
      const onItem = (event: EventOf<typeof DataEventTypes[keyof typeof DataEventTypes]>) => Effect.succeed(event.entityId)
      const complete = Webhooks.handler({
        publicKey: keys.publicKey,
        exhaustive: Object.values(DataEventTypes),
        accept: [v1.productChanged],
        handlers: {
          [DataEventTypes.itemCreated]: onItem,
          [DataEventTypes.itemUpdated]: onItem,
          [DataEventTypes.itemDeleted]: onItem
        }
      })
      Webhooks.handler({
        publicKey: keys.publicKey,
        exhaustive: Object.values(DataEventTypes),
        // @ts-expect-error the deletion has no handler
        handlers: {
          [DataEventTypes.itemCreated]: onItem,
          [DataEventTypes.itemUpdated]: onItem
        }
      })
      Webhooks.handler({
        publicKey: keys.publicKey,
        handlers: {
          // @ts-expect-error not an event type
          "wix.data.v2.data_item_crated": onItem
        }
      })
      const accepted = yield* complete.process(sign(v1.productChanged, { productId: "p-1", changedFields: ["name"] }))
      assert.strictEqual(accepted.type, v1.productChanged)
      expectTypeOf(accepted.type).toEqualTypeOf<typeof v1.productChanged | typeof DataEventTypes[keyof typeof DataEventTypes]>()
      const refused = yield* Effect.flip(complete.process(sign(v1.productDeleted, { productId: "p-1" })))
      assert.strictEqual(refused.reason._tag, "UnknownEventType")
      assert.strictEqual(refused.eventType, v1.productDeleted)
    }))

  it.effect("a failing handler is a HandlerFailed WebhookError carrying the handler's error", () =>
    Effect.gen(function*() {
      class Full extends Error {}
      const processor = Webhooks.handler({
        publicKey: keys.publicKey,
        handlers: { [DataEventTypes.itemCreated]: () => Effect.fail(new Full("inbox full")) }
      })
      const error = yield* Effect.flip(processor.process(sign(DataEventTypes.itemCreated, itemCreated())))
      assert.strictEqual(error._tag, "WebhookError")
      assert.strictEqual(error.reason._tag, "HandlerFailed")
      assert.strictEqual(error.eventType, DataEventTypes.itemCreated)
      assert.instanceOf(error.cause, Full)
    }))

  it.effect("the public key works as the base64 of its PEM on one line; parse decodes without dispatching", () =>
    Effect.gen(function*() {
      let ran = 0
      const processor = Webhooks.handler({
        publicKey: Buffer.from(keys.publicKey).toString("base64"),
        handlers: { [DataEventTypes.itemCreated]: () => Effect.sync(() => void ran++) }
      })
      const body = sign(DataEventTypes.itemCreated, itemCreated())
      const parsed = yield* processor.parse(body)
      assert.strictEqual(parsed.type, DataEventTypes.itemCreated)
      assert.strictEqual(ran, 0)
      yield* processor.process(`${body}\n`)
      assert.strictEqual(ran, 1)
    }))

  it.effect("decodeEnvelope decodes a bare envelope (a live-stream frame), taking the carrier's id for a legacy event", () =>
    Effect.gen(function*() {
      const legacy = yield* decodeEnvelope(envelope(v1.productDeleted, { productId: "p-1" }), "42")
      assert.strictEqual(legacy._tag, "Legacy")
      assert.strictEqual(legacy.id, "42")
      const domain = yield* decodeEnvelope(envelope(DataEventTypes.itemCreated, itemCreated()), "43")
      assert.strictEqual(domain.id, "evt-item-1-createdEvent")
      const unknown = yield* Effect.flip(decodeEnvelope(envelope("wix.some.other_event", {})))
      assert.strictEqual(unknown.reason._tag, "UnknownEventType")
      assert.isTrue(EVENT_TYPES.length > 30)
    }))
})

describe("Webhooks adapters over real HTTP", () => {
  it.live("toFetchHandler behind a node:http server: 200 after the handler ran, 401, 400, 405, 413 and 500 with short JSON errors", () =>
    Effect.promise(async () => {
      const got: Array<string> = []
      const processor = Webhooks.handler({
        publicKey: keys.publicKey,
        maxBodyBytes: 64 * 1024,
        handlers: {
          [DataEventTypes.itemCreated]: (event) => Effect.sync(() => void got.push(event.entityId)),
          [DataEventTypes.itemDeleted]: () => Effect.fail("nope")
        }
      })
      const server = await serveFetch(Webhooks.toFetchHandler(processor))
      try {
        const post = async (body: string) => {
          const res = await fetch(`${server.url}/webhooks`, { method: "POST", body, headers: { "content-type": "text/plain" } })
          return { status: res.status, body: await res.json() as Record<string, unknown> }
        }
        assert.deepStrictEqual(await post(sign(DataEventTypes.itemCreated, itemCreated("x-1"))), { status: 200, body: { ok: true } })
        assert.deepStrictEqual(got, ["x-1"])
        const other = rsaKeys()
        const forged = await post(signEvent(other.privateKey, envelope(DataEventTypes.itemCreated, itemCreated("x-2"))))
        assert.strictEqual(forged.status, 401)
        assert.strictEqual(forged.body["error"], "BadSignature")
        const junk = await post("not a token")
        assert.strictEqual(junk.status, 400)
        assert.strictEqual(junk.body["error"], "Malformed")
        const unhandled = await post(sign(v1.productDeleted, { productId: "p-1" }))
        assert.strictEqual(unhandled.status, 400)
        assert.strictEqual(unhandled.body["error"], "UnknownEventType")
        const failed = await post(sign(DataEventTypes.itemDeleted, domainEvent("wix.data.v2.data_item", "x-3", { deletedEvent: {} })))
        assert.deepStrictEqual(failed, { status: 500, body: { error: "HandlerFailed", message: "The event's handler failed" } })
        const big = await post("a".repeat(65 * 1024))
        assert.strictEqual(big.status, 413)
        const get = await fetch(`${server.url}/webhooks`)
        assert.strictEqual(get.status, 405)
        assert.strictEqual(get.headers.get("allow"), "POST")
        assert.deepStrictEqual(got, ["x-1"])
      } finally {
        await server.close()
      }
    }))

  it.live("toFetchHandler with a runner: handlers that need services get them from a ManagedRuntime", () =>
    Effect.promise(async () => {
      class Inbox extends Context.Service<Inbox, { readonly ids: Array<string> }>()("test/events/Inbox") {}
      const ids: Array<string> = []
      const runtime = ManagedRuntime.make(Layer.succeed(Inbox, Inbox.of({ ids })))
      const processor = Webhooks.handler({
        publicKey: keys.publicKey,
        handlers: { [DataEventTypes.itemCreated]: (event) => Inbox.use((inbox) => Effect.sync(() => void inbox.ids.push(event.entityId))) }
      })
      const server = await serveFetch(Webhooks.toFetchHandler(processor, runtime))
      try {
        const res = await fetch(server.url, { method: "POST", body: sign(DataEventTypes.itemCreated, itemCreated("r-1")) })
        assert.strictEqual(res.status, 200)
        assert.deepStrictEqual(ids, ["r-1"])
      } finally {
        await server.close()
        await runtime.dispose()
      }
    }))

  it.live("Webhooks.route on an Effect HttpRouter served by a Node server, its handler's services from the server's layer", () => {
    class Inbox extends Context.Service<Inbox, { readonly ids: Array<string> }>()("test/events/RouteInbox") {}
    const ids: Array<string> = []
    const processor = Webhooks.handler({
      publicKey: keys.publicKey,
      maxBodyBytes: 64 * 1024,
      handlers: {
        ...Webhooks.forTypes([DataEventTypes.itemCreated, DataEventTypes.itemUpdated], (event) =>
          Inbox.use((inbox) => Effect.sync(() => void inbox.ids.push(`${event.change._tag} ${event.entityId}`))))
      }
    })
    const server = HttpRouter.serve(Webhooks.route("/hooks/site", processor), { disableLogger: true, disableListenLog: true }).pipe(
      Layer.provideMerge(NodeHttpServer.layer(createServer, { port: 0, host: "127.0.0.1" })),
      Layer.provide(Layer.succeed(Inbox, Inbox.of({ ids })))
    )
    return Effect.gen(function*() {
      const url = yield* HttpServer.addressFormattedWith((address) => Effect.succeed(`${address}/hooks/site`))
      const post = (body: string) =>
        Effect.promise(async () => {
          const res = await fetch(url, { method: "POST", body })
          return { status: res.status, body: await res.json() as Record<string, unknown> }
        })
      assert.deepStrictEqual(yield* post(sign(DataEventTypes.itemCreated, itemCreated("h-1"))), { status: 200, body: { ok: true } })
      const updated = yield* post(sign(
        DataEventTypes.itemUpdated,
        domainEvent("wix.data.v2.data_item", "h-1", { updatedEvent: { currentEntity: { id: "h-1", dataCollectionId: "Books", data: {} } } })
      ))
      assert.strictEqual(updated.status, 200)
      const expired = yield* post(signEvent(keys.privateKey, envelope(DataEventTypes.itemCreated, itemCreated("h-2")), { exp: 1_000_000 }))
      assert.deepStrictEqual(expired, { status: 401, body: { error: "Expired", message: "The token has expired" } })
      const big = yield* post("b".repeat(65 * 1024))
      assert.strictEqual(big.status, 413)
      const unhandled = yield* post(sign(DataEventTypes.itemDeleted, domainEvent("wix.data.v2.data_item", "h-1", { deletedEvent: {} })))
      assert.strictEqual(unhandled.status, 400)
      const get = yield* Effect.promise(() => fetch(url))
      assert.strictEqual(get.status, 404)
      assert.deepStrictEqual(ids, ["Created h-1", "Updated h-1"])
    }).pipe(Effect.provide(server))
  })
})
