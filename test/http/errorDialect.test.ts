/**
 * One error dialect: every client error's `reason` is a tagged class, so `Effect.catchReason` handles one
 * reason of one error and leaves the others failed as they were, for the OAuth flows and the events
 * (webhooks, their tokens and envelopes, the live stream) as for the modules and the wire. Each error
 * made by the code that fails with it, and each still reads its message and its own fields.
 */
import { assert, describe, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as Exit from "effect/Exit"
import * as Stream from "effect/Stream"
import * as Events from "../../src/events/index.ts"
import { importPublicKey } from "../../src/events/jwt.ts"
import { PlatformAuth } from "../../src/http/PlatformAuth.ts"
import { PlatformConfig } from "../../src/http/PlatformConfig.ts"
import { PlatformFetch } from "../../src/http/PlatformHttp.ts"
import { AuthorizeAgent, OAuthError } from "../../src/session/index.ts"

/**
 * What `handle` makes of `failing`: the handler's answer when it ran, or the failure left as it was
 * (then the handler must not have run).
 */
const outcome = <A, E>(failing: Effect.Effect<unknown, E>, handle: (self: Effect.Effect<unknown, E>) => Effect.Effect<A, unknown>) =>
  Effect.gen(function*() {
    const error = yield* Effect.flip(failing)
    let ran = false
    const exit = yield* Effect.exit(handle(Effect.fail(error)).pipe(Effect.tap(() => Effect.sync(() => (ran = true)))))
    return { error, ran, exit }
  })

// ---- OAuth ------------------------------------------------------------------------------------------------

/** An authorize page that redirects to `location`, as the HTTP agent reads it. */
const authorizeVia = (location: string) =>
  Effect.flatMap(
    AuthorizeAgent.pipe(Effect.provide(AuthorizeAgent.http({ fetch: () => Promise.resolve(new Response(null, { status: 302, headers: { location } })) }))),
    (agent) => agent.authorize("http://127.0.0.1:1/oauth2/authorize?state=s", "s")
  )

const refusedLogin = authorizeVia("http://127.0.0.1/callback?error=login_required&error_description=Not%20logged%20in")
const codeless = authorizeVia("http://127.0.0.1/callback?state=s")

describe("OAuthError", () => {
  const handled = <A>(self: Effect.Effect<A, OAuthError>) =>
    Effect.catchReason(self, "OAuthError", "AuthorizationFailed", (reason, error) => Effect.succeed([reason.error, reason.errorDescription, error.message]))

  it.effect("Effect.catchReason runs its handler for the reason it names", () =>
    Effect.gen(function*() {
      const { error, ran, exit } = yield* outcome(refusedLogin, handled)
      assert.isTrue(ran)
      assert.deepStrictEqual(exit, Exit.succeed(["login_required", "Not logged in", "login_required: Not logged in"]))
      // the readings of before, from the reason
      assert.strictEqual(error.reason._tag, "AuthorizationFailed")
      assert.strictEqual(error.error, "login_required")
      assert.strictEqual(error.errorDescription, "Not logged in")
    }))

  it.effect("and leaves another reason failed as it was, without running", () =>
    Effect.gen(function*() {
      const { error, ran, exit } = yield* outcome(codeless, handled)
      assert.isFalse(ran)
      assert.deepStrictEqual(exit, Exit.fail(error))
      assert.instanceOf(error, OAuthError)
      assert.strictEqual(error.reason._tag, "MissingCodeOrState")
      assert.strictEqual(error.message, "Missing code or _state")
      assert.isUndefined(error.error)
      assert.include(String(error), "Missing code or _state")
    }))

  it.effect("Effect.catchReasons takes a handler per reason", () =>
    Effect.gen(function*() {
      const tags = (self: Effect.Effect<unknown, OAuthError>) =>
        Effect.catchReasons(self, "OAuthError", {
          MissingCodeOrState: (reason) => Effect.succeed(`again: ${reason.message}`),
          NoBrowser: () => Effect.succeed("no page")
        })
      assert.deepStrictEqual((yield* outcome(codeless, tags)).exit, Exit.succeed("again: Missing code or _state"))
      const { error, exit } = yield* outcome(refusedLogin, tags)
      assert.deepStrictEqual(exit, Exit.fail(error))
    }))
})

// ---- events -----------------------------------------------------------------------------------------------

describe("WebhookError", () => {
  const processor = (maxBodyBytes?: number) =>
    Events.Webhooks.handler({
      publicKey: "not a key",
      handlers: { "wix.data.v2.data_item_created": () => Effect.void },
      ...(maxBodyBytes === undefined ? {} : { maxBodyBytes })
    })
  const handled = <A>(self: Effect.Effect<A, Events.Webhooks.WebhookError>) =>
    Effect.catchReason(self, "WebhookError", "TooLarge", (reason) => Effect.succeed(reason.message))

  it.effect("Effect.catchReason runs its handler for the reason it names, and for no other", () =>
    Effect.gen(function*() {
      const tooLarge = yield* outcome(processor(4).process("a body of more than four bytes"), handled)
      assert.isTrue(tooLarge.ran)
      assert.deepStrictEqual(tooLarge.exit, Exit.succeed("The body is larger than 4 bytes"))

      const badKey = yield* outcome(processor().process("a.b.c"), handled)
      assert.isFalse(badKey.ran)
      assert.deepStrictEqual(badKey.exit, Exit.fail(badKey.error))
      assert.strictEqual(badKey.error.reason._tag, "InvalidKey")
      assert.strictEqual(badKey.error.message, badKey.error.reason.message)
      assert.match(badKey.error.message, /^The public key is not an/)
    }))

  it.effect("a token's reason is the webhook's, the same class", () =>
    Effect.gen(function*() {
      const error = yield* Effect.flip(processor().process("a.b.c"))
      assert.instanceOf(error.reason, Events.InvalidKey)
      assert.isUndefined(error.eventType)
    }))
})

describe("JwtError and EventDecodeError", () => {
  it.effect("Effect.catchReason runs its handler for a refused key, and not for another reason", () =>
    Effect.gen(function*() {
      const handled = <A>(self: Effect.Effect<A, Events.JwtError>) =>
        Effect.catchReason(self, "JwtError", "InvalidKey", (reason) => Effect.succeed(reason._tag))
      const badKey = yield* outcome(importPublicKey("not a key"), handled)
      assert.deepStrictEqual([badKey.ran, badKey.exit], [true, Exit.succeed("InvalidKey")])

      const otherwise = <A>(self: Effect.Effect<A, Events.JwtError>) =>
        Effect.catchReason(self, "JwtError", "BadSignature", () => Effect.succeed("signature"))
      const still = yield* outcome(importPublicKey("not a key"), otherwise)
      assert.isFalse(still.ran)
      assert.deepStrictEqual(still.exit, Exit.fail(still.error))
    }))

  it.effect("an unknown event type is its own reason, with its type; a malformed envelope is not caught by it", () =>
    Effect.gen(function*() {
      const handled = <A>(self: Effect.Effect<A, Events.EventDecodeError>) =>
        Effect.catchReason(self, "EventDecodeError", "UnknownEventType", (reason) => Effect.succeed(reason.eventType))
      const unknown = yield* outcome(Events.decodeEnvelope({ eventType: "wix.nothing.v1.thing_happened", instanceId: "i", data: "{}" }), handled)
      assert.deepStrictEqual([unknown.ran, unknown.exit], [true, Exit.succeed("wix.nothing.v1.thing_happened")])
      assert.strictEqual(unknown.error.eventType, "wix.nothing.v1.thing_happened")

      const malformed = yield* outcome(Events.decodeEnvelopeText("not JSON"), handled)
      assert.isFalse(malformed.ran)
      assert.deepStrictEqual(malformed.exit, Exit.fail(malformed.error))
      assert.strictEqual(malformed.error.reason._tag, "Malformed")
      assert.strictEqual(malformed.error.message, "The event envelope is not JSON text")
    }))
})

describe("LiveError", () => {
  /** The live stream against a platform that answers every connection with `status`. */
  const liveAnswering = (status: number) =>
    Stream.runDrain(Events.live({ lastEventId: "41", reconnect: { attempts: 0 } })).pipe(
      Effect.provideService(PlatformFetch, () => Promise.resolve(new Response("no", { status }))),
      Effect.provideService(PlatformAuth, { headers: Effect.succeed({}), unauthorized: () => Effect.void, host: "api" }),
      Effect.provide(PlatformConfig.layer({ baseUrl: "http://127.0.0.1:1" }))
    )
  const handled = <A>(self: Effect.Effect<A, Events.LiveError>) =>
    Effect.catchReason(self, "LiveError", "Expired", (reason) => Effect.succeed([reason.status, reason.lastEventId]))

  it.effect("Effect.catchReason runs its handler for the reason it names", () =>
    Effect.gen(function*() {
      const { error, ran, exit } = yield* outcome(liveAnswering(410), handled)
      assert.isTrue(ran)
      assert.deepStrictEqual(exit, Exit.succeed([410, "41"]))
      // the readings of before, from the reason
      assert.deepStrictEqual([error.status, error.lastEventId, error.message], [410, "41", "the events after 41 are no longer kept"])
    }))

  it.effect("and leaves another reason failed as it was, without running", () =>
    Effect.gen(function*() {
      const { error, ran, exit } = yield* outcome(liveAnswering(401), handled)
      assert.isFalse(ran)
      assert.deepStrictEqual(exit, Exit.fail(error))
      assert.strictEqual(error.reason._tag, "Unauthorized")
      assert.deepStrictEqual([error.status, error.lastEventId], [401, "41"])
    }))
})
