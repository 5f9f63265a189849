/**
 * The guards sitefx/dev checks the platform's dev answers with (src/dev/guards/): each has its wire
 * Schema's type (checked by the compiler, so a guard and the Schema the platform answers through cannot
 * drift apart), guard and Schema judge real and broken answers alike, and a dev call whose answer is not
 * the shape it expects fails with a PlatformError that says where.
 */
import { assert, describe, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Schema from "effect/Schema"
import * as Dev from "../../src/dev/index.ts"
import * as MG from "../../src/dev/guards/members.ts"
import * as PG from "../../src/dev/guards/platform.ts"
import * as WG from "../../src/dev/guards/webhooks.ts"
import * as PW from "../../src/dev/wire/platform.ts"
import * as WW from "../../src/dev/wire/webhooks.ts"
import * as G from "../../src/http/guard.ts"
import { PlatformHttp } from "../../src/http/PlatformHttp.ts"
import { sameType } from "../support/types.ts"

/** Every guard the type checks below cover, by name: a new guard without its check fails the first test. */
const checked = [
  "SiteSettings", "OutboxMessage", "OutboxResponse", "ClockResponse", "CaptchaResponse", "StatsResponse", "EnrollFactorResponse",
  "PendingFault", "AddedFault", "FaultsResponse", "Health", "SiteConnection", "IdentityResponse", "IdentitiesResponse",
  "Snapshot", "SnapshotsResponse", "SnapshotResponse", "RestoreSnapshotResponse", "RequestRecord", "RequestsResponse",
  "WebhookResponse", "WebhooksResponse", "DeadLetter", "DeadLettersResponse", "DeadLetterResponse", "RedeliverAllResponse",
  "PublicKeyResponse", "DiscardedResponse", "ProfileState"
]

describe("sitefx/dev's guards have their Schemas' types", () => {
  it("every guard of src/dev/guards is held to its Schema below", () => {
    assert.deepStrictEqual([...Object.keys(PG), ...Object.keys(MG), ...Object.keys(WG)].sort(), [...checked].sort())
  })

  it("settings, outbox, clock, profile, captcha, counters, members", () => {
    sameType<G.TypeOf<typeof PG.SiteSettings>, PW.SiteSettings>(true)
    sameType<G.TypeOf<typeof PG.ProfileState>, PW.ProfileState>(true)
    sameType<G.TypeOf<typeof PG.OutboxMessage>, PW.OutboxMessage>(true)
    sameType<G.TypeOf<typeof PG.OutboxResponse>, typeof PW.OutboxResponse.Type>(true)
    sameType<G.TypeOf<typeof PG.ClockResponse>, typeof PW.ClockResponse.Type>(true)
    sameType<G.TypeOf<typeof PG.CaptchaResponse>, typeof PW.CaptchaResponse.Type>(true)
    sameType<G.TypeOf<typeof PG.StatsResponse>, typeof PW.StatsResponse.Type>(true)
    sameType<G.TypeOf<typeof MG.EnrollFactorResponse>, typeof PW.EnrollFactorResponse.Type>(true)
    sameType<G.TypeOf<typeof PG.Health>, typeof PW.Health.Type>(true)
    sameType<G.TypeOf<typeof PG.SiteConnection>, typeof PW.SiteConnection.Type>(true)
    sameType<G.TypeOf<typeof MG.IdentityResponse>, typeof PW.IdentityResponse.Type>(true)
    sameType<G.TypeOf<typeof MG.IdentitiesResponse>, typeof PW.IdentitiesResponse.Type>(true)
  })

  it("faults, snapshots and the request log", () => {
    sameType<G.TypeOf<typeof PG.PendingFault>, PW.PendingFault>(true)
    sameType<G.TypeOf<typeof PG.AddedFault>, typeof PW.AddedFault.Type>(true)
    sameType<G.TypeOf<typeof PG.FaultsResponse>, typeof PW.FaultsResponse.Type>(true)
    sameType<G.TypeOf<typeof PG.Snapshot>, PW.Snapshot>(true)
    sameType<G.TypeOf<typeof PG.SnapshotsResponse>, typeof PW.SnapshotsResponse.Type>(true)
    sameType<G.TypeOf<typeof PG.SnapshotResponse>, typeof PW.SnapshotResponse.Type>(true)
    sameType<G.TypeOf<typeof PG.RestoreSnapshotResponse>, typeof PW.RestoreSnapshotResponse.Type>(true)
    sameType<G.TypeOf<typeof PG.RequestRecord>, PW.RequestRecord>(true)
    sameType<G.TypeOf<typeof PG.RequestsResponse>, PW.RequestsResponse>(true)
  })

  it("webhooks and their dead letters", () => {
    sameType<G.TypeOf<typeof WG.WebhookResponse>, typeof WW.WebhookResponse.Type>(true)
    sameType<G.TypeOf<typeof WG.WebhooksResponse>, typeof WW.WebhooksResponse.Type>(true)
    sameType<G.TypeOf<typeof WG.DeadLetter>, WW.DeadLetter>(true)
    sameType<G.TypeOf<typeof WG.DeadLettersResponse>, typeof WW.DeadLettersResponse.Type>(true)
    sameType<G.TypeOf<typeof WG.DeadLetterResponse>, typeof WW.DeadLetterResponse.Type>(true)
    sameType<G.TypeOf<typeof WG.RedeliverAllResponse>, typeof WW.RedeliverAllResponse.Type>(true)
    sameType<G.TypeOf<typeof WG.PublicKeyResponse>, typeof WW.PublicKeyResponse.Type>(true)
    sameType<G.TypeOf<typeof WG.DiscardedResponse>, typeof WW.DiscardedResponse.Type>(true)
  })
})

const snapshot = {
  name: "before", format: "sitefx-snapshot", formatVersion: 1, sitefxVersion: "0.1.0", createdDate: "2026-01-01T00:00:00.000Z",
  migrations: ["001"], counts: { members: 1, collections: 2, items: 3, products: 4, events: 5 }, sizeBytes: 100
}
const record = { seq: 1, time: "2026-01-01T00:00:00.000Z", method: "GET", path: "/x", status: 403, durationMs: 1.5, caller: { kind: "member", id: "m" } }

describe("a dev guard", () => {
  it("judges answers as the platform's Schema does: the literal ok, a fault's status, a snapshot's format, a logged rule", () => {
    const cases: ReadonlyArray<readonly [G.Guard<unknown>, Schema.Top, unknown]> = [
      [PG.Health, PW.Health, { ok: true }],
      [PG.Health, PW.Health, { ok: false }],
      [PG.Health, PW.Health, { ok: "true" }],
      [PG.FaultsResponse, PW.FaultsResponse, { faults: [{ id: "f", path: "/wix-data", status: 503, count: 2, hits: 0 }] }],
      [PG.FaultsResponse, PW.FaultsResponse, { faults: [{ id: "f", path: "/wix-data", status: 404, count: 2, hits: 0 }] }],
      [PG.FaultsResponse, PW.FaultsResponse, { faults: [{ id: "f", path: "/wix-data", kind: "reset", when: "after", rate: 0.5, seed: 7, hits: 3 }] }],
      [PG.FaultsResponse, PW.FaultsResponse, { faults: [{ id: "f", path: "/wix-data", kind: "explode", hits: 3 }] }],
      [PG.SnapshotsResponse, PW.SnapshotsResponse, { snapshots: [snapshot, { ...snapshot, counts: { ...snapshot.counts, orders: 2 } }] }],
      [PG.SnapshotsResponse, PW.SnapshotsResponse, { snapshots: [{ ...snapshot, format: "zip" }] }],
      [PG.SnapshotsResponse, PW.SnapshotsResponse, { snapshots: [{ ...snapshot, counts: { members: 1 } }] }],
      [PG.RequestsResponse, PW.RequestsResponse, { requests: [record], last: 1 }],
      [PG.RequestsResponse, PW.RequestsResponse, { requests: [{ ...record, rule: { kind: "permission", id: "data.permission", message: "no", caller: "visitor" }, code: "WDE0027" }], last: 1 }],
      [PG.RequestsResponse, PW.RequestsResponse, { requests: [{ ...record, caller: { kind: "robot" } }], last: 1 }],
      [PG.RequestsResponse, PW.RequestsResponse, { requests: [record] }],
      [PG.SiteSettings, PW.SiteSettings, { captcha: false, emailVerification: false, ownerApproval: true, mfaRequired: false, accessTokenTtlSeconds: 600, catalogVersion: "V1_CATALOG" }],
      [PG.SiteSettings, PW.SiteSettings, { captcha: false, emailVerification: false, ownerApproval: true, mfaRequired: false, accessTokenTtlSeconds: 600, catalogVersion: "V9" }],
      [PG.ProfileState, PW.ProfileState, { profile: "production", plan: "elite", rateLimit: 5, rateLimitWindowSeconds: 1, scanRowsPerSecond: 20 }],
      [PG.ProfileState, PW.ProfileState, { profile: "production", plan: "gold", rateLimit: 5, rateLimitWindowSeconds: 1, scanRowsPerSecond: 20 }],
      [PG.ProfileState, PW.ProfileState, { profile: "on", plan: "free", rateLimit: 5, rateLimitWindowSeconds: 1, scanRowsPerSecond: 20 }],
      [PG.ProfileState, PW.ProfileState, { profile: "none", plan: "free", rateLimit: 200, scanRowsPerSecond: 20 }],
      [MG.IdentitiesResponse, PW.IdentitiesResponse, { identities: [{ id: "i", status: { name: "PENDING" }, factors: [{ factorId: "f", type: "TOTP", status: "ACTIVE" }] }] }],
      [MG.IdentitiesResponse, PW.IdentitiesResponse, { identities: [{ id: 1 }] }],
      [WG.DeadLettersResponse, WW.DeadLettersResponse, { deadLetters: [{ id: "d", webhookId: "w", url: "http://x", eventId: 1, eventType: "t", attempts: 0, lastError: "full", failedDate: "d", redelivering: false }] }],
      [WG.DeadLettersResponse, WW.DeadLettersResponse, { deadLetters: [{ id: "d", webhookId: "w" }] }]
    ]
    for (const [guard, schema, value] of cases) {
      assert.strictEqual(guard(value) === undefined, Schema.is(schema)(value), JSON.stringify(value))
    }
  })

  it("says where an answer is wrong and what was expected", () => {
    assert.strictEqual(G.describe(PG.FaultsResponse({ faults: [{ id: "f", path: "/x", status: 404, hits: 0 }] })!), ".faults[0].status: expected one of 429, 500, 502, 503, 504")
    assert.strictEqual(G.describe(PG.Health({ ok: 1 })!), ".ok: expected true")
    assert.strictEqual(G.describe(MG.IdentitiesResponse({ identities: [{ id: 1 }] })!), ".identities[0].id: expected a string")
  })

  it.effect("makes a dev call whose answer has another shape fail with a PlatformError naming the call and the place", () =>
    Effect.gen(function*() {
      const wrongAnswer = Layer.succeed(PlatformHttp, PlatformHttp.of({
        send: () => Effect.succeed({ body: { identities: [{ id: 7 }] }, headers: {}, requestId: "r-1" })
      }))
      const error = yield* Effect.flip(Effect.provide(Dev.Members.list(), wrongAnswer))
      assert.strictEqual(error._tag, "PlatformError")
      assert.strictEqual(error.path, "/_sitefx/members")
      assert.strictEqual(error.reason._tag, "SystemError")
      assert.strictEqual(error.reason.message, "Unexpected response body: .identities[0].id: expected a string")
      assert.strictEqual(error.requestId, "r-1")
    }))
})
