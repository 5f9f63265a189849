/**
 * What a failed command prints: one line with what failed, why, and what to do, and the exit code that
 * fits. A platform that cannot be reached, a refused key, a request the platform calls malformed (400)
 * or a missing collection are problems of the command's setup (2); anything else the platform refused
 * is a failed run (1). (Items a bulk write refuses are in its report, never here.)
 */
import * as Effect from "effect/Effect"
import { CliFailure, ExitCode } from "./output.ts"

interface Tagged {
  readonly _tag: string
  readonly message: string
}

const statusOf = (error: unknown): number | undefined => {
  const e = error as { status?: unknown; reason?: { status?: unknown } }
  if (typeof e.status === "number") return e.status
  if (typeof e.reason?.status === "number") return e.reason.status
  return undefined
}

/**
 * A failure that stops the whole command, not one item of it: the platform cannot be reached, the key
 * is refused, or the command itself was told something wrong. A job that writes item by item (the
 * catalog import) reports anything else with the item and goes on.
 */
export const stopsTheCommand = (error: unknown): boolean => {
  if (error instanceof CliFailure) return error.exitCode === ExitCode.usage
  const tagged = error as { _tag?: unknown; reason?: { _tag?: unknown } }
  if (tagged._tag === "PlatformError" && tagged.reason?._tag === "TransportError") return true
  const status = statusOf(error)
  return status === 401 || status === 403
}

/** Turns any failure of a command into a CliFailure. */
export const explain = (error: unknown, connection?: { readonly baseUrl: string }): CliFailure => {
  if (error instanceof CliFailure) return error
  const tagged = error as Partial<Tagged> & { code?: unknown; reason?: { _tag?: string } }
  const where = connection === undefined ? "the platform" : connection.baseUrl
  const message = typeof tagged.message === "string" ? tagged.message : String(error)
  if (tagged._tag === "PlatformError" && tagged.reason?._tag === "TransportError") {
    return new CliFailure({ message: `cannot reach ${where}: ${message}; is the platform running (npm start), and is --base-url right?`, exitCode: ExitCode.usage })
  }
  const status = statusOf(error)
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
  if (tagged.code === "WDE0025") {
    return new CliFailure({ message: `${message}; \`sitefx data collections\` lists the site's collections`, exitCode: ExitCode.usage })
  }
  if (tagged._tag === "PlatformConfigError") return new CliFailure({ message, exitCode: ExitCode.usage })
  const code = typeof tagged.code === "string" && !message.includes(tagged.code) ? `${tagged.code}: ` : ""
  return new CliFailure({ message: `${code}${message}`, exitCode: ExitCode.itemsFailed })
}

/** Runs a command's work so that every failure ends as one explained line. */
export const explained = <A, E, R>(effect: Effect.Effect<A, E, R>, connection?: { readonly baseUrl: string }) =>
  Effect.mapError(effect, (error) => explain(error, connection))
