/**
 * What sitefx's webhook processor refuses, each with its reason, and that no handler runs for any of
 * them: tampered payloads, other keys, `alg: none`, HS256 keyed with the public key, algorithms other
 * than RS256 even with the right RSA key (RS384, RS512, PS256: the official client accepts those, sitefx
 * does not), ES256, critical header extensions, expired and not-yet-valid tokens (and the leeway and
 * `now` options), malformed tokens and envelopes, unknown event types, unusable keys and oversized
 * bodies. The fetch adapter's answers to these never quote the key.
 */
import { assert, describe, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import { generateKeyPairSync } from "node:crypto"
import { importPublicKey, verify } from "../../src/events/jwt.ts"
import { CatalogV1EventTypes, DataEventTypes, type EventType } from "../../src/events/protocol.ts"
import * as Webhooks from "../../src/events/Webhooks.ts"
import { domainEvent, envelope, rsaKeys, signEvent, signJwt, type TestAlgorithm } from "../support/events.ts"

const keys = rsaKeys()
const otherKeys = rsaKeys()

const itemCreated = domainEvent("wix.data.v2.data_item", "item-1", {
  createdEvent: { entity: { id: "item-1", dataCollectionId: "Books", data: { title: "Dune" } } }
})
const goodEnvelope = envelope(DataEventTypes.itemCreated, itemCreated, { identity: { identityType: "MEMBER", memberId: "m-1" } })
const now = () => Math.floor(Date.now() / 1000)
const claimsOf = (extra: Record<string, unknown> = {}) => ({ data: JSON.stringify(goodEnvelope), iat: now(), exp: now() + 3600, ...extra })

type Settings = Partial<Pick<Webhooks.Options<unknown, [], []>, "publicKey" | "leewaySeconds" | "now" | "maxBodyBytes">>

/** A processor handling every data event and counting the handler's runs. */
const guarded = (options: Settings = {}) => {
  const runs: Array<string> = []
  const processor = Webhooks.handler({
    publicKey: keys.publicKey,
    ...options,
    handlers: Webhooks.forTypes(Object.values(DataEventTypes), (event) => Effect.sync(() => void runs.push(event.entityId)))
  })
  return { processor, runs }
}

/** The body is refused for `reason` and the handler did not run. */
const refused = (body: string, reason: Webhooks.WebhookErrorReason["_tag"], options: Settings = {}) =>
  Effect.gen(function*() {
    const { processor, runs } = guarded(options)
    const error = yield* Effect.flip(processor.process(body))
    assert.strictEqual(error._tag, "WebhookError")
    assert.strictEqual(error.reason._tag, reason, error.message)
    assert.deepStrictEqual(runs, [], "no handler ran")
    return error
  })

const accepted = (body: string, options: Settings = {}) =>
  Effect.gen(function*() {
    const { processor, runs } = guarded(options)
    yield* processor.process(body)
    assert.deepStrictEqual(runs, ["item-1"])
  })

const parts = (token: string) => token.split(".") as [string, string, string]
const b64 = (value: unknown) => Buffer.from(typeof value === "string" ? value : JSON.stringify(value)).toString("base64url")

describe("webhook signatures", () => {
  it.effect("the genuine token is accepted (the baseline for every refusal below)", () => accepted(signEvent(keys.privateKey, goodEnvelope)))

  it.effect("a tampered payload (another entity id, the signature kept) is BadSignature", () => {
    const [header, , signature] = parts(signEvent(keys.privateKey, goodEnvelope))
    const forged = claimsOf({ data: JSON.stringify({ ...goodEnvelope, instanceId: "someone-else" }) })
    return refused(`${header}.${b64(forged)}.${signature}`, "BadSignature")
  })

  it.effect("a payload changed by one character is BadSignature", () => {
    const [header, payload, signature] = parts(signEvent(keys.privateKey, goodEnvelope))
    const flipped = payload.slice(0, 10) + (payload[10] === "A" ? "B" : "A") + payload.slice(11)
    return refused(`${header}.${flipped}.${signature}`, "BadSignature")
  })

  it.effect("a token signed with another key is BadSignature", () => refused(signEvent(otherKeys.privateKey, goodEnvelope), "BadSignature"))

  it.effect("a truncated or altered signature is BadSignature", () =>
    Effect.gen(function*() {
      const [header, payload, signature] = parts(signEvent(keys.privateKey, goodEnvelope))
      yield* refused(`${header}.${payload}.${signature.slice(0, -4)}`, "BadSignature")
      yield* refused(`${header}.${payload}.${signature.startsWith("A") ? "B" : "A"}${signature.slice(1)}`, "BadSignature")
    }))
})

describe("webhook algorithms: RS256 only", () => {
  it.effect("alg none with no signature is UnsupportedAlgorithm", () => refused(signJwt(keys.privateKey, claimsOf(), "none"), "UnsupportedAlgorithm"))

  it.effect("alg none carrying a genuine RS256 signature is still UnsupportedAlgorithm", () => {
    const [, payload, signature] = parts(signEvent(keys.privateKey, goodEnvelope))
    return refused(`${b64({ alg: "none", typ: "JWT" })}.${payload}.${signature}`, "UnsupportedAlgorithm")
  })

  it.effect("alg None / NONE and a missing alg are UnsupportedAlgorithm", () =>
    Effect.gen(function*() {
      const [, payload, signature] = parts(signEvent(keys.privateKey, goodEnvelope))
      for (const header of [{ alg: "None" }, { alg: "NONE" }, { typ: "JWT" }, { alg: ["RS256"] }]) {
        yield* refused(`${b64(header)}.${payload}.${signature}`, "UnsupportedAlgorithm")
      }
    }))

  it.effect("HS256 with the site's public key (PEM text, and its base64) as the HMAC secret is UnsupportedAlgorithm", () =>
    Effect.gen(function*() {
      yield* refused(signJwt(keys.publicKey, claimsOf(), "HS256"), "UnsupportedAlgorithm")
      yield* refused(signJwt(Buffer.from(keys.publicKey).toString("base64"), claimsOf(), "HS256"), "UnsupportedAlgorithm")
    }))

  it.effect("RS384, RS512 and PS256 with the site's own RSA key are refused (the official client accepts RS512 and PS256; sitefx takes RS256 only)", () =>
    Effect.gen(function*() {
      for (const alg of ["RS384", "RS512", "PS256"] satisfies Array<TestAlgorithm>) {
        const error = yield* refused(signJwt(keys.privateKey, claimsOf(), alg), "UnsupportedAlgorithm")
        assert.include(error.message, alg)
      }
    }))

  it.effect("ES256 with an EC key is UnsupportedAlgorithm", () => {
    const ec = generateKeyPairSync("ec", { namedCurve: "P-256" })
    return refused(signJwt(ec.privateKey, claimsOf(), "ES256"), "UnsupportedAlgorithm")
  })

  it.effect("an RS256 token relabelled RS512 (the genuine signature kept) is UnsupportedAlgorithm", () => {
    const [, payload, signature] = parts(signEvent(keys.privateKey, goodEnvelope))
    return refused(`${b64({ alg: "RS512", typ: "JWT" })}.${payload}.${signature}`, "UnsupportedAlgorithm")
  })

  it.effect("a header with critical extensions is UnsupportedAlgorithm, even when genuinely signed", () =>
    refused(signJwt(keys.privateKey, claimsOf(), "RS256", { crit: ["b64"], b64: false }), "UnsupportedAlgorithm"))

  it.effect("an EC public key or text that is not a key is InvalidKey for every body; nothing runs", () =>
    Effect.gen(function*() {
      const ec = generateKeyPairSync("ec", { namedCurve: "P-256" }).publicKey.export({ type: "spki", format: "pem" }).toString()
      const body = signEvent(keys.privateKey, goodEnvelope)
      yield* refused(body, "InvalidKey", { publicKey: ec })
      yield* refused(body, "InvalidKey", { publicKey: "not a key" })
      yield* refused(body, "InvalidKey", { publicKey: keys.publicKey.replace("PUBLIC KEY", "RSA PUBLIC KEY").replace("PUBLIC KEY", "RSA PUBLIC KEY") })
      const pkcs1 = keys.privateKey.export({ type: "pkcs1", format: "pem" }).toString()
      yield* refused(body, "InvalidKey", { publicKey: pkcs1 })
    }))
})

describe("webhook validity times", () => {
  it.effect("an expired token is Expired", () => refused(signEvent(keys.privateKey, goodEnvelope, { exp: now() - 3600 }), "Expired"))

  it.effect("a token not valid yet (nbf in an hour) is NotYetValid", () => refused(signEvent(keys.privateKey, goodEnvelope, { nbf: now() + 3600 }), "NotYetValid"))

  it.effect("the leeway: 10 s past exp is accepted with the default leeway and Expired with none", () =>
    Effect.gen(function*() {
      const body = signEvent(keys.privateKey, goodEnvelope, { exp: now() - 10 })
      yield* accepted(body)
      yield* refused(body, "Expired", { leewaySeconds: 0 })
      yield* refused(signEvent(keys.privateKey, goodEnvelope, { nbf: now() + 10 }), "NotYetValid", { leewaySeconds: 0 })
    }))

  it.effect("the `now` option sets the clock: a 2020 token is valid in 2020 and expired now", () =>
    Effect.gen(function*() {
      const t2020 = Date.UTC(2020, 0, 1) / 1000
      const body = signEvent(keys.privateKey, goodEnvelope, { iat: t2020, nbf: t2020, exp: t2020 + 300 })
      yield* accepted(body, { now: () => (t2020 + 60) * 1000 })
      yield* refused(body, "NotYetValid", { now: () => (t2020 - 3600) * 1000 })
      yield* refused(body, "Expired")
    }))

  it.effect("no exp, nbf or iat at all is accepted (the platform's tokens need not carry them)", () =>
    accepted(signEvent(keys.privateKey, goodEnvelope, { iat: undefined, exp: undefined })))

  it.effect("exp, nbf or iat that is not a number is Malformed", () =>
    Effect.gen(function*() {
      yield* refused(signEvent(keys.privateKey, goodEnvelope, { exp: String(now() + 3600) }), "Malformed")
      yield* refused(signEvent(keys.privateKey, goodEnvelope, { nbf: null }), "Malformed")
      yield* refused(signEvent(keys.privateKey, goodEnvelope, { iat: "yesterday" }), "Malformed")
    }))
})

describe("malformed webhook bodies", () => {
  it.effect("not a compact JWS: empty, one part, four parts, bad base64url, a header that is not JSON", () =>
    Effect.gen(function*() {
      const [header, payload, signature] = parts(signEvent(keys.privateKey, goodEnvelope))
      for (
        const body of [
          "",
          "   ",
          "hello",
          `${header}.${payload}`,
          `${header}.${payload}.${signature}.x`,
          `${header}.${payload}.${signature}!`,
          `${b64("not json")}.${payload}.${signature}`,
          `${b64([1, 2])}.${payload}.${signature}`,
          `${header}.${payload}.`,
          `{"alg":"RS256"}.${payload}.${signature}`
        ]
      ) {
        yield* refused(body, "Malformed")
      }
    }))

  it.effect("a claim set that is not a JSON object (genuinely signed) is Malformed", () =>
    Effect.gen(function*() {
      const signingInput = `${b64({ alg: "RS256" })}.${b64("[1,2,3]")}`
      const { sign } = yield* Effect.promise(() => import("node:crypto"))
      const token = `${signingInput}.${sign("sha256", Buffer.from(signingInput), keys.privateKey).toString("base64url")}`
      yield* refused(token, "Malformed")
    }))

  it.effect("claim data as an object, not a string, is Malformed", () =>
    refused(signJwt(keys.privateKey, claimsOf({ data: goodEnvelope })), "Malformed"))

  it.effect("claim data missing, or text that is not JSON, is Malformed", () =>
    Effect.gen(function*() {
      yield* refused(signJwt(keys.privateKey, claimsOf({ data: undefined })), "Malformed")
      yield* refused(signJwt(keys.privateKey, claimsOf({ data: "{not json" })), "Malformed")
    }))

  it.effect("the envelope's inner data that is not JSON text, or is an object, is Malformed", () =>
    Effect.gen(function*() {
      yield* refused(signEvent(keys.privateKey, { ...goodEnvelope, data: "{oops" }), "Malformed")
      yield* refused(signJwt(keys.privateKey, claimsOf({ data: JSON.stringify({ ...goodEnvelope, data: itemCreated }) })), "Malformed")
    }))

  it.effect("an identity given as an object, or with an unknown identity type, is Malformed", () =>
    Effect.gen(function*() {
      const asObject = { ...goodEnvelope, identity: { identityType: "MEMBER", memberId: "m-1" } }
      yield* refused(signJwt(keys.privateKey, claimsOf({ data: JSON.stringify(asObject) })), "Malformed")
      yield* refused(signEvent(keys.privateKey, { ...goodEnvelope, identity: JSON.stringify({ identityType: "ROOT" }) }), "Malformed")
    }))

  it.effect("an envelope without its instance id or event type is Malformed", () =>
    Effect.gen(function*() {
      const { instanceId: _i, ...noInstance } = goodEnvelope
      yield* refused(signJwt(keys.privateKey, claimsOf({ data: JSON.stringify(noInstance) })), "Malformed")
      const { eventType: _t, ...noType } = goodEnvelope
      yield* refused(signJwt(keys.privateKey, claimsOf({ data: JSON.stringify(noType) })), "Malformed")
    }))

  it.effect("a domain event without its change, its entity's required ids, or a real eventTime is Malformed", () =>
    Effect.gen(function*() {
      const sign = (payload: unknown) => signEvent(keys.privateKey, envelope(DataEventTypes.itemCreated, payload))
      const { createdEvent: _c, ...noChange } = itemCreated
      yield* refused(sign(noChange), "Malformed")
      yield* refused(sign({ ...itemCreated, createdEvent: { entity: { id: "item-1", data: {} } } }), "Malformed")
      yield* refused(sign({ ...itemCreated, eventTime: "yesterday" }), "Malformed")
      yield* refused(sign({ ...itemCreated, entityId: 7 }), "Malformed")
    }))

  it.effect("a legacy payload without its id is Malformed", () => {
    const runs: Array<string> = []
    const products = Webhooks.handler({
      publicKey: keys.publicKey,
      handlers: { [CatalogV1EventTypes.productCreated]: (event) => Effect.sync(() => void runs.push(event.data.productId)) }
    })
    return Effect.gen(function*() {
      const error = yield* Effect.flip(products.process(signEvent(keys.privateKey, envelope(CatalogV1EventTypes.productCreated, { name: "Shirt" }))))
      assert.strictEqual(error.reason._tag, "Malformed")
      assert.include(error.message, ".productId")
      assert.deepStrictEqual(runs, [])
    })
  })

  it.effect("a body over the size limit is TooLarge", () => refused(signEvent(keys.privateKey, goodEnvelope), "TooLarge", { maxBodyBytes: 200 }))
})

describe("webhook event types", () => {
  it.effect("a type sitefx does not know is UnknownEventType", () =>
    Effect.gen(function*() {
      const error = yield* refused(signEvent(keys.privateKey, envelope("wix.some.other_event", itemCreated)), "UnknownEventType")
      assert.strictEqual(error.eventType, "wix.some.other_event")
    }))

  it.effect("a known type without a handler (and not accepted) is UnknownEventType", () =>
    Effect.gen(function*() {
      const error = yield* refused(
        signEvent(keys.privateKey, envelope(CatalogV1EventTypes.productDeleted, { productId: "p-1" })),
        "UnknownEventType"
      )
      assert.strictEqual(error.eventType, CatalogV1EventTypes.productDeleted)
    }))

  it.effect("a processor with no handlers takes nothing", () =>
    Effect.gen(function*() {
      const none = Webhooks.handler({ publicKey: keys.publicKey, handlers: {} })
      const error = yield* Effect.flip(none.process(signEvent(keys.privateKey, goodEnvelope)))
      assert.strictEqual(error.reason._tag, "UnknownEventType")
    }))
})

describe("jwt.verify directly", () => {
  it.effect("verifies a genuine token and returns its claims; refuses the same token under another key", () =>
    Effect.gen(function*() {
      const key = yield* importPublicKey(keys.publicKey)
      const other = yield* importPublicKey(otherKeys.publicKey)
      const token = signJwt(keys.privateKey, { data: "x", sub: "s" })
      const claims = yield* verify(token, key)
      assert.deepStrictEqual(claims, { data: "x", sub: "s" })
      const error = yield* Effect.flip(verify(token, other))
      assert.strictEqual(error.reason._tag, "BadSignature")
    }))
})

describe("the fetch adapter's refusals never quote the key", () => {
  it.effect("answers to forged, HS256, expired and misconfigured-key bodies carry a reason and a short message only", () =>
    Effect.promise(async () => {
      const bodies: Array<[string, string | undefined, number]> = [
        [signEvent(otherKeys.privateKey, goodEnvelope), undefined, 401],
        [signJwt(keys.publicKey, claimsOf(), "HS256"), undefined, 401],
        [signEvent(keys.privateKey, goodEnvelope, { exp: 1 }), undefined, 401],
        [signEvent(keys.privateKey, goodEnvelope), "-----BEGIN PUBLIC KEY-----\nAAAA\n-----END PUBLIC KEY-----", 500]
      ]
      const keyBody = keys.publicKey.split("\n")[1]!.slice(0, 24)
      for (const [body, publicKey, status] of bodies) {
        const runs: Array<EventType> = []
        const processor = Webhooks.handler({
          publicKey: publicKey ?? keys.publicKey,
          handlers: { [DataEventTypes.itemCreated]: (event) => Effect.sync(() => void runs.push(event.type)) }
        })
        const response = await Webhooks.toFetchHandler(processor)(new Request("http://receiver.test/hooks", { method: "POST", body }))
        const text = await response.text()
        assert.strictEqual(response.status, status, text)
        assert.notInclude(text, keyBody)
        assert.notInclude(text, "BEGIN")
        assert.hasAllKeys(JSON.parse(text), ["error", "message"])
        assert.deepStrictEqual(runs, [])
      }
    }))
})
