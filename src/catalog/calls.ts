/**
 * What every catalog call shares: the platform client it goes through, failures as CatalogErrors, and
 * the site's catalog version, asked once per client (that is, once per layer) and kept. Each catalog
 * module (Products, Collections, Brands, ...) builds on this, so a page carries only the modules it uses.
 */
import * as Effect from "effect/Effect"
import type { Guard } from "../http/guard.ts"
import { PlatformClient, type PlatformClientShape } from "../http/PlatformClient.ts"
import type { PlatformError } from "../http/PlatformError.ts"
import type { PlatformRequest } from "../http/PlatformRequest.ts"
import { badAnswer, CatalogCodes, type CatalogError, fromPlatformError } from "./CatalogError.ts"
import { CATALOG_VERSIONS, CatalogPaths, type CatalogVersion } from "./protocol.ts"

/** How a catalog call fails: refused (a CatalogError, see its `code`), or the platform unavailable (a PlatformError, worth a retry). */
export type CatalogFailure = CatalogError | PlatformError

/** Unavailability stays a PlatformError: it is about the platform, not the catalog. */
export const failure: (e: PlatformError) => CatalogFailure = fromPlatformError

/** Runs `f` with the platform client of the environment. */
export const withClient = <A, E>(f: (client: PlatformClientShape) => Effect.Effect<A, E>): Effect.Effect<A, E, PlatformClient> =>
  PlatformClient.use(f)

/** An argument as a refusal names it: a string quoted, anything else by its kind. */
export const shown = (v: unknown): string => (typeof v === "string" ? JSON.stringify(v) : v === null ? "null" : Array.isArray(v) ? "an array" : typeof v)

/** A catalog call whose answer is checked by `guard`. */
export const call = <A>(client: PlatformClientShape, req: PlatformRequest, guard: Guard<A>): Effect.Effect<A, CatalogFailure> =>
  client.json(req, guard).pipe(Effect.mapError(failure))

/** A catalog call whose answer is not read (the platform answers `{}`). */
export const callVoid = (client: PlatformClientShape, req: PlatformRequest): Effect.Effect<void, CatalogFailure> =>
  client.request(req).pipe(Effect.asVoid, Effect.mapError(failure))

const versionAnswer: Guard<{ readonly catalogVersion: CatalogVersion }> = (u) =>
  typeof u === "object" && u !== null && CATALOG_VERSIONS.includes((u as { catalogVersion?: never }).catalogVersion as never)
    ? undefined
    : `.catalogVersion: expected one of ${CATALOG_VERSIONS.join(", ")}`

const known = new WeakMap<PlatformClientShape, CatalogVersion>()

const versionOf = (client: PlatformClientShape): Effect.Effect<CatalogVersion, CatalogFailure> => {
  const cached = known.get(client)
  if (cached !== undefined) return Effect.succeed(cached)
  return call(client, { method: "GET", path: CatalogPaths.version }, versionAnswer).pipe(
    Effect.map(({ catalogVersion }) => {
      known.set(client, catalogVersion)
      return catalogVersion
    })
  )
}

/** The site's catalog version, asked the first time and kept for the client's lifetime. */
export const catalogVersion: Effect.Effect<CatalogVersion, CatalogFailure, PlatformClient> = withClient(versionOf)

/** The refusal of a call `what` on a site whose catalog is `version`, when it is not one of `versions`. */
const wrongCatalog = (versions: ReadonlyArray<CatalogVersion>, what: string, version: CatalogVersion): CatalogError | undefined =>
  versions.includes(version)
    ? undefined
    : version === "STORES_NOT_INSTALLED"
    ? badAnswer(CatalogCodes.storesNotInstalled, `${what}: the site has no store installed`)
    : badAnswer(CatalogCodes.wrongCatalogVersion, `${what} belongs to ${versions.join(" or ")}, and the site runs ${version}`, { version })

/**
 * Runs `f` when the site's catalog is one of `versions`; otherwise fails with a CatalogError that says
 * the site has no store, or which catalog it runs instead of the one `what` belongs to.
 */
export const requireCatalog = <A, E>(
  versions: ReadonlyArray<CatalogVersion>,
  what: string,
  f: (client: PlatformClientShape) => Effect.Effect<A, E>
): Effect.Effect<A, E | CatalogFailure, PlatformClient> =>
  withClient((client) =>
    Effect.flatMap(versionOf(client), (version): Effect.Effect<A, E | CatalogFailure> => {
      const refusal = wrongCatalog(versions, what, version)
      return refusal === undefined ? f(client) : Effect.fail(refusal)
    })
  )

/**
 * {@link requireCatalog} for a read: the first time, the read is sent beside the version question
 * instead of after it (a page's first query costs one round trip, not two), and the version's answer
 * still decides: on another catalog the read's result is dropped for the refusal, and a version question
 * that fails fails the call. Writes never go before the answer.
 */
export const requireCatalogRead = <A, E>(
  versions: ReadonlyArray<CatalogVersion>,
  what: string,
  f: (client: PlatformClientShape) => Effect.Effect<A, E>
): Effect.Effect<A, E | CatalogFailure, PlatformClient> =>
  withClient((client) => {
    const version = known.get(client)
    if (version !== undefined) {
      const refusal = wrongCatalog(versions, what, version)
      return refusal === undefined ? f(client) : Effect.fail(refusal)
    }
    return Effect.zip(versionOf(client), Effect.exit(f(client)), { concurrent: true }).pipe(
      Effect.flatMap(([version, result]): Effect.Effect<A, E | CatalogFailure> => wrongCatalog(versions, what, version) ?? result)
    )
  })

/** Catalog v1 calls (products, collections, v1/v2 inventory). */
export const V1: ReadonlyArray<CatalogVersion> = ["V1_CATALOG"]
/** Calls any installed store answers (catalog v3 entity services, carts, subscription options). */
export const ANY_STORE: ReadonlyArray<CatalogVersion> = ["V1_CATALOG", "V3_CATALOG"]
