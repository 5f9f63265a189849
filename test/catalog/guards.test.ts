/**
 * The client's guards of the catalog answers have exactly the types of the wire Schemas the local
 * platform answers with (checked by the compiler, one line a guard), and say where an answer is wrong.
 */
import { assert, describe, it } from "@effect/vitest"
import * as K from "../../src/catalog/guards/carts.ts"
import * as C from "../../src/catalog/guards/common.ts"
import * as I from "../../src/catalog/guards/inventory.ts"
import * as P from "../../src/catalog/guards/products.ts"
import * as S from "../../src/catalog/guards/subscriptions.ts"
import type * as WK from "../../src/catalog/wire/carts.ts"
import type * as WC from "../../src/catalog/wire/common.ts"
import type * as WI from "../../src/catalog/wire/inventory.ts"
import type * as WP from "../../src/catalog/wire/products.ts"
import type * as WS from "../../src/catalog/wire/subscriptions.ts"
import * as EG from "../../src/catalog/entities/guards/index.ts"
import type * as EW from "../../src/catalog/entities/wire/index.ts"
import * as G from "../../src/http/guard.ts"
import type { TypeOf } from "../../src/http/guard.ts"
import { sameType } from "../support/types.ts"

describe("catalog v1 answer guards have their Schemas' types", () => {
  it("common", () => {
    sameType<TypeOf<typeof C.PagingMetadataV1>, typeof WC.PagingMetadataV1.Type>(true)
    sameType<TypeOf<typeof EG.CursorPagingMetadata>, typeof WC.CursorPagingMetadata.Type>(true)
    sameType<TypeOf<typeof C.ItemMetadata>, typeof WC.ItemMetadata.Type>(true)
    sameType<TypeOf<typeof C.BulkActionMetadata>, typeof WC.BulkActionMetadata.Type>(true)
  })

  it("products", () => {
    sameType<TypeOf<typeof P.FormattedPrice>, typeof WP.FormattedPrice.Type>(true)
    sameType<TypeOf<typeof P.PriceData>, typeof WP.PriceData.Type>(true)
    sameType<TypeOf<typeof P.CostAndProfitData>, typeof WP.CostAndProfitData.Type>(true)
    sameType<TypeOf<typeof P.PageUrl>, typeof WP.PageUrl.Type>(true)
    sameType<TypeOf<typeof P.NumericPropertyRange>, typeof WP.NumericPropertyRange.Type>(true)
    sameType<TypeOf<typeof P.Dimensions>, typeof WP.Dimensions.Type>(true)
    sameType<TypeOf<typeof P.PricePerUnitData>, typeof WP.PricePerUnitData.Type>(true)
    sameType<TypeOf<typeof P.Stock>, typeof WP.Stock.Type>(true)
    sameType<TypeOf<typeof P.MediaItemUrlAndSize>, typeof WP.MediaItemUrlAndSize.Type>(true)
    sameType<TypeOf<typeof P.MediaItemVideo>, typeof WP.MediaItemVideo.Type>(true)
    sameType<TypeOf<typeof P.MediaItem>, typeof WP.MediaItem.Type>(true)
    sameType<TypeOf<typeof P.Media>, typeof WP.Media.Type>(true)
    sameType<TypeOf<typeof P.Choice>, typeof WP.Choice.Type>(true)
    sameType<TypeOf<typeof P.ProductOption>, typeof WP.ProductOption.Type>(true)
    sameType<TypeOf<typeof P.VariantData>, typeof WP.VariantData.Type>(true)
    sameType<TypeOf<typeof P.VariantStock>, typeof WP.VariantStock.Type>(true)
    sameType<TypeOf<typeof P.Variant>, typeof WP.Variant.Type>(true)
    sameType<TypeOf<typeof P.Discount>, typeof WP.Discount.Type>(true)
    sameType<TypeOf<typeof P.Product>, typeof WP.Product.Type>(true)
    sameType<TypeOf<typeof P.Collection>, typeof WP.Collection.Type>(true)
    sameType<TypeOf<typeof P.ProductResponse>, typeof WP.ProductResponse.Type>(true)
    sameType<TypeOf<typeof P.QueryProductsResponse>, typeof WP.QueryProductsResponse.Type>(true)
    sameType<TypeOf<typeof P.ProductOptionsAvailabilityResponse>, typeof WP.ProductOptionsAvailabilityResponse.Type>(true)
    sameType<TypeOf<typeof P.QueryProductVariantsResponse>, typeof WP.QueryProductVariantsResponse.Type>(true)
    sameType<TypeOf<typeof P.StoreVariant>, typeof WP.StoreVariant.Type>(true)
    sameType<TypeOf<typeof P.QueryStoreVariantsResponse>, typeof WP.QueryStoreVariantsResponse.Type>(true)
    sameType<TypeOf<typeof P.StoreVariantResponse>, typeof WP.StoreVariantResponse.Type>(true)
    sameType<TypeOf<typeof P.CollectionResponse>, typeof WP.CollectionResponse.Type>(true)
    sameType<TypeOf<typeof P.QueryCollectionsResponse>, typeof WP.QueryCollectionsResponse.Type>(true)
    sameType<TypeOf<typeof P.UpdateVariantsResponse>, typeof WP.UpdateVariantsResponse.Type>(true)
    sameType<TypeOf<typeof P.BulkProductsResponse>, typeof WP.BulkProductsResponse.Type>(true)
  })

  it("inventory", () => {
    sameType<TypeOf<typeof I.InventoryVariant>, typeof WI.InventoryVariant.Type>(true)
    sameType<TypeOf<typeof I.PreorderInfo>, typeof WI.PreorderInfo.Type>(true)
    sameType<TypeOf<typeof I.InventoryItem>, typeof WI.InventoryItem.Type>(true)
    sameType<TypeOf<typeof I.GetInventoryVariantsResponse>, typeof WI.GetInventoryVariantsResponse.Type>(true)
    sameType<TypeOf<typeof I.QueryInventoryResponse>, typeof WI.QueryInventoryResponse.Type>(true)
  })

  it("carts", () => {
    sameType<TypeOf<typeof K.BuyerInfo>, typeof WK.BuyerInfo.Type>(true)
    sameType<TypeOf<typeof K.CustomData>, typeof WK.CustomData.Type>(true)
    sameType<TypeOf<typeof K.CartActivity>, typeof WK.CartActivity.Type>(true)
    sameType<TypeOf<typeof K.AbandonedCart>, typeof WK.AbandonedCart.Type>(true)
    sameType<TypeOf<typeof K.GetAbandonedCartResponse>, typeof WK.GetAbandonedCartResponse.Type>(true)
    sameType<TypeOf<typeof K.QueryAbandonedCartsResponse>, typeof WK.QueryAbandonedCartsResponse.Type>(true)
  })

  it("subscriptions", () => {
    sameType<TypeOf<typeof S.SubscriptionSettings>, typeof WS.SubscriptionSettings.Type>(true)
    sameType<TypeOf<typeof S.SubscriptionDiscount>, typeof WS.SubscriptionDiscount.Type>(true)
    sameType<TypeOf<typeof S.SubscriptionOption>, typeof WS.SubscriptionOption.Type>(true)
    sameType<TypeOf<typeof S.SubscriptionOptionInProduct>, typeof WS.SubscriptionOptionInProduct.Type>(true)
    sameType<TypeOf<typeof S.SubscriptionOptionResponse>, typeof WS.SubscriptionOptionResponse.Type>(true)
    sameType<TypeOf<typeof S.SubscriptionOptionsResponse>, typeof WS.SubscriptionOptionsResponse.Type>(true)
    sameType<TypeOf<typeof S.SubscriptionOptionsForProductResponse>, typeof WS.SubscriptionOptionsForProductResponse.Type>(true)
    sameType<TypeOf<typeof S.ProductIdsPagingMetadata>, typeof WS.ProductIdsPagingMetadata.Type>(true)
    sameType<TypeOf<typeof S.ProductIdsResponse>, typeof WS.ProductIdsResponse.Type>(true)
    sameType<TypeOf<typeof S.OneTimePurchasesStatusResponse>, typeof WS.OneTimePurchasesStatusResponse.Type>(true)
  })
})

