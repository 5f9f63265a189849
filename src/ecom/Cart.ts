/**
 * The shopper's current cart: what the session's visitor or member is about to buy. Both cart
 * generations sit behind the one set of functions; each takes the generation last (`"V1"` unless
 * named) and sends exactly what the platform's official module of that generation sends, and answers
 * that generation's cart: Cart V1 (`checkoutId`, lines priced as `price`/`fullPrice`) or Cart V2
 * (`quantityInfo`, `pricing`, `source`). What a call means is the same in both: a line to add is a
 * catalog reference and a quantity, a quantity change names the line, a removal the lines' ids.
 *
 * @example
 * import { Cart, STORES_APP_ID } from "sitefx/ecom"
 * declare const productId: string, variantId: string
 * const cart = yield* Cart.add([{ catalogReference: { appId: STORES_APP_ID, catalogItemId: productId, options: { variantId } }, quantity: 2 }])
 * const totals = yield* Cart.estimate()
 * console.log(totals.priceSummary?.total?.formattedAmount)
 */
import * as Effect from "effect/Effect"
import type { Guard } from "../http/guard.ts"
import { PlatformClient } from "../http/PlatformClient.ts"
import type { PlatformError } from "../http/PlatformError.ts"
import type { PlatformRequest } from "../http/PlatformRequest.ts"
import { answerError } from "../http/Refusal.ts"
import { EcomError, fromPlatformError, invalidArgument } from "./EcomError.ts"
import * as G from "./guards/carts.ts"
import { CartCodes, type CartGeneration, CartV1Paths, CartV2Paths, MAX_LINE_ITEM_QUANTITY } from "./protocol.ts"
import type { CartV1, CartV2, CatalogReference, EstimateCurrentCartResponse, EstimateTotalsResponse } from "./wire/carts.ts"

export { CartCodes, type CartGeneration, STORES_APP_ID } from "./protocol.ts"
export type { CartV1, CartV2, CatalogReference, EstimateCurrentCartResponse, EstimateTotalsResponse } from "./wire/carts.ts"

/** How a cart call fails: refused (an EcomError, see its `code`), or the platform unavailable (a PlatformError). */
export type CartFailure = EcomError | PlatformError

/** The cart of a generation. */
export type CartOf<V extends CartGeneration> = V extends "V2" ? CartV2 : CartV1
/** The totals of a generation's estimate. */
export type EstimateOf<V extends CartGeneration> = V extends "V2" ? EstimateCurrentCartResponse : EstimateTotalsResponse

/** A line to add: a catalog item (a store product: its id, and `{ variantId }` or `{ options: { Size: "L" } }`) and how many (1 by default). */
export interface NewLineItem {
  readonly catalogReference: CatalogReference
  readonly quantity?: number | undefined
}

/** A line's new quantity. */
export interface QuantityChange {
  readonly id: string
  readonly quantity: number
}

const send = <A>(req: PlatformRequest, guard: Guard<A>): Effect.Effect<A, CartFailure, PlatformClient> =>
  PlatformClient.use((client) => client.json(req, guard).pipe(Effect.mapError(fromPlatformError)))

const cartOf = <C>(answer: { readonly cart?: C | undefined }): Effect.Effect<C, EcomError> =>
  answer.cart === undefined
    ? Effect.fail(new EcomError({ reason: answerError(CartCodes.ownedCartNotFound, "The answer holds no cart") }))
    : Effect.succeed(answer.cart)

const checkLines = (lines: ReadonlyArray<NewLineItem>): EcomError | undefined => {
  if (!Array.isArray(lines) || lines.length === 0) return invalidArgument("Cart.add: give at least one line item", "lineItems")
  for (const [i, line] of lines.entries()) {
    const ref = line?.catalogReference
    if (typeof ref?.catalogItemId !== "string" || ref.catalogItemId === "" || typeof ref.appId !== "string" || ref.appId === "") {
      return invalidArgument(`lineItems[${i}].catalogReference needs an appId and a catalogItemId`, `lineItems[${i}].catalogReference`)
    }
    if (line.quantity !== undefined) {
      const bad = checkQuantity(line.quantity, `lineItems[${i}].quantity`)
      if (bad !== undefined) return bad
    }
  }
  return undefined
}

