/**
 * A catalog script on the store: the whole catalog as a Stream (value of stock by collection), a
 * storefront question answered by the storefront helpers (a product page's price, choices and stock),
 * and a bulk price adjustment of a collection reported product by product.
 * Run against `npm start`: `npm run example examples/store-report.ts`.
 */
import * as Effect from "effect/Effect"
import * as Stream from "effect/Stream"
import { Site } from "sitefx"
import { availableChoices, Collections, displayPrice, Products, resolveVariant, stockOf } from "sitefx/catalog"
import { siteConnection } from "./localSite.ts"

export const storeReport = Effect.gen(function*() {
  // every product, a page of 100 at a time, the next asked for while this one is read
  const stockValue = yield* Products.query().stream.pipe(
    Stream.runFold(() => 0, (sum, p) => sum + (p.stock?.quantity ?? 0) * (p.priceData?.discountedPrice ?? 0))
  )
  // a product page: a shirt in Navy, size M
  const tees = yield* Collections.bySlug("tees")
  const page = yield* Products.query().hasSome("collectionIds", [tees.id!]).ascending("name").limit(1).find
  const shirt = yield* Products.get(page.items[0]!.id!)
  const chosen = { Size: "M" }
  const variant = resolveVariant(shirt, chosen)                       // Incomplete: Color is still to choose
  const colors = availableChoices(shirt, chosen).find((o) => o.name === "Color")!.choices.map((c) => `${c.label}: ${c.state}`)
  // a 10% price rise on the sale collection, each product's fate reported
  const sale = yield* Collections.bySlug("sale")
  const ids = (yield* Products.query().hasSome("collectionIds", [sale.id!]).limit(100).find).items.map((p) => p.id!)
  const raised = yield* Products.bulkAdjust(ids, { price: { percentage: { rate: 10 } } })
  return {
    stockValue: Math.round(stockValue),
    shirt: shirt.name,
    price: displayPrice(shirt)?.formatted.price,
    variant: variant._tag,
    colors,
    stock: stockOf(shirt).status,
    raised: raised.bulkActionMetadata
  }
})

if (import.meta.main) {
  const { baseUrl, apiKey, siteId } = await siteConnection()
  storeReport.pipe(Effect.provide(Site.apiKey({ baseUrl, apiKey, siteId })), Effect.runPromise).then((r) => console.log(r), (e) => {
    console.error(String(e))
    process.exitCode = 1
  })
}
