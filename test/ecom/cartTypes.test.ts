/**
 * The Cart client's types: each generation's functions answer that generation's cart, the wire types
 * are the Schemas' own, and a line to add takes the catalog reference both generations share.
 */
import { describe, expectTypeOf, it } from "@effect/vitest"
import type * as Effect from "effect/Effect"
import { Cart } from "../../src/ecom/index.ts"
import type * as W from "../../src/ecom/wire/carts.ts"

type Success<T> = T extends Effect.Effect<infer A, any, any> ? A : never

describe("Cart's types", () => {
  it("V1 by default, V2 when named", () => {
    expectTypeOf<Success<ReturnType<typeof Cart.create>>>().toEqualTypeOf<W.CartV2>()
    const v1 = Cart.get()
    const v2 = Cart.get("V2")
    expectTypeOf<Success<typeof v1>>().toEqualTypeOf<W.CartV1>()
    expectTypeOf<Success<typeof v2>>().toEqualTypeOf<W.CartV2>()
    const e1 = Cart.estimate()
    const e2 = Cart.estimate("V2")
    expectTypeOf<Success<typeof e1>>().toEqualTypeOf<W.EstimateTotalsResponse>()
    expectTypeOf<Success<typeof e2>>().toEqualTypeOf<W.EstimateCurrentCartResponse>()
    expectTypeOf<Cart.CartOf<"V2">>().toEqualTypeOf<W.CartV2>()
    expectTypeOf<Cart.EstimateOf<"V1">>().toEqualTypeOf<W.EstimateTotalsResponse>()
  })

  it("lines: a reference and an optional quantity; V1 lines carry MultiCurrencyPrice, V2 lines ConvertedMoney", () => {
    expectTypeOf<Cart.NewLineItem["catalogReference"]>().toEqualTypeOf<W.CatalogReference>()
    expectTypeOf<Cart.NewLineItem["quantity"]>().toEqualTypeOf<number | undefined>()
    expectTypeOf<NonNullable<W.CartV1["lineItems"]>[number]["price"]>().toEqualTypeOf<W.MultiCurrencyPrice | undefined>()
    expectTypeOf<NonNullable<NonNullable<W.CartV2["lineItems"]>[number]["pricing"]>["unitPrice"]>().toEqualTypeOf<W.ConvertedMoney | undefined>()
    expectTypeOf<W.CartV1["checkoutId"]>().toEqualTypeOf<string | null | undefined>()
    // @ts-expect-error a generation is V1 or V2
    Cart.get("V3")
  })
})
