/**
 * The storefront helpers against the local platform's demo store: for every product with options and
 * several partial choices, the helpers agree with the platform's own options-availability answer (the
 * variant selected, whether it can be bought, which choices are still in stock), the three-level stock
 * agrees with the product's, and the image URLs they build for the local platform load in a browser's
 * way (an HTTP GET answering an image).
 */
import { assert, describe, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as Stream from "effect/Stream"
import * as Products from "../../src/catalog/Products.ts"
import { availableChoices, LOCAL_MEDIA_PATH, mediaUrlResolver, resolveVariant, stockOf } from "../../src/catalog/storefront/index.ts"
import { LocalPlatform, withSite } from "../support/platform.ts"

describe("storefront helpers on the demo store", () => {
  it.layer(LocalPlatform.layer({ seed: "demo" }))((it) => {
    it.effect("agree with the platform's options availability for every product", () =>
      Effect.gen(function*() {
        const products = yield* withSite(Products.query({ includeVariants: true }).stream.pipe(Stream.runCollect))
        let compared = 0
        for (const product of products) {
          const options = product.productOptions ?? []
          if (options.length === 0) continue
          const first = options[0]!
          // no choice, one option chosen, and every option chosen
          const partials = [
            {},
            { [first.name!]: first.choices![0]!.description! },
            Object.fromEntries(options.map((o) => [o.name!, o.choices![o.choices!.length - 1]!.description!]))
          ]
          for (const chosen of partials) {
            const platform = yield* withSite(Products.optionsAvailability(product.id!, chosen))
            const resolved = resolveVariant(product, chosen)
            assert.strictEqual(resolved._tag === "Resolved" && resolved.purchasable, platform.availableForPurchase === true, `${product.name} ${JSON.stringify(chosen)}`)
            if (resolved._tag === "Resolved") assert.strictEqual(resolved.variant.variant?.priceData?.price, platform.selectedVariant?.price?.price)
            const helper = availableChoices(product, chosen)
            for (const option of platform.productOptions ?? []) {
              const mine = helper.find((o) => o.name === option.name)!
              for (const choice of option.choices ?? []) {
                const c = mine.choices.find((x) => x.label === choice.description)!
                assert.strictEqual(c.purchasable, choice.inStock, `${product.name} ${option.name}=${choice.description} given ${JSON.stringify(chosen)}`)
                assert.strictEqual(c.selectable, choice.visible)
              }
            }
            compared++
          }
          const stock = stockOf(product)
          assert.strictEqual(stock.status, product.stock!.inventoryStatus)
        }
        assert.isAbove(compared, 100)
      }))

    it.effect("image URLs for the local platform load", () =>
      Effect.gen(function*() {
        const platform = yield* LocalPlatform
        const page = yield* withSite(Products.query().limit(3).find)
        const imageUrl = mediaUrlResolver(new URL(LOCAL_MEDIA_PATH, platform.url).href)
        for (const product of page.items) {
          const url = imageUrl(product.media!, { width: 400, height: 400 })!
          assert.isTrue(url.startsWith(`${platform.url}/media/`), url)
          const res = yield* Effect.promise(() => fetch(url))
          assert.strictEqual(res.status, 200)
          assert.strictEqual(res.headers.get("content-type"), "image/svg+xml")
          assert.include(yield* Effect.promise(() => res.text()), "<svg")
        }
      }))
  })
})