describe("catalog v1 answer guards", () => {
  it("name the place of what is wrong", () => {
    assert.isUndefined(P.QueryProductsResponse({ products: [{ id: "p", priceData: { price: 1 }, variants: [{ choices: { Size: "M" } }] }] }))
    assert.strictEqual(P.QueryProductsResponse({ products: [{ id: "p" }, { priceData: { price: "1" } }] }), ".products[1].priceData.price: expected a number")
    assert.strictEqual(P.Product({ stock: { inventoryStatus: "SOMETIMES" } }), ".stock.inventoryStatus: expected one of IN_STOCK, OUT_OF_STOCK, PARTIALLY_OUT_OF_STOCK, PREORDER")
    assert.strictEqual(P.Product({ variants: [{ choices: { Size: 3 } }] }), ".variants[0].choices.Size: expected a string")
  })
})

describe("catalog v3 entity answer guards", () => {
  it("have their Schemas' types", () => {
    sameType<TypeOf<typeof EG.BulkBrandsResponse>, typeof EW.BulkBrandsResponse.Type>(true)
    sameType<TypeOf<typeof EG.BulkRibbonsResponse>, typeof EW.BulkRibbonsResponse.Type>(true)
    sameType<TypeOf<typeof EG.BulkInfoSectionsResponse>, typeof EW.BulkInfoSectionsResponse.Type>(true)
    sameType<TypeOf<typeof EG.BulkInventoryItemsResponse>, typeof EW.BulkInventoryItemsResponse.Type>(true)
    sameType<TypeOf<typeof EG.CountResponse>, typeof EW.CountResponse.Type>(true)
    sameType<TypeOf<typeof EG.BulkDeleteResponse>, typeof EW.BulkDeleteResponse.Type>(true)
    sameType<TypeOf<typeof EG.Brand>, typeof EW.Brand.Type>(true)
    sameType<TypeOf<typeof EG.BrandResponse>, typeof EW.BrandResponse.Type>(true)
    sameType<TypeOf<typeof EG.QueryBrandsResponse>, typeof EW.QueryBrandsResponse.Type>(true)
    sameType<TypeOf<typeof EG.Ribbon>, typeof EW.RibbonV3.Type>(true)
    sameType<TypeOf<typeof EG.RibbonResponse>, typeof EW.RibbonResponse.Type>(true)
    sameType<TypeOf<typeof EG.QueryRibbonsResponse>, typeof EW.QueryRibbonsResponse.Type>(true)
    sameType<TypeOf<typeof EG.RichContent>, typeof EW.RichContent.Type>(true)
    sameType<TypeOf<typeof EG.InfoSection>, typeof EW.InfoSection.Type>(true)
    sameType<TypeOf<typeof EG.InfoSectionResponse>, typeof EW.InfoSectionResponse.Type>(true)
    sameType<TypeOf<typeof EG.QueryInfoSectionsResponse>, typeof EW.QueryInfoSectionsResponse.Type>(true)
    sameType<TypeOf<typeof EG.CustomizationChoice>, typeof EW.CustomizationChoice.Type>(true)
    sameType<TypeOf<typeof EG.FreeTextSettings>, typeof EW.FreeTextSettings.Type>(true)
    sameType<TypeOf<typeof EG.Customization>, typeof EW.Customization.Type>(true)
    sameType<TypeOf<typeof EG.CustomizationResponse>, typeof EW.CustomizationResponse.Type>(true)
    sameType<TypeOf<typeof EG.QueryCustomizationsResponse>, typeof EW.QueryCustomizationsResponse.Type>(true)
    sameType<TypeOf<typeof EG.BulkCustomizationsResponse>, typeof EW.BulkCustomizationsResponse.Type>(true)
    sameType<TypeOf<typeof EG.PreorderInfo>, typeof EW.PreorderInfoV3.Type>(true)
    sameType<TypeOf<typeof EG.InventoryProduct>, typeof EW.InventoryProduct.Type>(true)
    sameType<TypeOf<typeof EG.InventoryItem>, typeof EW.InventoryItemV3.Type>(true)
    sameType<TypeOf<typeof EG.InventoryItemResponse>, typeof EW.InventoryItemResponse.Type>(true)
    sameType<TypeOf<typeof EG.QueryInventoryItemsResponse>, typeof EW.QueryInventoryItemsResponse.Type>(true)
  })

  it("name the place of what is wrong", () => {
    assert.strictEqual(G.describe(EG.QueryBrandsResponse({ brands: [{ name: 7 }], pagingMetadata: {} })!), ".brands[0].name: expected a string")
  })
})
