/**
 * The local platform's outbox: the emails and texts it would have sent (email verifications, MFA codes,
 * recovery and activation links), kept so a test or a developer can read the code or follow the link.
 *
 * @example
 * import { Outbox } from "sitefx/dev"
 * const messages = yield* Outbox.list({ to: "member@example.com" })
 * const code = messages.at(-1)?.code
 */
import * as Effect from "effect/Effect"
import type { PlatformError } from "../http/PlatformError.ts"
import type { PlatformHttp } from "../http/PlatformHttp.ts"
import { OutboxResponse } from "./guards/platform.ts"
import type { OutboxMessage } from "./wire/platform.ts"
import { DEV_PREFIX, devCall } from "./call.ts"

export type { OutboxMessage }

/** The messages sent, oldest first: all of them, or those to one address (any case). */
export const list = (options: { readonly to?: string | undefined } = {}): Effect.Effect<ReadonlyArray<OutboxMessage>, PlatformError, PlatformHttp> =>
  Effect.map(
    devCall({ method: "GET", path: `${DEV_PREFIX}/outbox`, ...(options.to === undefined ? {} : { payload: { to: options.to } }) }, OutboxResponse),
    (r) => r.messages
  )
