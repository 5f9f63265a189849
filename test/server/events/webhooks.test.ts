/**
 * Webhook deliveries of the local platform over real HTTP, to node:http receivers in the test: data and
 * catalog writes arrive signed with the site's key (verified here with node:crypto), with their type,
 * entity and who made them; retries are spaced and deliver once; receivers that never succeed end in
 * dead letters that redeliver once they are up; final answers (4xx, redirects) are not retried; event
 * types filter; one receiver gets its events in order; slow receivers never slow writes; the admin API
 * refuses visitors, members and bad bodies; start-up subscriptions (options, `sitefx serve --webhook`)
 * and a database file that outlives the platform.
 */
import { afterEach, assert, describe, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as Redacted from "effect/Redacted"
import type { Scope } from "effect/Scope"
import { type ChildProcess, spawn } from "node:child_process"
import { createPublicKey, verify } from "node:crypto"
import * as http from "node:http"
import type { AddressInfo } from "node:net"
import { join } from "node:path"
import * as Products from "../../../src/catalog/Products.ts"
import * as DataItems from "../../../src/data/DataItems.ts"
import type { Item } from "../../../src/data/calls.ts"
import {
  CatalogV1EventTypes,
  DataEventTypes,
  type DomainEvent,
  EVENT_TYPES,
  type EventEnvelope,
  EventPaths,
  type Identity,
  WebhookHeaders
} from "../../../src/events/protocol.ts"
import { PlatformAuth } from "../../../src/http/PlatformClient.ts"
import type { LocalPlatformOptions } from "../../../src/server/index.ts"
import { asAdmin, asVisitor, freshCollection } from "../../data/support.ts"
import { backoffMillis, DEFAULT_DELIVERY_POLICY, deliveryPolicy } from "../../../src/server/events/webhooks/index.ts"
import { dev, LocalPlatform, onPlatform, tempDir } from "../../support/platform.ts"
import { asMember, raw } from "../../support/store.ts"

// ---------------------------------------------------------------------------------------------------
// a receiver: a node:http server that records what it is sent and answers as the test says

interface Received {
  readonly body: string
  readonly headers: http.IncomingHttpHeaders
  /** When the request arrived (ms). */
  readonly at: number
  readonly status: number
}

interface Answer {
  readonly status: number
  readonly delayMs?: number
  readonly headers?: Record<string, string>
}

interface Receiver {
  readonly url: string
  readonly received: Array<Received>
  /** How the receiver answers its n-th request (0-based); tests change it. */
  answer: (n: number) => Answer
  /** Waits until `predicate` holds for what was received (fails the test after `ms`). */
  readonly until: (predicate: (received: ReadonlyArray<Received>) => boolean, ms?: number) => Effect.Effect<ReadonlyArray<Received>>
}

const receiver = (answer: (n: number) => Answer = () => ({ status: 200 })): Effect.Effect<Receiver, never, Scope> =>
  Effect.acquireRelease(
    Effect.promise(() =>
      new Promise<{ readonly receiver: Receiver; readonly server: http.Server }>((resolve) => {
        const received: Array<Received> = []
        const server = http.createServer((req, res) => {
          const at = Date.now()
          let body = ""
          req.setEncoding("utf8")
          req.on("data", (chunk) => {
            body += chunk
          })
          req.on("end", () => {
            const a = self.answer(received.length)
            received.push({ body, headers: req.headers, at, status: a.status })
            setTimeout(() => {
              res.writeHead(a.status, { "content-type": "text/plain", ...a.headers })
              res.end(a.status < 300 ? "ok" : "no thanks")
            }, a.delayMs ?? 0)
          })
        })
        const self: Receiver = {
          url: "",
          received,
          answer,
          until: (predicate, ms = 10_000) =>
            Effect.gen(function*() {
              const deadline = Date.now() + ms
              while (!predicate(received)) {
                if (Date.now() > deadline) return yield* Effect.die(new Error(`receiver: still waiting after ${ms} ms (${received.length} received)`))
                yield* Effect.sleep("20 millis")
              }
              return received
            })
        }
        server.listen(0, "127.0.0.1", () => {
          Object.assign(self, { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks` })
          resolve({ receiver: self, server })
        })
      })
    ),
    ({ server }) =>
      Effect.promise(() =>
        new Promise<void>((resolve) => {
          server.closeAllConnections()
          server.close(() => resolve())
        })
      )
  ).pipe(Effect.map(({ receiver }) => receiver))

/** A port nothing listens on. */
const closedPort = () =>
  new Promise<number>((resolve) => {
    const server = http.createServer()
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as AddressInfo
      server.close(() => resolve(port))
    })
  })

// ---------------------------------------------------------------------------------------------------
// what a delivery carries, verified the way a receiver would

interface Delivery {
  readonly header: { readonly alg: string; readonly typ?: string }
  readonly claims: { readonly data: string; readonly iat: number; readonly exp: number }
  readonly envelope: EventEnvelope
  readonly payload: any
  readonly identity: Identity
  readonly eventId: number
}

const b64json = (part: string) => JSON.parse(Buffer.from(part, "base64url").toString("utf8"))

/** Verifies the body's RS256 signature with the site's public key (fails the test otherwise) and decodes it. */
const open = (publicKey: string, r: Received): Delivery => {
  const [h, p, s] = r.body.split(".")
  assert.isTrue(
    verify("RSA-SHA256", Buffer.from(`${h}.${p}`), createPublicKey(publicKey), Buffer.from(s!, "base64url")),
    "the body verifies with the site's public key"
  )
  const claims = b64json(p!)
  assert.isString(claims.data, "claim data is JSON text")
  const envelope = JSON.parse(claims.data) as EventEnvelope
  return {
    header: b64json(h!),
    claims,
    envelope,
    payload: JSON.parse(envelope.data),
    identity: JSON.parse(envelope.identity!) as Identity,
    eventId: Number(r.headers[WebhookHeaders.eventId])
  }
}

// ---------------------------------------------------------------------------------------------------
// the platform's webhook calls

const publicKey = Effect.map(raw("GET", EventPaths.publicKey, undefined, "none"), (r) => r.body.publicKey as string)

/** A subscription through the admin API, deleted when the test's scope closes. */
const subscribe = (url: string, eventTypes?: ReadonlyArray<string>) =>
  Effect.acquireRelease(
    Effect.map(raw("POST", EventPaths.webhooks, { url, ...(eventTypes === undefined ? {} : { eventTypes }) }), (r) => {
      assert.strictEqual(r.status, 200, JSON.stringify(r.body))
      return r.body.webhook as { id: string; url: string; eventTypes: Array<string>; createdDate: string }
    }),
    (webhook) => Effect.asVoid(raw("DELETE", `${EventPaths.webhooks}/${webhook.id}`))
  )

const deadLetters = (webhookId: string) => Effect.map(dev<{ deadLetters: Array<any> }>(`/webhooks/dead-letters?webhookId=${webhookId}`), (r) => r.deadLetters)

const untilDeadLetters = (webhookId: string, n: number) =>
  Effect.gen(function*() {
    for (let i = 0; i < 250; i++) {
      const letters = yield* deadLetters(webhookId)
      if (letters.length >= n && letters.every((l) => !l.redelivering)) return letters
      yield* Effect.sleep("20 millis")
    }
    return assert.fail(`no ${n} dead letters for ${webhookId}`)
  })

const insertAsAdmin = (collection: string, item: Record<string, unknown>) => asAdmin(DataItems.insert(collection, item))

/** Deliveries (verified) whose data item is in `collection`. */
const ofCollection = (key: string, collection: string) => (received: ReadonlyArray<Received>) =>
  received.map((r) => open(key, r)).filter((d) => {
    const change = (d.payload as DomainEvent)
    const entity = (change.createdEvent?.entity ?? change.updatedEvent?.currentEntity ?? change.deletedEvent?.deletedEntity) as { dataCollectionId?: string } | undefined
    return entity?.dataCollectionId === collection
  })

const DELIVERY = { attempts: 4, retryBaseMillis: 100, retryCapMillis: 2000, timeoutMillis: 5000 } as const

describe("webhook deliveries", () => {
  it.layer(LocalPlatform.layer({ seed: "demo", webhookDelivery: DELIVERY }), { excludeTestServices: true })((it) => {
    it.effect("a data write and a catalog write reach the receiver signed, with type, entity and who made them", () =>
      Effect.scoped(Effect.gen(function*() {
        const platform = yield* LocalPlatform
        const key = yield* publicKey
        assert.strictEqual((yield* dev<{ publicKey: string }>("/webhooks/public-key")).publicKey, key)
        const r = yield* receiver()
        const webhook = yield* subscribe(r.url, [DataEventTypes.itemCreated, CatalogV1EventTypes.productCreated])
        assert.deepStrictEqual(webhook.eventTypes, [DataEventTypes.itemCreated, CatalogV1EventTypes.productCreated])
        const c = yield* freshCollection("Hooked")
        const item = yield* asVisitor(DataItems.insert(c, { title: "from a visitor" }))
        const product = yield* asAdmin(Products.create({ name: `Hooked ${Date.now()}`, priceData: { price: 7 } }))
        const received = yield* r.until((all) => all.length >= 2)
        assert.strictEqual(received.length, 2)

        const [first, second] = received.map((x) => open(key, x))
        for (const [raw, delivery] of [[received[0]!, first!], [received[1]!, second!]] as const) {
          assert.match(String(raw.headers["content-type"]), /^text\/plain/)
          assert.strictEqual(raw.headers[WebhookHeaders.webhookId], webhook.id)
          assert.strictEqual(raw.headers[WebhookHeaders.attempt], "1")
          assert.deepStrictEqual(delivery.header, { alg: "RS256", typ: "JWT" })
          assert.strictEqual(delivery.claims.exp - delivery.claims.iat, 600)
          assert.approximately(delivery.claims.iat, Date.now() / 1000, 30)
          assert.strictEqual(delivery.envelope.instanceId, platform.siteId)
          assert.strictEqual(delivery.envelope.accountInfo?.siteId, platform.siteId)
        }
        assert.isBelow(first!.eventId, second!.eventId)

        assert.strictEqual(first!.envelope.eventType, DataEventTypes.itemCreated)
        const created = first!.payload as DomainEvent
        assert.strictEqual(created.entityId, item._id)
        assert.strictEqual(created.entityFqdn, "wix.data.v2.data_item")
        assert.strictEqual(created.slug, "created")
        const entity = created.createdEvent!.entity as { id: string; dataCollectionId: string; data: { _id: string; title: string } }
        assert.deepStrictEqual([entity.id, entity.dataCollectionId, entity.data._id, entity.data.title], [item._id, c, item._id, "from a visitor"])
        assert.strictEqual(first!.identity.identityType, "ANONYMOUS_VISITOR")
        assert.isString(first!.identity.anonymousVisitorId)

        assert.strictEqual(second!.envelope.eventType, CatalogV1EventTypes.productCreated)
        assert.strictEqual(second!.payload.productId, product.id)
        assert.strictEqual(second!.payload.name, product.name)
        assert.deepStrictEqual(second!.identity.identityType, "WIX_USER")
      })))

    it.effect("a receiver failing three times, then answering 200, gets the event once; the retries are spaced and signed afresh", () =>
      Effect.scoped(Effect.gen(function*() {
        const key = yield* publicKey
        const r = yield* receiver((n) => ({ status: [503, 500, 429][n] ?? 200 }))
        const webhook = yield* subscribe(r.url, [DataEventTypes.itemCreated])
        const c = yield* freshCollection("Flaky")
        const item = yield* insertAsAdmin(c, { title: "eventually" })
        const received = yield* r.until((all) => all.some((x) => x.status === 200))
        // nothing more comes once it was taken
        yield* Effect.sleep("600 millis")
        assert.deepStrictEqual(received.map((x) => x.status), [503, 500, 429, 200])
        assert.deepStrictEqual(received.map((x) => x.headers[WebhookHeaders.attempt]), ["1", "2", "3", "4"])
        const deliveries = received.map((x) => open(key, x))
        assert.isTrue(deliveries.every((d) => d.eventId === deliveries[0]!.eventId && (d.payload as DomainEvent).entityId === item._id))
        // backoff: at least half of 100, 200, 400 ms (jitter takes up to half away)
        const gaps = received.slice(1).map((x, i) => x.at - received[i]!.at)
        gaps.forEach((gap, i) => assert.isAtLeast(gap, 50 * 2 ** i - 5, `gap ${i + 1}: ${gaps.join(", ")}`))
        assert.isBelow(gaps[2]!, 2000)
        assert.deepStrictEqual(yield* deadLetters(webhook.id), [])
      })))

    it.effect("a receiver that never succeeds ends in the dead letters; redelivery works once it is up", () =>
      Effect.scoped(Effect.gen(function*() {
        const key = yield* publicKey
        const r = yield* receiver(() => ({ status: 500 }))
        const webhook = yield* subscribe(r.url, [DataEventTypes.itemCreated, DataEventTypes.itemDeleted])
        const c = yield* freshCollection("Down")
        const first = yield* insertAsAdmin(c, { title: "one" })
        const second = yield* insertAsAdmin(c, { title: "two" })
        const letters = yield* untilDeadLetters(webhook.id, 2)
        assert.strictEqual(r.received.length, 8, "4 attempts each")
        // newest first
        assert.deepStrictEqual(letters.map((l) => l.eventType), [DataEventTypes.itemCreated, DataEventTypes.itemCreated])
        const ids = r.received.map((x) => open(key, x)).map((d) => (d.payload as DomainEvent).entityId)
        assert.deepStrictEqual(ids, [first._id, first._id, first._id, first._id, second._id, second._id, second._id, second._id])
        for (const letter of letters) {
          assert.strictEqual(letter.webhookId, webhook.id)
          assert.strictEqual(letter.url, r.url)
          assert.strictEqual(letter.attempts, 4)
          assert.strictEqual(letter.lastStatus, 500)
          assert.match(letter.lastError, /^HTTP 500: no thanks/)
          assert.isFalse(letter.redelivering)
          assert.isFalse(Number.isNaN(Date.parse(letter.failedDate)))
        }
        assert.isAbove(letters[0].eventId, letters[1].eventId)

        // still down: a redelivery fails again and the dead letter counts the attempts
        const again = yield* dev(`/webhooks/dead-letters/${letters[1].id}/redeliver`, { method: "POST", body: {} })
        assert.strictEqual(again.deadLetter.redelivering, true)
        assert.strictEqual(again.deadLetter.id, letters[1].id)
        yield* r.until((all) => all.length === 12)
        const updated = (yield* untilDeadLetters(webhook.id, 2)).find((l) => l.id === letters[1].id)
        assert.strictEqual(updated.attempts, 8)

        // up again: one redelivery, signed afresh, then the dead letter is gone
        r.answer = () => ({ status: 200 })
        yield* dev(`/webhooks/dead-letters/${letters[1].id}/redeliver`, { method: "POST", body: {} })
        const received = yield* r.until((all) => all.some((x) => x.status === 200))
        const redelivered = open(key, received.at(-1)!)
        assert.strictEqual(redelivered.eventId, letters[1].eventId)
        assert.strictEqual((redelivered.payload as DomainEvent).entityId, first._id)
        assert.isAtLeast(redelivered.claims.iat, open(key, received[0]!).claims.iat)
        for (let i = 0; i < 50 && (yield* deadLetters(webhook.id)).length !== 1; i++) yield* Effect.sleep("20 millis")
        assert.deepStrictEqual((yield* deadLetters(webhook.id)).map((l) => l.id), [letters[0].id])

        // the rest at once
        assert.deepStrictEqual(yield* dev("/webhooks/dead-letters/redeliver", { method: "POST", body: {} }), { redelivering: 1 })
        yield* r.until((all) => all.filter((x) => x.status === 200).length === 2)
        for (let i = 0; i < 50 && (yield* deadLetters(webhook.id)).length !== 0; i++) yield* Effect.sleep("20 millis")
        assert.deepStrictEqual(yield* deadLetters(webhook.id), [])
        const unknown = yield* raw("POST", "/_sitefx/webhooks/dead-letters/nope/redeliver", {}, "none")
        assert.deepStrictEqual([unknown.status, unknown.body.details.applicationError.code], [404, "DEAD_LETTER_NOT_FOUND"])
      })))

    it.effect("final answers are not retried (4xx, a redirect, which is not followed); network errors are", () =>
      Effect.scoped(Effect.gen(function*() {
        const elsewhere = yield* receiver()
        const gone = yield* receiver(() => ({ status: 404 }))
        const moved = yield* receiver(() => ({ status: 302, headers: { location: elsewhere.url } }))
        const nobody = `http://127.0.0.1:${yield* Effect.promise(closedPort)}/hooks`
        const hooks = yield* Effect.all([gone.url, moved.url, nobody].map((url) => subscribe(url, [DataEventTypes.itemCreated])))
        const c = yield* freshCollection("Final")
        yield* insertAsAdmin(c, { title: "x" })
        const [gone404, moved302, refused] = yield* Effect.all(hooks.map((h) => untilDeadLetters(h.id, 1)))
        assert.deepStrictEqual([gone404![0].attempts, gone404![0].lastStatus], [1, 404])
        assert.strictEqual(gone.received.length, 1)
        assert.deepStrictEqual([moved302![0].attempts, moved302![0].lastStatus], [1, 302])
        assert.include(moved302![0].lastError, "not followed")
        assert.strictEqual(elsewhere.received.length, 0, "the redirect was not followed")
        assert.strictEqual(refused![0].attempts, DELIVERY.attempts)
        assert.notProperty(refused![0], "lastStatus")
        assert.match(refused![0].lastError, /could not be reached.*ECONNREFUSED/)
        // discarding
        const discarded = yield* raw("DELETE", `/_sitefx/webhooks/dead-letters/${gone404![0].id}`, undefined, "none")
        assert.deepStrictEqual(discarded.body, { discarded: 1 })
        assert.deepStrictEqual(yield* deadLetters(hooks[0]!.id), [])
        assert.deepStrictEqual((yield* raw("DELETE", `/_sitefx/webhooks/dead-letters?webhookId=${hooks[2]!.id}`, undefined, "none")).body, { discarded: 1 })
      })))

    it.effect("event types filter; one receiver gets its events in the order they happened, retries and all", () =>
      Effect.scoped(Effect.gen(function*() {
        const key = yield* publicKey
        const updates = yield* receiver()
        // every other request fails once: order holds through retries
        const everything = yield* receiver((n) => ({ status: n % 2 === 0 ? 503 : 200 }))
        yield* subscribe(updates.url, [DataEventTypes.itemUpdated])
        const all = yield* subscribe(everything.url)
        assert.deepStrictEqual(all.eventTypes, [...EVENT_TYPES])
        const c = yield* freshCollection("Ordered")
        const items: Array<Item> = []
        for (let i = 0; i < 6; i++) items.push(yield* insertAsAdmin(c, { _id: `o${i}`, i }))
        yield* asAdmin(DataItems.update(c, { ...items[2]!, i: 20 }))
        yield* asAdmin(DataItems.update(c, { ...items[4]!, i: 40 }))
        yield* asAdmin(DataItems.remove(c, "o5"))
        const mine = ofCollection(key, c)
        const got = yield* Effect.map(everything.until((r) => mine(r.filter((x) => x.status === 200)).length >= 9), (r) => mine(r.filter((x) => x.status === 200)))
        assert.deepStrictEqual(
          got.map((d) => `${d.envelope.eventType.split(".").pop()} ${(d.payload as DomainEvent).entityId}`),
          [...items.map((it) => `data_item_created ${it._id}`), "data_item_updated o2", "data_item_updated o4", "data_item_deleted o5"]
        )
        const ids = got.map((d) => d.eventId)
        assert.deepStrictEqual(ids, [...ids].sort((a, b) => a - b))
        const onlyUpdates = yield* Effect.map(updates.until((r) => mine(r).length >= 2), mine)
        yield* Effect.sleep("300 millis")
        assert.deepStrictEqual(mine(updates.received).map((d) => (d.payload as DomainEvent).entityId), ["o2", "o4"])
        assert.isTrue(onlyUpdates.every((d) => d.envelope.eventType === DataEventTypes.itemUpdated))
        // modified fields carry the value before
        assert.strictEqual((onlyUpdates[0]!.payload as DomainEvent).updatedEvent!.modifiedFields!["i"], 2)
      })))

    it.effect("three slow receivers (2 s each) do not slow writes", () =>
      Effect.scoped(Effect.gen(function*() {
        const c = yield* freshCollection("Slow")
        const slow = yield* Effect.all([0, 1, 2].map(() => receiver(() => ({ status: 200, delayMs: 2000 }))))
        for (const r of slow) yield* subscribe(r.url)
        const latencies: Array<number> = []
        const started = Date.now()
        for (let i = 0; i < 5; i++) {
          const t = Date.now()
          yield* insertAsAdmin(c, { i })
          latencies.push(Date.now() - t)
        }
        const total = Date.now() - started
        // five writes take less time than one receiver takes to answer one delivery
        assert.isBelow(total, 2000, `writes: ${latencies.join(", ")} ms`)
        assert.isBelow(Math.max(...latencies), 1000, `writes: ${latencies.join(", ")} ms`)
        // and the receivers are being delivered to meanwhile
        for (const r of slow) yield* r.until((all) => all.length >= 1, 3000)
        // the other subscriptions are not held up by the slow ones
        const fast = yield* receiver()
        yield* subscribe(fast.url, [DataEventTypes.itemCreated])
        const t = Date.now()
        yield* insertAsAdmin(c, { fast: true })
        yield* fast.until((all) => all.length >= 1, 1500)
        assert.isBelow(Date.now() - t, 1500)
      })))

    it.effect("the admin API: an API key only; bodies are checked; list and delete; the dev endpoints the same without a key", () =>
      Effect.scoped(Effect.gen(function*() {
        const platform = yield* LocalPlatform
        const url = "http://127.0.0.1:9/hooks"
        const call = (method: string, path: string, body: unknown, authorization?: string) =>
          Effect.promise(async () => {
            const res = await fetch(`${platform.url}${path}`, {
              method,
              headers: { "content-type": "application/json", ...(authorization === undefined ? {} : { authorization }) },
              ...(body === undefined ? {} : { body: typeof body === "string" ? body : JSON.stringify(body) })
            })
            return { status: res.status, body: await res.json() as any }
          })
        // nobody, a visitor, a member
        assert.strictEqual((yield* call("POST", EventPaths.webhooks, { url }, undefined)).status, 401)
        assert.strictEqual((yield* call("GET", EventPaths.webhooks, undefined, undefined)).status, 401)
        const visitor = yield* call("POST", "/oauth2/token", { clientId: platform.clientId, grantType: "anonymous" })
        const visitorToken = visitor.body.access_token as string
        for (const [method, path] of [["POST", EventPaths.webhooks], ["GET", EventPaths.webhooks], ["DELETE", `${EventPaths.webhooks}/x`]] as const) {
          assert.strictEqual((yield* call(method, path, method === "POST" ? { url } : undefined, visitorToken)).status, 403, `${method} ${path}`)
        }
        const memberHeaders = yield* asMember(PlatformAuth.use((auth) => auth.headers))
        const asMemberCall = yield* call("POST", EventPaths.webhooks, { url }, memberHeaders["Authorization"] ?? memberHeaders["authorization"])
        assert.strictEqual(asMemberCall.status, 403)
        assert.deepStrictEqual(yield* Effect.map(raw("GET", EventPaths.webhooks), (r) => r.body.webhooks.filter((w: any) => w.url === url)), [])

        // bad bodies: each a 400 in the platform's shape
        const key = Redacted.value(platform.apiKey)
        const bad: ReadonlyArray<unknown> = [
          "{not json",
          [],
          {},
          { url: 42 },
          { url: "not a url" },
          { url: "ftp://127.0.0.1/hooks" },
          { url: "javascript:alert(1)" },
          { url: "http://user:secret@127.0.0.1/hooks" },
          { url: `http://127.0.0.1/${"x".repeat(2048)}` },
          { url, eventTypes: [] },
          { url, eventTypes: ["wix.no.such_event"] },
          { url, eventTypes: "wix.data.v2.data_item_created" },
          { url, eventTypes: [DataEventTypes.itemCreated, 7] }
        ]
        for (const body of bad) {
          const answer = yield* call("POST", EventPaths.webhooks, body, key)
          assert.strictEqual(answer.status, 400, JSON.stringify(body).slice(0, 80))
          assert.isString(answer.body.message)
        }
        const password = yield* call("POST", EventPaths.webhooks, { url: "http://user:secret@127.0.0.1/hooks" }, key)
        assert.include(password.body.message, "no user name or password")
        assert.notInclude(JSON.stringify(password.body), "secret")
        assert.strictEqual((yield* call("DELETE", `${EventPaths.webhooks}/no-such-id`, undefined, key)).body.details.applicationError.code, "WEBHOOK_NOT_FOUND")

        // create, list, delete, through both doors
        const longest = `http://127.0.0.1/${"x".repeat(2048 - "http://127.0.0.1/".length)}`
        const made = yield* call("POST", EventPaths.webhooks, { url: longest, eventTypes: [DataEventTypes.itemCreated, DataEventTypes.itemCreated] }, key)
        assert.strictEqual(made.status, 200)
        assert.deepStrictEqual(Object.keys(made.body.webhook).sort(), ["createdDate", "eventTypes", "id", "url"])
        assert.deepStrictEqual(made.body.webhook.eventTypes, [DataEventTypes.itemCreated])
        const viaDev = yield* dev("/webhooks", { method: "POST", body: { url } })
        assert.deepStrictEqual(viaDev.webhook.eventTypes, [...EVENT_TYPES])
        const listed = (yield* call("GET", EventPaths.webhooks, undefined, key)).body.webhooks.map((w: any) => w.id)
        assert.includeMembers(listed, [made.body.webhook.id, viaDev.webhook.id])
        assert.deepStrictEqual((yield* dev("/webhooks")).webhooks.map((w: any) => w.id), listed)
        assert.strictEqual((yield* call("DELETE", `${EventPaths.webhooks}/${made.body.webhook.id}`, undefined, key)).status, 200)
        yield* dev(`/webhooks/${viaDev.webhook.id}`, { method: "DELETE" })
        const after = (yield* call("GET", EventPaths.webhooks, undefined, key)).body.webhooks.map((w: any) => w.id)
        assert.notInclude(after, made.body.webhook.id)
        assert.notInclude(after, viaDev.webhook.id)

        // at most 100
        const before = after.length
        const made100: Array<string> = []
        for (let i = before; i < 100; i++) made100.push((yield* call("POST", EventPaths.webhooks, { url, eventTypes: [DataEventTypes.itemDeleted] }, key)).body.webhook.id)
        const tooMany = yield* call("POST", EventPaths.webhooks, { url }, key)
        assert.deepStrictEqual([tooMany.status, tooMany.body.details.applicationError.code], [400, "TOO_MANY_WEBHOOKS"])
        for (const id of made100) yield* call("DELETE", `${EventPaths.webhooks}/${id}`, undefined, key)
      })))
  })
})

// ---------------------------------------------------------------------------------------------------
// start-up subscriptions, restarts and resets

const children: Array<ChildProcess> = []
afterEach(() => {
  for (const child of children.splice(0)) if (child.exitCode === null) child.kill("SIGKILL")
})

describe("delivery policy", () => {
  it("backoff doubles from the base, with jitter between half and all of it, capped; a longer Retry-After wins, capped too", () => {
    const policy = deliveryPolicy({ retryBaseMillis: 100, retryCapMillis: 1000 })
    assert.deepStrictEqual([1, 2, 3, 4, 5].map((n) => backoffMillis(policy, n, undefined, () => 0)), [50, 100, 200, 400, 500])
    assert.deepStrictEqual([1, 2, 3, 4, 5].map((n) => backoffMillis(policy, n, undefined, () => 1)), [100, 200, 400, 800, 1000])
    assert.strictEqual(backoffMillis(policy, 1, 700, () => 0), 700)
    assert.strictEqual(backoffMillis(policy, 1, 60_000, () => 0), 1000)
    assert.strictEqual(backoffMillis(policy, 1000, undefined, () => 1), 1000)
    assert.deepStrictEqual(deliveryPolicy(), DEFAULT_DELIVERY_POLICY)
    assert.deepStrictEqual(DEFAULT_DELIVERY_POLICY, { attempts: 5, retryBaseMillis: 1000, retryCapMillis: 60_000, timeoutMillis: 10_000 })
    assert.deepStrictEqual(deliveryPolicy({ attempts: 0, timeoutMillis: Number.NaN, retryBaseMillis: -1 }), DEFAULT_DELIVERY_POLICY)
  })

  it.live("an attempt past the timeout counts as failed and is retried; a 429's Retry-After is waited for", () =>
    Effect.scoped(Effect.gen(function*() {
      const slow = yield* receiver(() => ({ status: 200, delayMs: 1000 }))
      const busy = yield* receiver((n) => (n === 0 ? { status: 429, headers: { "retry-after": "1" } } : { status: 200 }))
      yield* onPlatform({ seed: "none", webhookDelivery: { attempts: 2, retryBaseMillis: 10, retryCapMillis: 5000, timeoutMillis: 250 } }, Effect.gen(function*() {
        const timedOut = (yield* dev("/webhooks", { method: "POST", body: { url: slow.url, eventTypes: [DataEventTypes.itemCreated] } })).webhook
        yield* dev("/webhooks", { method: "POST", body: { url: busy.url, eventTypes: [DataEventTypes.itemCreated] } })
        const c = yield* freshCollection("Timeout")
        yield* insertAsAdmin(c, { title: "late" })
        const [letter] = yield* untilDeadLetters(timedOut.id, 1)
        assert.deepStrictEqual([letter.attempts, letter.lastError], [2, "No answer within 250 ms"])
        assert.notProperty(letter, "lastStatus")
        const answered = yield* busy.until((all) => all.length >= 2, 5000)
        assert.deepStrictEqual(answered.map((x) => x.status), [429, 200])
        assert.isAtLeast(answered[1]!.at - answered[0]!.at, 990)
      }))
    })), 20_000)
})

describe("start-up webhooks", () => {
  it.live("LocalPlatform.layer({ webhooks }) subscribes at start, once per URL across restarts on a database file, and again after a reset", () =>
    Effect.scoped(Effect.gen(function*() {
      const dir = yield* tempDir("sitefx-webhooks-")
      const db = join(dir, "site.db")
      const r = yield* receiver()
      const filtered = yield* receiver()
      const options: LocalPlatformOptions = {
        db,
        webhooks: [r.url, { url: filtered.url, eventTypes: [DataEventTypes.itemDeleted] }],
        webhookDelivery: { retryBaseMillis: 20 }
      }
      const firstRun = yield* onPlatform(options, Effect.gen(function*() {
        const listed = (yield* dev("/webhooks")).webhooks
        assert.deepStrictEqual(listed.map((w: any) => [w.url, w.eventTypes.length]), [[r.url, EVENT_TYPES.length], [filtered.url, 1]])
        const c = yield* freshCollection("Startup")
        yield* insertAsAdmin(c, { _id: "a" })
        yield* r.until((all) => all.length >= 1)
        return { c, ids: listed.map((w: any) => w.id) }
      }))
      // a second start on the same file: the same subscriptions, no new ones, deliveries go on
      yield* onPlatform({ ...options, seed: "none" }, Effect.gen(function*() {
        const listed = (yield* dev("/webhooks")).webhooks
        assert.deepStrictEqual(listed.map((w: any) => w.id), firstRun.ids)
        yield* asAdmin(DataItems.remove(firstRun.c, "a"))
        yield* filtered.until((all) => all.length >= 1)
        yield* r.until((all) => all.length >= 2)
        const key = (yield* dev("/webhooks/public-key")).publicKey
        assert.deepStrictEqual(r.received.map((x) => open(key, x).envelope.eventType), [DataEventTypes.itemCreated, DataEventTypes.itemDeleted])
        assert.deepStrictEqual(filtered.received.map((x) => open(key, x).envelope.eventType), [DataEventTypes.itemDeleted])
        // a reset removes every subscription but the start-up ones, which come back new
        yield* dev("/webhooks", { method: "POST", body: { url: "http://127.0.0.1:9/other" } })
        yield* dev("/reset", { method: "POST", body: {} })
        const after = (yield* dev("/webhooks")).webhooks
        assert.deepStrictEqual(after.map((w: any) => w.url), [r.url, filtered.url])
        assert.notInclude(after.map((w: any) => w.id), firstRun.ids[0])
        yield* dev("/seed", { method: "POST", body: { seed: "demo" } })
        const c = yield* freshCollection("AfterReset")
        yield* insertAsAdmin(c, { _id: "b" })
        yield* r.until((all) => all.length >= 3)
        // the key pair is new after a reset: the delivery verifies with the new public key
        const newKey = (yield* dev("/webhooks/public-key")).publicKey
        assert.strictEqual((open(newKey, r.received[2]!).payload as DomainEvent).entityId, "b")
      }))
    })), 30_000)

  it("sitefx serve --webhook URL (repeatable) delivers every event; a bad URL stops it with a message", async () => {
    const NODE = join(process.cwd(), "node_modules/.bin/node")
    const BIN = join(process.cwd(), "bin/sitefx.mjs")
    await Effect.runPromise(Effect.scoped(Effect.gen(function*() {
      const r = yield* receiver()
      const other = yield* receiver()
      const child = spawn(NODE, [BIN, "serve", "--port", "0", "--seed", "none", "--no-log", "--webhook", r.url, "--webhook", other.url], {
        stdio: ["ignore", "pipe", "pipe"]
      })
      children.push(child)
      const printout = yield* Effect.promise(() =>
        new Promise<string>((resolve, reject) => {
          let out = ""
          const timer = setTimeout(() => reject(new Error(`no printout: ${out}`)), 15_000)
          child.stdout!.on("data", (chunk) => {
            out += chunk
            if (/dev endpoints/.test(out)) {
              clearTimeout(timer)
              resolve(out)
            }
          })
        })
      )
      assert.include(printout, `webhook        ${r.url}`)
      assert.include(printout, `webhook        ${other.url}`)
      const url = /listening on (http:\/\/[^\s]+)/.exec(printout)![1]!
      const apiKey = /API key\s+(sfx_key_[A-Za-z0-9_-]+)/.exec(printout)![1]!
      const res = yield* Effect.promise(() =>
        fetch(`${url}/wix-data/v2/collections`, {
          method: "POST",
          headers: { authorization: apiKey, "content-type": "application/json" },
          body: JSON.stringify({ collection: { id: "Cli", displayName: "Cli", fields: [], permissions: { read: "ANYONE", insert: "ANYONE", update: "ANYONE", remove: "ANYONE" } } })
        })
      )
      assert.strictEqual(res.status, 200)
      const inserted = yield* Effect.promise(() =>
        fetch(`${url}/wix-data/v2/items`, {
          method: "POST",
          headers: { authorization: apiKey, "content-type": "application/json" },
          body: JSON.stringify({ dataCollectionId: "Cli", dataItem: { data: { title: "from the CLI" } } })
        })
      )
      assert.strictEqual(inserted.status, 200)
      const key = (yield* Effect.promise(() => fetch(`${url}${EventPaths.publicKey}`).then((x) => x.json()))).publicKey as string
      for (const receiverOf of [r, other]) {
        yield* receiverOf.until((all) => all.length >= 1)
        const delivery = open(key, receiverOf.received[0]!)
        assert.strictEqual(delivery.envelope.eventType, DataEventTypes.itemCreated)
        assert.strictEqual(((delivery.payload as DomainEvent).createdEvent!.entity as { data: { title: string } }).data.title, "from the CLI")
      }
      child.kill("SIGTERM")
    })))

    const bad = spawn(NODE, [BIN, "serve", "--port", "0", "--no-log", "--webhook", "ftp://example.com/x"], { stdio: ["ignore", "pipe", "pipe"] })
    children.push(bad)
    let err = ""
    bad.stderr!.on("data", (chunk) => {
      err += chunk
    })
    const code = await new Promise<number | null>((resolve) => bad.on("exit", (c) => resolve(c)))
    assert.strictEqual(code, 1)
    assert.include(err, "--webhook ftp://example.com/x: A webhook URL is an absolute http or https URL")
  }, 40_000)
})
