// The context of the sessions guide's fragments: the page's helpers for the local platform's dev
// endpoints, and a session of the demo site; each fragment is the body of `program`.
import * as Effect from "effect/Effect"
import { Session, Site } from "sitefx"

const local = "http://127.0.0.1:8787"
const SiteLive = Site.layer({ clientId: "sitefx-local-client", baseUrl: local })

const dev = <T = unknown>(path: string, method: string, body?: unknown): Effect.Effect<T> =>
  Effect.promise(() =>
    fetch(`${local}/_sitefx${path}`, { method, headers: { "content-type": "application/json" }, body: JSON.stringify(body ?? {}) })
      .then((r) => r.json() as Promise<T>)
  )

const lastMessage = (to: string, kind: string): Effect.Effect<{ code?: string; link?: string }> =>
  Effect.promise(async () => {
    const { messages } = await fetch(`${local}/_sitefx/outbox?to=${encodeURIComponent(to)}`).then((r) => r.json())
    return messages.filter((m: { kind: string }) => m.kind === kind).at(-1)
  })

const program = Effect.gen(function*() {
  const session = yield* Session
  /* fragment */
})

await Effect.runPromise(program.pipe(Effect.provide(SiteLive)))
