/**
 * What the platform notes while it answers one request, for its request log: the caller a route
 * resolved (so the log does not resolve it a second time), the refusal it answered with (so the log
 * has its rule and code without reading the body back) and the index advice of a data query. The platform's middleware gives each request a
 * note; code running outside a request (tests, tools) has none and notes nothing.
 */
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import type * as HttpServerResponse from "effect/http/HttpServerResponse"
import type { Rule } from "../../http/wire.ts"
import type { Caller } from "./Caller.ts"
import { type Reject, toResponse } from "./responses.ts"

/** A data read that scanned a collection without a usable index: what to index, and the rows it read. */
export interface IndexAdvice {
  /** The collection's id, as its callers name it. */
  readonly collection: string
  /**
   * The fields its filter and sort read, to index in that order; none for a read of every item that no
   * index serves (a group of the whole collection), which needs a first filter on indexed fields.
   */
  readonly fields: ReadonlyArray<string>
  readonly rowsScanned: number
}

export interface RequestNote {
  /** The caller the request's credentials resolved to, once a route asked. */
  caller: Caller | undefined
  /** Whether resolving the credentials failed (an unknown or expired token): the log reads no caller. */
  unresolved: boolean
  /** The refusal the request was answered with. */
  reject: Reject | undefined
  /** An injected fault that fired for the request: its rule, and the status to log when not the answer's (0: a reset connection). */
  fault: { readonly rule: Rule; readonly status: number | undefined } | undefined
  /** The index a data query of the request would need, when it scanned past the plan's threshold. */
  advice: IndexAdvice | undefined
}

/** The current request's note; undefined outside the platform's middleware. */
export const CurrentRequestNote = Context.Reference<RequestNote | undefined>("sitefx/server/RequestNote", {
  defaultValue: () => undefined
})

/** A fresh note for a request. */
export const newNote = (): RequestNote => ({ caller: undefined, unresolved: false, reject: undefined, fault: undefined, advice: undefined })

/** The refusal as the platform's answer, noted for the request log. */
export const refusal = (reject: Reject): Effect.Effect<HttpServerResponse.HttpServerResponse> =>
  Effect.map(CurrentRequestNote, (note) => {
    if (note !== undefined) note.reject = reject
    return toResponse(reject)
  })