const checkQuantity = (quantity: number, field: string): EcomError | undefined =>
  Number.isInteger(quantity) && quantity >= 1 && quantity <= MAX_LINE_ITEM_QUANTITY
    ? undefined
    : invalidArgument(`${field} must be a whole number from 1 to ${MAX_LINE_ITEM_QUANTITY}`, field)

const checked = <A, R>(refusal: EcomError | undefined, f: () => Effect.Effect<A, CartFailure, R>): Effect.Effect<A, CartFailure, R> =>
  refusal === undefined ? f() : Effect.fail(refusal)

const lineInput = (line: NewLineItem) => ({ catalogReference: line.catalogReference, ...(line.quantity === undefined ? {} : { quantity: line.quantity }) })

/**
 * The current cart; OWNED_CART_NOT_FOUND when the shopper has none yet.
 *
 * @example
 * const cart = yield* Cart.get("V2")
 * const count = (cart.lineItems ?? []).reduce((n, l) => n + (l.quantityInfo?.requestedQuantity ?? 0), 0)
 */
export function get(generation?: "V1"): Effect.Effect<CartV1, CartFailure, PlatformClient>
export function get(generation: "V2"): Effect.Effect<CartV2, CartFailure, PlatformClient>
export function get(generation: CartGeneration = "V1"): Effect.Effect<CartV1 | CartV2, CartFailure, PlatformClient> {
  return generation === "V2"
    ? Effect.flatMap(send({ method: "GET", path: CartV2Paths.current }, G.CartV2Answer), cartOf)
    : Effect.flatMap(send({ method: "GET", path: CartV1Paths.current }, G.CartV1Answer), cartOf)
}

/**
 * Adds line items to the current cart, creating it when there is none (a reference already in the
 * cart adds to its line); INSUFFICIENT_INVENTORY when the stock is short, ITEM_NOT_FOUND_IN_CATALOG
 * for an item not for sale.
 */
export function add(lineItems: ReadonlyArray<NewLineItem>, generation?: "V1"): Effect.Effect<CartV1, CartFailure, PlatformClient>
export function add(lineItems: ReadonlyArray<NewLineItem>, generation: "V2"): Effect.Effect<CartV2, CartFailure, PlatformClient>
export function add(lineItems: ReadonlyArray<NewLineItem>, generation: CartGeneration = "V1"): Effect.Effect<CartV1 | CartV2, CartFailure, PlatformClient> {
  return checked<CartV1 | CartV2, PlatformClient>(checkLines(lineItems), () =>
    generation === "V2"
      ? Effect.flatMap(send({ method: "POST", path: CartV2Paths.addLineItems, payload: { catalogItems: lineItems.map(lineInput) } }, G.CartV2Answer), cartOf)
      : Effect.flatMap(send({ method: "POST", path: CartV1Paths.addToCart, payload: { lineItems: lineItems.map(lineInput) } }, G.CartV1Answer), cartOf))
}

/** Creates the current cart with its first line items (Cart V2); CART_ALREADY_EXISTS when there is one. */
export const create = (lineItems: ReadonlyArray<NewLineItem>): Effect.Effect<CartV2, CartFailure, PlatformClient> =>
  checked(checkLines(lineItems), () =>
    Effect.flatMap(send({ method: "POST", path: CartV2Paths.current, payload: { catalogItems: lineItems.map(lineInput) } }, G.CartV2Answer), cartOf))

/** Sets line items' quantities; a raise past the stock is INSUFFICIENT_INVENTORY and changes nothing. */
export function updateQuantities(changes: ReadonlyArray<QuantityChange>, generation?: "V1"): Effect.Effect<CartV1, CartFailure, PlatformClient>
export function updateQuantities(changes: ReadonlyArray<QuantityChange>, generation: "V2"): Effect.Effect<CartV2, CartFailure, PlatformClient>
export function updateQuantities(
  changes: ReadonlyArray<QuantityChange>,
  generation: CartGeneration = "V1"
): Effect.Effect<CartV1 | CartV2, CartFailure, PlatformClient> {
  const refusal = !Array.isArray(changes) || changes.length === 0
    ? invalidArgument("Cart.updateQuantities: name at least one line item", "lineItems")
    : changes.map((c, i) => typeof c?.id !== "string" || c.id === "" ? invalidArgument(`lineItems[${i}].id must be a line item id`, `lineItems[${i}].id`) : checkQuantity(c.quantity, `lineItems[${i}].quantity`))
      .find((e) => e !== undefined)
  return checked<CartV1 | CartV2, PlatformClient>(refusal, () =>
    generation === "V2"
      ? Effect.flatMap(
        send({ method: "POST", path: CartV2Paths.updateLineItems, payload: { lineItems: changes.map((c) => ({ lineItemId: c.id, quantity: { newQuantity: c.quantity } })) } }, G.CartV2Answer),
        cartOf
      )
      : Effect.flatMap(
        send({ method: "POST", path: CartV1Paths.updateQuantities, payload: { lineItems: changes.map((c) => ({ id: c.id, quantity: c.quantity })) } }, G.CartV1Answer),
        cartOf
      ))
}

