/**
 * The store catalog's typed error: one Refusal (src/http/Refusal.ts) whose code is the platform's
 * application code (`PRODUCT_NOT_FOUND`, ...) or the code of its kind. Raised by the client's own
 * checks before any request, and made from the platform's answers. Unavailability (no answer, 429,
 * 502–504) stays a PlatformError, as in every module.
 */
import { answerError, argumentError, FailureCodes, Refusal, refusedOr } from "../http/Refusal.ts"

/** Codes sitefx raises itself or that callers commonly match on. */
export const CatalogCodes = {
  /** The site has no store (catalog version `STORES_NOT_INSTALLED`). */
  storesNotInstalled: "STORES_NOT_INSTALLED",
  /** The call belongs to the other catalog version than the site runs. */
  wrongCatalogVersion: "CATALOG_VERSION_MISMATCH",
  productNotFound: "PRODUCT_NOT_FOUND",
  collectionNotFound: "COLLECTION_NOT_FOUND",
  variantNotFound: "VARIANT_NOT_FOUND",
  notFound: FailureCodes.notFound,
  /** An argument the client refused before sending anything. */
  invalidArgument: FailureCodes.invalidArgument,
  /** The platform refused the request's fields (see `fieldViolations`). */
  validation: FailureCodes.validation,
  permissionDenied: FailureCodes.permissionDenied,
  unauthenticated: FailureCodes.unauthenticated
} as const

/**
 * A refused catalog call: sitefx's own check, the platform's refusal, or an answer sitefx could not use.
 *
 * @example
 * import * as Products from "sitefx/catalog/products"
 * declare const productId: string
 * const product = yield* Products.get(productId).pipe(
 *   Effect.catchTag("CatalogError", (e) =>
 *     e.code === CatalogCodes.storesNotInstalled ? Effect.succeed(undefined) : Effect.fail(e))
 * )
 */
export class CatalogError extends Refusal("CatalogError") {}

/** A client-side refusal, before any request. */
export const invalidArgument = (message: string, field?: string): CatalogError =>
  new CatalogError({ reason: argumentError(CatalogCodes.invalidArgument, message, field) })

/** A refusal sitefx reads from a 200 answer (the entity asked for is not in it, ...). */
export const badAnswer = (code: string, message: string, data?: unknown): CatalogError => new CatalogError({ reason: answerError(code, message, data) })

/** A failed platform call as a CatalogError, or left a PlatformError when the platform is unavailable. */
export const fromPlatformError = refusedOr((reason) => new CatalogError({ reason }))
