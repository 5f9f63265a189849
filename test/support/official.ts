/**
 * The platform's official JavaScript clients talk to hard-coded hosts (`https://www.wixapis.com`,
 * `https://edge.wixapis.com`) through the global fetch. Tests point them at the local platform by
 * wrapping `globalThis.fetch` for the duration of a test file, and restore it afterwards.
 */
import { afterAll, beforeAll } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as ManagedRuntime from "effect/ManagedRuntime"
import type { PlatformClient } from "../../src/http/PlatformClient.ts"
import { PlatformFetch } from "../../src/http/PlatformHttp.ts"
import { LocalPlatform, type LocalPlatformShape } from "../../src/server/index.ts"
import { asAdmin } from "../data/support.ts"

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

/** A call as a wire test compares it: method, path, query parameters (an array when one repeats) and JSON body. */
export interface RecordedCall {
  readonly method: string
  readonly path: string
  readonly query: Record<string, string | ReadonlyArray<string>>
  readonly body: unknown
}

/**
 * A wire test's setup: the official clients on a local platform for the file, sitefx's calls made as the
 * admin through the same platform, and both recorded the same way, so that `sent(step)` gives what one
 * step sent and the two sides compare as they are.
 */
export const wireRecorder = (options: Parameters<typeof LocalPlatform.layer>[0] = {}) => {
  const log: Array<RecordedCall> = []
  const record = async (request: Request): Promise<void> => {
    const url = new URL(request.url)
    const text = request.method === "GET" || request.method === "DELETE" ? "" : await request.clone().text()
    const query: Record<string, string | ReadonlyArray<string>> = {}
    for (const key of new Set(url.searchParams.keys())) {
      const all = url.searchParams.getAll(key)
      query[key] = all.length === 1 ? all[0]! : all
    }
    log.push({ method: request.method, path: url.pathname, query, body: text === "" ? undefined : JSON.parse(text) })
  }
  const onLocal = officialClientsOnLocalPlatform(options, record)
  /** sitefx's fetch: records, then sends. */
  const sitefxFetch: typeof fetch = async (input, init) => {
    const request = new Request(input, init)
    await record(request)
    return onLocal.fetch(request)
  }
  return {
    onLocal,
    /** Runs sitefx calls as the admin, recorded. */
    sitefx: <A, E>(effect: Effect.Effect<A, E, PlatformClient>): Promise<A> =>
      onLocal.run(asAdmin(effect).pipe(Effect.provideService(PlatformFetch, sitefxFetch))),
    /** What one step sent. */
    sent: async (step: () => Promise<unknown>): Promise<ReadonlyArray<RecordedCall>> => {
      const from = log.length
      await step()
      return log.slice(from)
    }
  }
}
