/**
 * What a platform refusal says, as the fields of a module's own typed error (CatalogError,
 * MembersError): the application code and description, a validation error's field violations joined
 * into the message, or a status turned into a code callers match on.
 */
import type { PlatformError } from "./PlatformError.ts"
import type { FieldViolation } from "./wire.ts"

export interface Refusal {
  readonly code: string
  readonly message: string
  readonly fieldViolations?: ReadonlyArray<FieldViolation>
  readonly data?: unknown
  readonly status?: number
  readonly requestId?: string
}

export const refusal = (error: PlatformError): Refusal => {
  const r = error.reason
  const base = {
    ...(error.status === undefined ? {} : { status: error.status }),
    ...(error.requestId === undefined ? {} : { requestId: error.requestId })
  }
  switch (r._tag) {
    case "ApplicationError":
      return { code: r.code, message: r.description, ...base, ...(r.data === undefined ? {} : { data: r.data }) }
    case "ValidationError":
      return {
        code: "VALIDATION_ERROR",
        message: [r.message, ...r.fieldViolations.map((v) => `${v.field ?? ""}: ${v.description ?? ""}`)].join("\n"),
        fieldViolations: r.fieldViolations,
        ...base
      }
    case "SystemError":
      return {
        code: r.status === 401 ? "UNAUTHENTICATED" : r.status === 403 ? "PERMISSION_DENIED" : r.status === 404 ? "NOT_FOUND" : "UNKNOWN_ERROR",
        message: r.description,
        ...base
      }
    case "TransportError":
      return { code: "TRANSPORT_ERROR", message: r.message, ...base }
  }
}
