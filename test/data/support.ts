/**
 * Data test support: an admin (API-key) site and a visitor site on the local platform, and a helper
 * that creates a fresh collection per test so tests never share data.
 */
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as G from "../../src/http/guard.ts"
import { type PlatformAuth, PlatformClient } from "../../src/http/PlatformClient.ts"
import type { PlatformConfig } from "../../src/http/PlatformConfig.ts"
import type { PlatformHttp } from "../../src/http/PlatformHttp.ts"
import type { SessionServices } from "../../src/session/SiteSession.ts"
import { Site } from "../../src/Site.ts"
import { LocalPlatform } from "../support/platform.ts"
import type { DataCollection, Permissions } from "../../src/data/wire/index.ts"

export const retryFast = { base: "5 millis", cap: "40 millis" } as const

/** Runs an effect as an API-key (admin) client: its PlatformClient and config are provided. */
export const asAdmin = <A, E, R>(effect: Effect.Effect<A, E, R>) =>
  Effect.gen(function*() {
    const platform = yield* LocalPlatform
    const site = Site.apiKey({ baseUrl: platform.url, apiKey: platform.apiKey, siteId: platform.siteId, retry: retryFast })
    return yield* Effect.provide(effect, Layer.fresh(site), { local: true })
  }) as Effect.Effect<A, E, Exclude<R, PlatformClient | PlatformAuth | PlatformHttp | PlatformConfig> | LocalPlatform>

/** Runs an effect in a visitor session: its PlatformClient and config are provided. */
export const asVisitor = <A, E, R>(effect: Effect.Effect<A, E, R>) =>
  Effect.gen(function*() {
    const platform = yield* LocalPlatform
    const site = Site.layer({ baseUrl: platform.url, clientId: platform.clientId, retry: retryFast })
    return yield* Effect.provide(effect, Layer.fresh(site), { local: true })
  }) as Effect.Effect<A, E, Exclude<R, SessionServices> | LocalPlatform>

let counter = 0
/** A new collection with a unique id; open to anyone unless permissions say otherwise. */
export const freshCollection = (
  prefix: string,
  options: { readonly permissions?: Permissions; readonly fields?: DataCollection["fields"] } = {}
) =>
  asAdmin(Effect.gen(function*() {
    const client = yield* PlatformClient
    const id = `${prefix}_${Date.now().toString(36)}_${counter++}`
    yield* client.json({
      method: "POST",
      path: "/wix-data/v2/collections",
      payload: {
        collection: {
          id,
          displayName: id,
          fields: options.fields ?? [],
          permissions: options.permissions ?? { read: "ANYONE", insert: "ANYONE", update: "ANYONE", remove: "ANYONE" }
        }
      }
    }, G.struct({ collection: G.struct({ id: G.string }) }))
    return id
  })).pipe(Effect.orDie)

/** `n` posts with ids p0000…, likes cycling 0–9, even/odd tags and dates in January 2026. */
export const posts = (n: number) =>
  Array.from({ length: n }, (_, i) => ({
    _id: `p${String(i).padStart(4, "0")}`,
    title: `Post ${i}`,
    likes: i % 10,
    tags: i % 2 === 0 ? ["even"] : ["odd"],
    published: new Date(Date.UTC(2026, 0, 1 + (i % 28)))
  }))
