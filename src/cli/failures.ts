/**
 * What a failed command prints: one line with what failed, why, and what to do, and the exit code that
 * fits. A platform that cannot be reached, a refused key, a request the platform calls malformed (400)
 * or a missing collection are problems of the command's setup (2); anything else the platform refused
 * is a failed run (1). Items a bulk write refuses one by one are in its report, never here; a bulk write
 * refused as a whole (the key, the collection, the platform unavailable after its retries) ends here.
 */
import * as Effect from "effect/Effect"
import { CatalogError } from "../catalog/CatalogError.ts"
import { DataError, WDE } from "../data/DataError.ts"
import { PlatformConfigError } from "../http/PlatformConfig.ts"
import { PlatformError } from "../http/PlatformError.ts"
import { codeOf, type FailureReason } from "../http/reasons.ts"
import { MembersError } from "../members/MembersError.ts"
import { CliFailure, ExitCode } from "./output.ts"

/**
 * The reason of a sitefx failure: every call's error (`PlatformError`, `DataError`, `CatalogError`,
 * `MembersError`) carries one of the shared reason classes in `reason`, so a failure is read the same
 * way whichever module it came from.
 */
const reasonOf = (error: unknown): FailureReason | undefined =>
  error instanceof PlatformError || error instanceof DataError || error instanceof CatalogError || error instanceof MembersError ? error.reason : undefined

const statusOf = (reason: FailureReason | undefined): number | undefined =>
  reason === undefined || reason._tag === "TransportError" || reason._tag === "ArgumentError" || reason._tag === "AnswerError" ? undefined : reason.status

/**
 * A failure that stops the whole command, not one item of it: the platform cannot be reached, the key
 * is refused, or the command itself was told something wrong. A job that writes item by item (the
 * catalog import) reports anything else with the item and goes on.
 */
export const stopsTheCommand = (error: unknown): boolean => {
  if (error instanceof CliFailure) return error.exitCode === ExitCode.usage
  const reason = reasonOf(error)
  if (reason?._tag === "TransportError") return true
  const status = statusOf(reason)
  return status === 401 || status === 403
}

/** Turns any failure of a command into a CliFailure. */
export const explain = (error: unknown, connection?: { readonly baseUrl: string }): CliFailure => {
  if (error instanceof CliFailure) return error
  if (error instanceof PlatformConfigError) return new CliFailure({ message: error.message, exitCode: ExitCode.usage })
  const where = connection === undefined ? "the platform" : connection.baseUrl
  const message = error instanceof Error ? error.message : String(error)
  const reason = reasonOf(error)
  if (reason?._tag === "TransportError") {
    return new CliFailure({ message: `cannot reach ${where}: ${message}; is the platform running (npm start), and is --base-url right?`, exitCode: ExitCode.usage })
  }
  const status = statusOf(reason)
  if (status === 401 || status === 403) {
    return new CliFailure({
      message: `${where} refused the API key (${status}): ${message}; pass an admin key with --api-key or SITEFX_API_KEY`,
      exitCode: ExitCode.usage
    })
  }
  if (status === 400) {
    // the command's own request was refused: what the person asked for is wrong, not an item
    return new CliFailure({ message: `${where} refused the request: ${message}`, exitCode: ExitCode.usage })
  }
  // a data call past its time limit is answered 429 but is no throttle: it says which index lets it answer
  const timedOut = reason !== undefined && codeOf(reason) === WDE.operationTimeLimit
  if ((status === 429 && !timedOut) || status === 502 || status === 503 || status === 504) {
    return new CliFailure({ message: `${where} is unavailable (${status}): ${message}; try again later`, exitCode: ExitCode.itemsFailed })
  }
  const code = reason === undefined ? undefined : codeOf(reason)
  if (code === WDE.collectionNotFound) {
    return new CliFailure({ message: `${message}; \`sitefx data collections\` lists the site's collections`, exitCode: ExitCode.usage })
  }
  const prefix = code !== undefined && !message.includes(code) ? `${code}: ` : ""
  return new CliFailure({ message: `${prefix}${message}`, exitCode: ExitCode.itemsFailed })
}

/** Runs a command's work so that every failure ends as one explained line. */
export const explained = <A, E, R>(effect: Effect.Effect<A, E, R>, connection?: { readonly baseUrl: string }) =>
  Effect.mapError(effect, (error) => explain(error, connection))
