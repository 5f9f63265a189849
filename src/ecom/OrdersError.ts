/**
 * The orders' typed error: one Refusal (src/http/Refusal.ts) whose code is the platform's application
 * code (`ORDER_NOT_FOUND`, `ORDER_ALREADY_PAID`, ...; see `OrderCodes`) or the code of its kind. Raised
 * by the client's own checks before any request, and made from the platform's answers. Unavailability
 * (no answer, 429, 502–504) stays a PlatformError, as in every module.
 */
import type { PlatformError } from "../http/PlatformError.ts"
import { answerError, argumentError, FailureCodes, Refusal, refusedOr } from "../http/Refusal.ts"

/**
 * A refused order call: sitefx's own check, the platform's refusal, or an answer sitefx could not use.
 *
 * @example
 * import { OrderCodes, Orders } from "sitefx/ecom"
 * declare const orderId: string
 * const paid = yield* Orders.markAsPaid(orderId).pipe(
 *   Effect.catchTag("OrdersError", (e) => (e.code === OrderCodes.alreadyPaid ? Orders.get(orderId) : Effect.fail(e)))
 * )
 */
export class OrdersError extends Refusal("OrdersError") {}

/** How an order call fails: refused (an OrdersError, see its `code`), or the platform unavailable (a PlatformError, worth a retry). */
export type OrdersFailure = OrdersError | PlatformError

/** A client-side refusal, before any request. */
export const invalidArgument = (message: string, field?: string): OrdersError =>
  new OrdersError({ reason: argumentError(FailureCodes.invalidArgument, message, field) })

/** A refusal sitefx reads from a 200 answer (the order asked for is not in it). */
export const badAnswer = (code: string, message: string): OrdersError => new OrdersError({ reason: answerError(code, message) })

/** A failed platform call as an OrdersError, or left a PlatformError when the platform is unavailable. */
export const fromPlatformError = refusedOr((reason) => new OrdersError({ reason }))
