/** The catalog version: asked once per layer, and a site without a store refuses store calls plainly. */
import { assert, describe, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import { CatalogError } from "../../src/catalog/CatalogError.ts"
import * as Products from "../../src/catalog/Products.ts"
import { ANY_STORE, catalogVersion, requireCatalog, requireCatalogRead, V1 } from "../../src/catalog/calls.ts"
import { LocalPlatform, settings, stats, withSite } from "../support/platform.ts"

describe("catalog version", () => {
  it.layer(LocalPlatform.layer({ seed: "none" }))((it) => {
    it.effect("is read from the platform once per layer and kept", () =>
      Effect.gen(function*() {
        yield* settings({ catalogVersion: "V1_CATALOG" })
        const before = (yield* stats).requests
        const versions = yield* withSite(Effect.all([catalogVersion, catalogVersion, catalogVersion]))
        assert.deepStrictEqual(versions, ["V1_CATALOG", "V1_CATALOG", "V1_CATALOG"])
        // the visitor token, one version call, and the stats call itself
        assert.strictEqual((yield* stats).requests - before, 3)
      }))

    it.effect("a site without a store: the client says so, and the platform refuses store calls with 428", () =>
      Effect.gen(function*() {
        yield* settings({ catalogVersion: "STORES_NOT_INSTALLED" })
        const error = yield* withSite(requireCatalog(V1, "Products.query", () => Effect.succeed("ran"))).pipe(Effect.flip)
        assert.instanceOf(error, CatalogError)
        assert.strictEqual((error as CatalogError).code, "STORES_NOT_INSTALLED")
        assert.include(error.message, "no store")
        yield* settings({ catalogVersion: "V3_CATALOG" })
        const wrong = yield* withSite(requireCatalog(V1, "Products.query", () => Effect.succeed("ran"))).pipe(Effect.flip)
        assert.strictEqual((wrong as CatalogError).code, "CATALOG_VERSION_MISMATCH")
        assert.include(wrong.message, "V3_CATALOG")
        assert.strictEqual(yield* withSite(requireCatalog(ANY_STORE, "Brands.query", () => Effect.succeed("ran"))), "ran")
        yield* settings({ catalogVersion: "V1_CATALOG" })
      }))

    it.effect("a first read goes out beside the version question, and the version's answer still decides", () =>
      Effect.gen(function*() {
        yield* settings({ catalogVersion: "V1_CATALOG" })
        // both under way at once: the read does not wait for the version's answer
        let versionAsked = false
        const read = requireCatalogRead(V1, "Products.query", () => Effect.sync(() => versionAsked))
        const seen = yield* withSite(Effect.gen(function*() {
          const [first] = yield* Effect.all([read, Effect.sync(() => (versionAsked = true))], { concurrency: 2 })
          return first
        }))
        assert.isFalse(seen)
        assert.deepStrictEqual((yield* withSite(Products.query().limit(1).find)).items.length, 0)
        // another catalog: the read ran, its result is dropped for the refusal
        yield* settings({ catalogVersion: "V3_CATALOG" })
        let ran = false
        const wrong = yield* withSite(requireCatalogRead(V1, "Products.query", () => Effect.sync(() => (ran = true)))).pipe(Effect.flip)
        assert.strictEqual((wrong as CatalogError).code, "CATALOG_VERSION_MISMATCH")
        assert.isTrue(ran)
        // a write never goes before the answer
        let wrote = false
        yield* withSite(requireCatalog(V1, "Products.create", () => Effect.sync(() => (wrote = true)))).pipe(Effect.flip)
        assert.isFalse(wrote)
        yield* settings({ catalogVersion: "V1_CATALOG" })
      }))
  })
})
