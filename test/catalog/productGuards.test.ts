/**
 * The client's guards of catalog v1 answers have exactly the types of the wire Schemas the local
 * platform answers with (checked by the compiler), and say where an answer is wrong.
 */
import { assert, describe, it } from "@effect/vitest"
import * as G from "../../src/catalog/guards/products.ts"
import type * as I from "../../src/catalog/wire/inventory.ts"
import type * as W from "../../src/catalog/wire/products.ts"
import type { TypeOf } from "../../src/http/guard.ts"
import { sameType } from "../support/types.ts"


describe("catalog v1 answer guards", () => {
  it("have their Schemas' types", () => {
    sameType<TypeOf<typeof G.Product>, W.Product>(true)
    sameType<TypeOf<typeof G.Collection>, W.Collection>(true)
    sameType<TypeOf<typeof G.Variant>, W.Variant>(true)
    sameType<TypeOf<typeof G.ProductResponse>, typeof W.ProductResponse.Type>(true)
    sameType<TypeOf<typeof G.QueryProductsResponse>, W.QueryProductsResponse>(true)
    sameType<TypeOf<typeof G.ProductOptionsAvailabilityResponse>, W.ProductOptionsAvailabilityResponse>(true)
    sameType<TypeOf<typeof G.QueryProductVariantsResponse>, typeof W.QueryProductVariantsResponse.Type>(true)
    sameType<TypeOf<typeof G.StoreVariant>, W.StoreVariant>(true)
    sameType<TypeOf<typeof G.QueryStoreVariantsResponse>, typeof W.QueryStoreVariantsResponse.Type>(true)
    sameType<TypeOf<typeof G.StoreVariantResponse>, typeof W.StoreVariantResponse.Type>(true)
    sameType<TypeOf<typeof G.CollectionResponse>, typeof W.CollectionResponse.Type>(true)
    sameType<TypeOf<typeof G.QueryCollectionsResponse>, typeof W.QueryCollectionsResponse.Type>(true)
    sameType<TypeOf<typeof G.UpdateVariantsResponse>, typeof W.UpdateVariantsResponse.Type>(true)
    sameType<TypeOf<typeof G.BulkProductsResponse>, W.BulkProductsResponse>(true)
    sameType<TypeOf<typeof G.InventoryItem>, I.InventoryItem>(true)
    sameType<TypeOf<typeof G.GetInventoryVariantsResponse>, typeof I.GetInventoryVariantsResponse.Type>(true)
    sameType<TypeOf<typeof G.QueryInventoryResponse>, typeof I.QueryInventoryResponse.Type>(true)
  })

  it("name the place of what is wrong", () => {
    assert.isUndefined(G.QueryProductsResponse({ products: [{ id: "p", priceData: { price: 1 }, variants: [{ choices: { Size: "M" } }] }] }))
    assert.strictEqual(G.QueryProductsResponse({ products: [{ id: "p" }, { priceData: { price: "1" } }] }), ".products[1].priceData.price: expected a number")
    assert.strictEqual(G.Product({ stock: { inventoryStatus: "SOMETIMES" } }), ".stock.inventoryStatus: expected one of IN_STOCK, OUT_OF_STOCK, PARTIALLY_OUT_OF_STOCK, PREORDER")
    assert.strictEqual(G.Product({ variants: [{ choices: { Size: 3 } }] }), ".variants[0].choices.Size: expected a string")
  })
})
