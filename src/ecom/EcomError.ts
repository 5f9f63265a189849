/**
 * The store's ecom error (carts now, checkouts and orders next): one Refusal whose code is the
 * platform's application code (`OWNED_CART_NOT_FOUND`, `INSUFFICIENT_INVENTORY`, ...) or the code of
 * its kind. Raised by sitefx's own checks before any request, and made from the platform's answers.
 * Unavailability (no answer, 429, 502–504) stays a PlatformError, as in every module.
 */
import { argumentError, FailureCodes, Refusal, refusedOr } from "../http/Refusal.ts"
import { CartCodes } from "./protocol.ts"

/** Codes callers commonly match on: the cart's application codes and the kinds every module shares. */
export const EcomCodes = {
  ...CartCodes,
  invalidArgument: FailureCodes.invalidArgument,
  validation: FailureCodes.validation,
  permissionDenied: FailureCodes.permissionDenied,
  unauthenticated: FailureCodes.unauthenticated
} as const

/**
 * A refused ecom call: sitefx's own check, or the platform's refusal.
 *
 * @example
 * import { Cart, EcomCodes } from "sitefx/ecom"
 * const cart = yield* Cart.get().pipe(
 *   Effect.catchTag("EcomError", (e) => e.code === EcomCodes.ownedCartNotFound ? Effect.succeed(undefined) : Effect.fail(e))
 * )
 */
export class EcomError extends Refusal("EcomError") {}

/** A client-side refusal, before any request. */
export const invalidArgument = (message: string, field?: string): EcomError =>
  new EcomError({ reason: argumentError(EcomCodes.invalidArgument, message, field) })

/** A failed platform call as an EcomError, or left a PlatformError when the platform is unavailable. */
export const fromPlatformError = refusedOr((reason) => new EcomError({ reason }))
