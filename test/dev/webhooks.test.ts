/**
 * sitefx/dev's webhooks against a real platform: subscriptions made, listed and ended without an API key,
 * the public key, and the dead letters of a receiver that is down: redelivered (one, all) and discarded.
 */
import { assert, describe, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import type { Scope } from "effect/Scope"
import * as http from "node:http"
import type { AddressInfo } from "node:net"
import * as DataItems from "../../src/data/DataItems.ts"
import { Webhooks } from "../../src/dev/index.ts"
import { DataEventTypes } from "../../src/events/protocol.ts"
import { LocalPlatform } from "../../src/server/index.ts"
import { asAdmin, freshCollection } from "../data/support.ts"
import { onDev } from "./support.ts"

/** A receiver answering `status.now`, counting what it is sent; closed with the scope. */
const receiver = (initial: number): Effect.Effect<{ readonly url: string; readonly status: { now: number }; readonly received: () => number }, never, Scope> =>
  Effect.acquireRelease(
    Effect.promise(() =>
      new Promise<{ server: http.Server; url: string; status: { now: number }; count: { n: number } }>((resolve) => {
        const status = { now: initial }
        const count = { n: 0 }
        const server = http.createServer((req, res) => {
          req.resume()
          req.on("end", () => {
            count.n += 1
            res.writeHead(status.now).end()
          })
        })
        server.listen(0, "127.0.0.1", () => resolve({ server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`, status, count }))
      })
    ),
    ({ server }) => Effect.promise(() => new Promise<void>((resolve) => server.close(() => resolve())))
  ).pipe(Effect.map(({ url, status, count }) => ({ url, status, received: () => count.n })))

/** The webhook's dead letters once there are `n` and none is being redelivered. */
const settled = (webhookId: string, n: number) =>
  Effect.gen(function*() {
    for (let i = 0; i < 250; i++) {
      const letters = yield* Webhooks.deadLetters({ webhookId })
      if (letters.length === n && letters.every((l) => !l.redelivering)) return letters
      yield* Effect.sleep("20 millis")
    }
    return assert.fail(`no ${n} settled dead letters for ${webhookId}`)
  })

const DELIVERY = { attempts: 1, retryBaseMillis: 10, retryCapMillis: 20, timeoutMillis: 2000 } as const

describe("sitefx/dev Webhooks", () => {
  it.layer(LocalPlatform.layer({ seed: "demo", webhookDelivery: DELIVERY }), { excludeTestServices: true })((it) => {
    it.effect("subscriptions are made, listed and ended; a bad URL is a 400; the public key is a PEM", () =>
      onDev(Effect.gen(function*() {
        const made = yield* Webhooks.create({ url: "http://127.0.0.1:9/nowhere", eventTypes: [DataEventTypes.itemCreated] })
        assert.deepStrictEqual(made.eventTypes, [DataEventTypes.itemCreated])
        assert.isTrue((yield* Webhooks.list).some((w) => w.id === made.id && w.url === "http://127.0.0.1:9/nowhere"))
        const bad = yield* Effect.flip(Webhooks.create({ url: "ftp://example.com" }))
        assert.strictEqual(bad.status, 400)
        yield* Webhooks.remove(made.id)
        assert.isFalse((yield* Webhooks.list).some((w) => w.id === made.id))
        assert.strictEqual((yield* Effect.flip(Webhooks.remove(made.id))).code, "WEBHOOK_NOT_FOUND")
        assert.match(yield* Webhooks.publicKey, /^-----BEGIN PUBLIC KEY-----/)
      })))

    it.effect("a receiver that is down leaves dead letters: one is redelivered, then all, then they are discarded", () =>
      Effect.scoped(onDev(Effect.gen(function*() {
        const r = yield* receiver(500)
        const webhook = yield* Webhooks.create({ url: r.url, eventTypes: [DataEventTypes.itemCreated] })
        const c = yield* freshCollection("Hooked")
        yield* asAdmin(DataItems.insert(c, { title: "one" }))
        yield* asAdmin(DataItems.insert(c, { title: "two" }))
        const letters = yield* settled(webhook.id, 2)
        assert.deepStrictEqual(letters.map((l) => [l.webhookId, l.eventType, l.lastStatus, l.attempts]), [
          [webhook.id, DataEventTypes.itemCreated, 500, 1],
          [webhook.id, DataEventTypes.itemCreated, 500, 1]
        ])
        assert.isTrue((yield* Webhooks.deadLetters()).some((l) => l.id === letters[0]!.id))

        // still down: the redelivery fails again and counts its attempt
        const queued = yield* Webhooks.redeliver(letters[1]!.id)
        assert.isTrue(queued.redelivering)
        const after = (yield* settled(webhook.id, 2)).find((l) => l.id === letters[1]!.id)
        assert.strictEqual(after?.attempts, 2)

        // up again: every dead letter is delivered and goes
        r.status.now = 200
        assert.strictEqual(yield* Webhooks.redeliverAll({ webhookId: webhook.id }), 2)
        yield* settled(webhook.id, 0)
        assert.strictEqual(r.received(), 5)

        // down again: one discarded by id, the rest by webhook
        r.status.now = 503
        yield* asAdmin(DataItems.insert(c, { title: "three" }))
        yield* asAdmin(DataItems.insert(c, { title: "four" }))
        const more = yield* settled(webhook.id, 2)
        yield* Webhooks.discard(more[0]!.id)
        assert.strictEqual((yield* Effect.flip(Webhooks.discard(more[0]!.id))).code, "DEAD_LETTER_NOT_FOUND")
        assert.strictEqual(yield* Webhooks.discardAll({ webhookId: webhook.id }), 1)
        assert.deepStrictEqual(yield* Webhooks.deadLetters({ webhookId: webhook.id }), [])
        yield* Webhooks.remove(webhook.id)
      }))))
  })
})
