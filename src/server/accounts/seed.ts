/**
 * What a new local platform holds. Every seed creates the site itself (its id, one OAuth client that
 * may redirect to any loopback origin, one admin API key); the `demo` seed adds a verified, active
 * member. Seeding is idempotent, and the values are stable for a database: the API key is derived from
 * the instance's seed secret, which a reset keeps, so `reset` then `seed` gives the same values back.
 */
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Redacted from "effect/Redacted"
import { Database } from "../platform/Database.ts"
import type { SeedName } from "../../dev/wire/platform.ts"
import { MemberStore } from "./MemberStore.ts"
import { LOOPBACK_ORIGINS } from "../platform/origins.ts"
import { derive } from "../platform/secrets.ts"
import { SiteRegistry } from "../platform/SiteRegistry.ts"

/** The OAuth client id every seed creates (it may redirect to any loopback origin): what a client's `clientId` is locally. */
export const LOCAL_CLIENT_ID = "sitefx-local-client"
/** The site id every seed gives the local site. */
export const LOCAL_SITE_ID = "sitefx-local-site"
/** The email of the member the `demo` seed creates, verified and active (its password is in `LocalPlatform`'s `demoMember`). */
export const DEMO_MEMBER_EMAIL = "demo@sitefx.dev"
export const DEMO_MEMBER_PASSWORD = "sitefx-demo"
/**
 * The demo password's hash, made once by `hashPassword`: the password is public (`sitefx serve` prints
 * it), and hashing it anew cost every demo start some 40 ms of scrypt before the platform could answer.
 */
const DEMO_MEMBER_PASSWORD_HASH = "scrypt$16384$8$1$kJMvbSYibAowxGKWE4Fweg$BEy8IBg_1j5Rujelb_5FqRON3xWZ8c7cPzBaNljD4Ok"

export interface SeededSite {
  readonly clientId: string
  readonly siteId: string
  readonly apiKey: Redacted.Redacted<string>
}

export interface SeederShape {
  /** The values every seed creates, whether or not it ran yet. */
  readonly site: () => SeededSite
  readonly seed: (name: SeedName) => Effect.Effect<void>
  /**
   * Makes the site's admin key this instance's own after a snapshot's rows replaced the tables (a
   * snapshot saved by another platform carries that platform's key, which stops working here).
   */
  readonly claimSite: () => void
  /** Later modules (data) add what a seed creates for them; steps run after the site and members. */
  readonly extend: (step: (name: SeedName) => Effect.Effect<void>) => void
}

export class Seeder extends Context.Service<Seeder, SeederShape>()("sitefx/server/Seeder") {
  static readonly layer: Layer.Layer<Seeder, never, Database | SiteRegistry | MemberStore> = Layer.effect(
    Seeder,
    Effect.gen(function*() {
      const db = yield* Database
      const site = yield* SiteRegistry
      const members = yield* MemberStore

      const steps: Array<(name: SeedName) => Effect.Effect<void>> = []
      const apiKey = () => `sfx_key_${derive(db.instance().seedSecret, "admin-api-key")}`

      const claimSite = () =>
        db.transaction(() => {
          if (site.siteId() === undefined) site.setSiteId(LOCAL_SITE_ID)
          site.addClient({ id: LOCAL_CLIENT_ID, name: "sitefx local", allowedOrigins: LOOPBACK_ORIGINS })
          site.addApiKey({ id: "admin", name: "Admin API key" }, apiKey())
        })

      const seed = (name: SeedName) =>
        Effect.gen(function*() {
          claimSite()
          if (name === "demo" && members.byEmail(DEMO_MEMBER_EMAIL) === undefined) {
            members.create({
              email: DEMO_MEMBER_EMAIL,
              passwordHash: DEMO_MEMBER_PASSWORD_HASH,
              status: "ACTIVE",
              reasons: [],
              emailVerified: true,
              profile: { firstName: "Demo", lastName: "Member", nickname: "demo" }
            })
          }
          for (const step of steps) yield* step(name)
        })

      return Seeder.of({
        site: () => ({
          clientId: LOCAL_CLIENT_ID,
          siteId: site.siteId() ?? LOCAL_SITE_ID,
          apiKey: Redacted.make(apiKey(), { label: "sitefx admin API key" })
        }),
        seed,
        claimSite,
        extend: (step) => {
          steps.push(step)
        }
      })
    })
  )
}
