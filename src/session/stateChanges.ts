/**
 * The session's state as a stream: the token service's state, then every change. A module of its own, so
 * a page that only follows the session (a header) carries none of the flows the whole Session holds.
 */
import * as Effect from "effect/Effect"
import * as Queue from "effect/Queue"
import * as Stream from "effect/Stream"
import type { SessionState, SessionTokensShape } from "./SessionTokens.ts"

/** The token service's state, then every change, as a stream (the newest 16 kept for a slow reader). */
export const stateChanges = (tokens: SessionTokensShape): Stream.Stream<SessionState> =>
  Stream.callback<SessionState>((queue) =>
    Effect.acquireRelease(
      Effect.flatMap(tokens.state, (state) =>
        Effect.sync(() => {
          const listener = (next: SessionState) => void Queue.offerUnsafe(queue, next)
          listener(state)
          return tokens.subscribe(listener)
        })
      ),
      (unsubscribe) => Effect.sync(unsubscribe)
    ), { strategy: "sliding", bufferSize: 16 })
