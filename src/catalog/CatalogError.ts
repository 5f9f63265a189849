/**
 * The store catalog's typed error: the platform's application code (`PRODUCT_NOT_FOUND`, ...), a
 * message, and the field violations of a refused write. Raised by the client's own checks before any
 * request, and decoded from the platform's answers. Unavailability (no answer, 429, 502–504) stays a
 * PlatformError, as in the data client.
 */
import * as Data from "effect/Data"
import type { PlatformError } from "../http/PlatformError.ts"
import { refusal } from "../http/refusal.ts"
import type { FieldViolation } from "../http/wire.ts"

/** Codes sitefx raises itself or that callers commonly match on. */
export const CatalogCodes = {
  /** The site has no store (catalog version `STORES_NOT_INSTALLED`). */
  storesNotInstalled: "STORES_NOT_INSTALLED",
  /** The call belongs to the other catalog version than the site runs. */
  wrongCatalogVersion: "CATALOG_VERSION_MISMATCH",
  productNotFound: "PRODUCT_NOT_FOUND",
  collectionNotFound: "COLLECTION_NOT_FOUND",
  variantNotFound: "VARIANT_NOT_FOUND",
  notFound: "NOT_FOUND",
  /** An argument the client refused before sending anything. */
  invalidArgument: "INVALID_ARGUMENT",
  /** The platform refused the request's fields (see `fieldViolations`). */
  validation: "VALIDATION_ERROR",
  permissionDenied: "PERMISSION_DENIED",
  unauthenticated: "UNAUTHENTICATED"
} as const

export class CatalogError extends Data.TaggedError("CatalogError")<{
  readonly code: string
  readonly message: string
  /** The argument or field the error is about, when there is one. */
  readonly field?: string
  readonly fieldViolations?: ReadonlyArray<FieldViolation>
  readonly data?: unknown
  readonly status?: number
  readonly requestId?: string
}> {}

/** A client-side refusal, before any request. */
export const invalidArgument = (message: string, field?: string): CatalogError =>
  new CatalogError({ code: CatalogCodes.invalidArgument, message, ...(field === undefined ? {} : { field }) })

/** A failed platform call as a CatalogError. */
export const fromPlatformError = (error: PlatformError): CatalogError => new CatalogError(refusal(error))
