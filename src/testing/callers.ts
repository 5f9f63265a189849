/**
 * Who a test's calls come from: a visitor, a member (made on demand), or the site's admin. Each
 * provides sitefx's services (the data, store and members clients' needs) to an effect, connected to
 * the {@link LocalPlatform} of the test, as that caller.
 *
 * @example
 * import { DataItems } from "sitefx"
 * const mine = DataItems.query("Notes").find.pipe(asMember("ada@example.com"))
 * const refused = DataItems.insert("Posts", { title: "Hi" }).pipe(asVisitor)
 */
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import type { PlatformAuth, PlatformClient } from "../http/PlatformClient.ts"
import type { PlatformConfig } from "../http/PlatformConfig.ts"
import type { PlatformError } from "../http/PlatformError.ts"
import type { PlatformHttp } from "../http/PlatformHttp.ts"
import { LocalPlatform } from "../server/LocalPlatform.ts"
import { MemberFlows } from "../session/MemberFlows.ts"
import type { OAuthError } from "../session/OAuthError.ts"
import { Site, type SiteServices } from "../Site.ts"

/** Quick retries: a test platform is on this machine. */
const RETRY = { base: "5 millis", cap: "50 millis" } as const

const sessionOf = LocalPlatform.useSync((platform) =>
  Layer.fresh(Site.layer({ baseUrl: platform.url, clientId: platform.clientId, retry: RETRY })))

/** Runs `effect` as a new visitor of the site (anonymous tokens of their own). */
export const asVisitor = <A, E, R>(effect: Effect.Effect<A, E, R>): Effect.Effect<A, E, Exclude<R, SiteServices> | LocalPlatform> =>
  Effect.flatMap(sessionOf, (session) => Effect.provide(effect, session)) as Effect.Effect<A, E, Exclude<R, SiteServices> | LocalPlatform>

/**
 * Runs `effect` as the member with this login email, signed on with the site's admin key (the member
 * is created, verified and active, when there is none yet).
 */
export const asMember = (email: string) =>
<A, E, R>(effect: Effect.Effect<A, E, R>): Effect.Effect<A, E | OAuthError | PlatformError, Exclude<R, SiteServices> | LocalPlatform> =>
  Effect.gen(function*() {
    const platform = yield* LocalPlatform
    const session = yield* sessionOf
    const signedIn = Effect.andThen(
      MemberFlows.use((members) => members.externalLoginWithSession(email, platform.apiKey, { verifyEmail: true })),
      effect
    )
    return yield* Effect.provide(signedIn, session)
  }) as Effect.Effect<A, E | OAuthError | PlatformError, Exclude<R, SiteServices> | LocalPlatform>

/** What `asAdmin` provides: sitefx's services with the site's admin API key. */
export type AdminServices = PlatformClient | PlatformAuth | PlatformHttp | PlatformConfig

/** Runs `effect` with the site's admin API key (what scripts and batch jobs use). */
export const asAdmin = <A, E, R>(effect: Effect.Effect<A, E, R>): Effect.Effect<A, E, Exclude<R, AdminServices> | LocalPlatform> =>
  Effect.gen(function*() {
    const platform = yield* LocalPlatform
    return yield* Effect.provide(
      effect,
      Layer.fresh(Site.apiKey({ baseUrl: platform.url, apiKey: platform.apiKey, siteId: platform.siteId, retry: RETRY }))
    )
  }) as Effect.Effect<A, E, Exclude<R, AdminServices> | LocalPlatform>
