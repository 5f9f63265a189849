/**
 * The platform's official JavaScript clients talk to hard-coded hosts (`https://www.wixapis.com`,
 * `https://edge.wixapis.com`) through the global fetch. Tests point them at the local platform by
 * wrapping `globalThis.fetch` for the duration of a test file, and restore it afterwards.
 */
import { afterAll, beforeAll } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as ManagedRuntime from "effect/ManagedRuntime"
import { LocalPlatform, type LocalPlatformShape } from "../../src/server/index.ts"

const OFFICIAL_HOSTS = /^https:\/\/(www|edge)\.wixapis\.com/

/**
 * Starts a local platform for the file and rewrites the official hosts to it. `called` lists every
 * rewritten request (`METHOD /path`); `fetch` is the untouched fetch, for reaching pages directly.
 */
export const officialClientsOnLocalPlatform = (
  options: Parameters<typeof LocalPlatform.layer>[0] = {},
  /** Sees each rewritten request before it is sent (a wire test records what the official client sends). */
  onRequest?: (request: Request) => Promise<void>
) => {
  const originalFetch = globalThis.fetch
  const runtime = ManagedRuntime.make(LocalPlatform.layer(options))
  const state = {
    platform: undefined as unknown as LocalPlatformShape,
    called: [] as Array<string>,
    fetch: originalFetch,
    run: <A, E>(effect: Effect.Effect<A, E, LocalPlatform>) => runtime.runPromise(effect)
  }
  beforeAll(async () => {
    state.platform = await runtime.runPromise(LocalPlatform.useSync((p) => p))
    globalThis.fetch = (input, init) => {
      const request = new Request(input, init)
      const rewritten = request.url.replace(OFFICIAL_HOSTS, state.platform.url)
      if (rewritten === request.url) return originalFetch(request)
      state.called.push(`${request.method} ${new URL(rewritten).pathname}`)
      const local = new Request(rewritten, request)
      return onRequest === undefined ? originalFetch(local) : onRequest(local).then(() => originalFetch(local))
    }
  })
  afterAll(async () => {
    globalThis.fetch = originalFetch
    await runtime.dispose()
  })
  return state
}