/** Removes line items by id; LINE_ITEM_NOT_FOUND_IN_CART when one is not in the cart (nothing is removed then). */
export function removeLineItems(lineItemIds: ReadonlyArray<string>, generation?: "V1"): Effect.Effect<CartV1, CartFailure, PlatformClient>
export function removeLineItems(lineItemIds: ReadonlyArray<string>, generation: "V2"): Effect.Effect<CartV2, CartFailure, PlatformClient>
export function removeLineItems(lineItemIds: ReadonlyArray<string>, generation: CartGeneration = "V1"): Effect.Effect<CartV1 | CartV2, CartFailure, PlatformClient> {
  const refusal = !Array.isArray(lineItemIds) || lineItemIds.length === 0 || lineItemIds.some((id) => typeof id !== "string" || id === "")
    ? invalidArgument("Cart.removeLineItems: give the ids of the lines to remove", "lineItemIds")
    : undefined
  return checked<CartV1 | CartV2, PlatformClient>(refusal, () =>
    generation === "V2"
      ? Effect.flatMap(send({ method: "POST", path: CartV2Paths.removeLineItems, payload: { lineItemIds } }, G.CartV2Answer), cartOf)
      : Effect.flatMap(send({ method: "POST", path: CartV1Paths.removeLineItems, payload: { lineItemIds } }, G.CartV1Answer), cartOf))
}

/**
 * The cart's totals before checkout: subtotal at full prices, the products' discounts, shipping 0
 * (chosen at checkout), tax and total. V1 answers `priceSummary`, V2 `summary.priceSummary`.
 */
export function estimate(generation?: "V1"): Effect.Effect<EstimateTotalsResponse, CartFailure, PlatformClient>
export function estimate(generation: "V2"): Effect.Effect<EstimateCurrentCartResponse, CartFailure, PlatformClient>
export function estimate(generation: CartGeneration = "V1"): Effect.Effect<EstimateTotalsResponse | EstimateCurrentCartResponse, CartFailure, PlatformClient> {
  return generation === "V2"
    ? send({ method: "POST", path: CartV2Paths.estimate, payload: {} }, G.EstimateV2Answer)
    : send({ method: "POST", path: CartV1Paths.estimateTotals, payload: {} }, G.EstimateTotalsAnswer)
}

/** Deletes the current cart; OWNED_CART_NOT_FOUND when there is none. */
export const deleteCurrent = (generation: CartGeneration = "V1"): Effect.Effect<void, CartFailure, PlatformClient> =>
  PlatformClient.use((client) =>
    client.request({ method: "DELETE", path: generation === "V2" ? CartV2Paths.current : CartV1Paths.current }).pipe(
      Effect.asVoid,
      Effect.mapError(fromPlatformError)
    ))

/** Starts a checkout from the current cart (Cart V1); its id. CART_IS_EMPTY for an empty cart. */
export const createCheckout = (options: { readonly channelType?: string } = {}): Effect.Effect<string, CartFailure, PlatformClient> =>
  Effect.flatMap(
    send({ method: "POST", path: CartV1Paths.createCheckout, payload: { ...(options.channelType === undefined ? {} : { channelType: options.channelType }) } }, G.CheckoutAnswer),
    ({ checkoutId }) =>
      checkoutId === undefined
        ? Effect.fail(new EcomError({ reason: answerError(CartCodes.emptyCart, "The answer holds no checkout id") }))
        : Effect.succeed(checkoutId)
  )
