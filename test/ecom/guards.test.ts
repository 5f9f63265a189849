/**
 * The client's guards of the order answers have exactly the types of the wire Schemas the local
 * platform answers with (checked by the compiler, one line a guard), and say where an answer is wrong.
 */
import { assert, describe, it } from "@effect/vitest"
import * as C from "../../src/ecom/guards/checkouts.ts"
import * as G from "../../src/ecom/guards/orders.ts"
import type * as CW from "../../src/ecom/wire/checkouts.ts"
import type * as W from "../../src/ecom/wire/orders.ts"
import type { TypeOf } from "../../src/http/guard.ts"
import { sameType } from "../support/types.ts"

describe("order answer guards have their Schemas' types", () => {
  it("orders, fulfillments, answers and event bodies", () => {
    sameType<TypeOf<typeof G.Price>, typeof W.Price.Type>(true)
    sameType<TypeOf<typeof G.OrderLineItem>, typeof W.OrderLineItem.Type>(true)
    sameType<TypeOf<typeof G.BuyerInfo>, typeof W.BuyerInfo.Type>(true)
    sameType<TypeOf<typeof G.AddressWithContact>, typeof W.AddressWithContact.Type>(true)
    sameType<TypeOf<typeof G.Activity>, typeof W.Activity.Type>(true)
    sameType<TypeOf<typeof G.Order>, typeof W.Order.Type>(true)
    sameType<TypeOf<typeof G.Fulfillment>, typeof W.Fulfillment.Type>(true)
    sameType<TypeOf<typeof G.OrderResponse>, typeof W.OrderResponse.Type>(true)
    sameType<TypeOf<typeof G.SearchOrdersResponse>, typeof W.SearchOrdersResponse.Type>(true)
    sameType<TypeOf<typeof G.ListFulfillmentsResponse>, typeof W.ListFulfillmentsResponse.Type>(true)
    sameType<TypeOf<typeof G.CreateFulfillmentResponse>, typeof W.CreateFulfillmentResponse.Type>(true)
    sameType<TypeOf<typeof G.OrderEventBody>, typeof W.OrderEventBody.Type>(true)
    sameType<TypeOf<typeof G.PaymentStatusUpdated>, typeof W.PaymentStatusUpdated.Type>(true)
    sameType<TypeOf<typeof G.OrderCanceled>, typeof W.OrderCanceled.Type>(true)
    sameType<TypeOf<typeof G.CheckoutCompleted>, typeof W.CheckoutCompleted.Type>(true)
    sameType<TypeOf<typeof C.CheckoutResponse>, typeof CW.CheckoutResponse.Type>(true)
    sameType<TypeOf<typeof C.CheckoutUrlResponse>, typeof CW.CheckoutUrlResponse.Type>(true)
  })

  it("say where an order is wrong", () => {
    assert.isUndefined(G.Order({ id: "o-1", number: "10001", status: "APPROVED", lineItems: [{ quantity: 1 }] }))
    assert.strictEqual(G.Order({ status: "SHIPPED" }), ".status: expected one of INITIALIZED, APPROVED, CANCELED, PENDING, REJECTED")
    assert.match(G.SearchOrdersResponse({ orders: [{ lineItems: [{ quantity: "1" }] }] }) ?? "", /^\.orders\[0\]\.lineItems\[0\]\.quantity: expected a number/)
  })
})
