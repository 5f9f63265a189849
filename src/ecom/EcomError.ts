/**
 * The store's ecom error, for the current cart and the orders alike: one Refusal (src/http/Refusal.ts)
 * whose `reason` is one of the shared tagged reason classes (`ArgumentError`, `ApplicationError`,
 * `ValidationError`, `SystemError`, `AnswerError`) and whose code is the platform's application code
 * (`OWNED_CART_NOT_FOUND`, `ORDER_ALREADY_PAID`, ...) or the code of its kind. Raised by sitefx's own
 * checks before any request, and made from the platform's answers. Unavailability (no answer, 429,
 * 502–504) stays a PlatformError, as in every module.
 */
import type { PlatformError } from "../http/PlatformError.ts"
import { answerError, argumentError, FailureCodes, Refusal, refusedOr } from "../http/Refusal.ts"
import { OrderCodes } from "./orderProtocol.ts"
import { CartCodes } from "./protocol.ts"

/**
 * The codes an EcomError carries: the cart's application codes (`cart`), the orders' (`order`), and the
 * kinds every module shares.
 */
export const EcomCodes = {
  /** The current cart's refusals (`OWNED_CART_NOT_FOUND`, `INSUFFICIENT_INVENTORY`, ...). */
  cart: CartCodes,
  /** The orders' refusals (`ORDER_NOT_FOUND`, `ORDER_ALREADY_PAID`, ...). */
  order: OrderCodes,
  /** An argument sitefx refused before sending anything. */
  invalidArgument: FailureCodes.invalidArgument,
  /** The platform refused the request's fields (see `fieldViolations`). */
  validation: FailureCodes.validation,
  permissionDenied: FailureCodes.permissionDenied,
  unauthenticated: FailureCodes.unauthenticated
} as const

/**
 * A refused cart or order call: sitefx's own check, the platform's refusal, or an answer sitefx could
 * not use.
 *
 * @example
 * import { EcomCodes, Orders } from "sitefx/ecom"
 * declare const orderId: string
 * const paid = yield* Orders.markAsPaid(orderId).pipe(
 *   Effect.catchReason("EcomError", "ApplicationError", (reason, e) =>
 *     reason.code === EcomCodes.order.alreadyPaid ? Orders.get(orderId) : Effect.fail(e))
 * )
 */
export class EcomError extends Refusal("EcomError") {}

/** How a cart or order call fails: refused (an EcomError, see its `code`), or the platform unavailable (a PlatformError, worth a retry). */
export type EcomFailure = EcomError | PlatformError

/** A client-side refusal, before any request. */
export const invalidArgument = (message: string, field?: string): EcomError =>
  new EcomError({ reason: argumentError(EcomCodes.invalidArgument, message, field) })

/** A refusal sitefx reads from a 200 answer (the cart or order asked for is not in it). */
export const badAnswer = (code: string, message: string): EcomError => new EcomError({ reason: answerError(code, message) })

/** A failed platform call as an EcomError, or left a PlatformError when the platform is unavailable. */
export const fromPlatformError = refusedOr((reason) => new EcomError({ reason }))
