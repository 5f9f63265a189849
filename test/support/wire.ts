/**
 * Wire comparisons: sitefx must send what the platform's official clients send. In each comparison a
 * step of the official client and a step of sitefx make "the same call"; every request each sends is
 * recorded as its method, path, query parameters (a GET's `.r` as the JSON it holds) and JSON body, and
 * the two lists must be deeply equal, key order aside. sitefx's one extra call, the catalog version it
 * asks once per client, is left out of the comparison.
 *
 * Two places to send to: a recording server whose scripted answers let both clients go on
 * (`wireOnRecordingServer`), or the local platform itself (`wireOnLocalPlatform`), where a `reset`
 * puts the store back between the two steps so both meet the same state.
 */
import { assert } from "@effect/vitest"
import type { Descriptors } from "@wix/sdk"
import * as Effect from "effect/Effect"
import * as Redacted from "effect/Redacted"
import { CatalogPaths } from "../../src/catalog/protocol.ts"
import type { PlatformClient } from "../../src/http/PlatformClient.ts"
import { PlatformFetch } from "../../src/http/PlatformHttp.ts"
import { fromBase64url } from "../../src/http/codec.ts"
import { Site } from "../../src/Site.ts"
import { asAdmin } from "../data/support.ts"
import { type Recorded, recordingServer, type Reply } from "./recordingServer.ts"
import { officialClient, type OfficialClient, officialStoreOnLocalPlatform, rawResponse } from "./store.ts"

/** The fixed hosts the official clients send to. */
export const OFFICIAL_HOSTS = /^https:\/\/(www|edge)\.wixapis\.com/

/** One request as compared. */
export interface Sent {
  readonly method: string
  readonly path: string
  /** Each parameter once, or as a list when repeated; `.r` as the JSON it holds. */
  readonly query: Record<string, unknown>
  /** The JSON body, `undefined` when there is none. */
  readonly body: unknown
}

export const sentOf = (method: string, url: URL, body: string): Sent => {
  const query: Record<string, unknown> = {}
  for (const key of new Set(url.searchParams.keys())) {
    const all = url.searchParams.getAll(key)
    query[key] = key === ".r" ? JSON.parse(fromBase64url(all[0]!)) : all.length === 1 ? all[0] : all
  }
  return { method, path: url.pathname, query, body: body === "" ? undefined : JSON.parse(body) }
}

/** Runs a step with the global fetch, the one the official clients use, wrapped. */
const withGlobalFetch = async <A>(wrap: (inner: typeof fetch) => typeof fetch, step: () => Promise<A>): Promise<A> => {
  const inner = globalThis.fetch
  globalThis.fetch = wrap(inner)
  try {
    return await step()
  } finally {
    globalThis.fetch = inner
  }
}

/**
 * Both clients against a recording server, with the API key `the-key` for the site `the-site`. The
 * server tells sitefx the store's `catalogVersion` and answers every other call with `answer`, as the
 * platform would answer it enough for both clients to go on. Every request sitefx sends carries the raw
 * API key (no Bearer) and the site id.
 */
export const wireOnRecordingServer = <T extends Descriptors>(
  modules: T,
  scripted: { readonly catalogVersion: "V1_CATALOG" | "V3_CATALOG"; readonly answer: unknown }
) => {
  const server = recordingServer()
  const originalFetch = globalThis.fetch
  const auth = { apiKey: "the-key", siteId: "the-site" }
  const sent = (r: Recorded) => sentOf(r.method, new URL(r.url, "http://x"), r.body)
  const sitefxRun = <A, E>(effect: Effect.Effect<A, E, PlatformClient>) =>
    Effect.runPromise(
      Effect.provide(effect, Site.apiKey({ baseUrl: server.origin, apiKey: Redacted.make(auth.apiKey), siteId: auth.siteId })).pipe(
        Effect.provideService(PlatformFetch, originalFetch)
      ) as Effect.Effect<A, E>
    )
  const answer = (r: Recorded): Reply =>
    new URL(r.url, "http://x").pathname === CatalogPaths.version ? { json: { catalogVersion: scripted.catalogVersion } } : { json: scripted.answer }
  const toServer = (inner: typeof fetch): typeof fetch => (input, init) => {
    const request = new Request(input, init)
    return inner(new Request(request.url.replace(OFFICIAL_HOSTS, server.origin), request))
  }

  const compare = async <A, E>(name: string, officialStep: (c: OfficialClient<T>) => Promise<unknown>, sitefxStep: Effect.Effect<A, E, PlatformClient>) => {
    server.fallback = answer
    server.requests.length = 0
    await withGlobalFetch(toServer, () => officialStep(officialClient(modules, auth)))
    const o = server.requests.map(sent)
    server.requests.length = 0
    await sitefxRun(sitefxStep)
    const s = server.requests.map(sent).filter((r) => r.path !== CatalogPaths.version)
    assert.isAbove(o.length, 0, `${name}: the official client sent something`)
    assert.deepStrictEqual(s, o, name)
    for (const r of server.requests) {
      assert.strictEqual(r.headers["authorization"], auth.apiKey, `${name}: the raw API key`)
      assert.strictEqual(r.headers["wix-site-id"], auth.siteId, `${name}: the site id`)
    }
  }

  return { server, compare }
}

/** A request sent to the local platform, with its API-key headers: the raw key (no Bearer) and the site id. */
export interface SentWithAuth extends Sent {
  readonly auth: string
}

/**
 * Both clients against the local platform, with its API key (sitefx as the admin). Every request the
 * official client sends carries the API-key headers, and so (being the same) does every one of sitefx's.
 * `compare` answers what the official client sent; `raw` is an admin call that is not recorded.
 */
export const wireOnLocalPlatform = <T extends Descriptors>(modules: T) => {
  const onLocal = officialStoreOnLocalPlatform(modules)
  const log: Array<SentWithAuth> = []

  const record = async (request: Request): Promise<void> => {
    const text = request.method === "GET" || request.method === "DELETE" ? "" : await request.clone().text()
    log.push({
      ...sentOf(request.method, new URL(request.url), text),
      auth: `${request.headers.get("authorization")} ${request.headers.get("wix-site-id")}`
    })
  }
  const recordOfficial = (inner: typeof fetch): typeof fetch => async (input, init) => {
    const request = new Request(input, init)
    if (OFFICIAL_HOSTS.test(request.url)) await record(request)
    return inner(request)
  }
  const sitefxFetch: typeof fetch = async (input, init) => {
    const request = new Request(input, init)
    if (new URL(request.url).pathname !== CatalogPaths.version) await record(request)
    return onLocal.fetch(request)
  }
  const sent = async (step: () => Promise<unknown>): Promise<ReadonlyArray<SentWithAuth>> => {
    const from = log.length
    await step()
    return log.slice(from)
  }

  const compare = async <A, E>(
    name: string,
    officialStep: (o: OfficialClient<T>) => Promise<unknown>,
    sitefxStep: Effect.Effect<A, E, PlatformClient>,
    reset?: () => Promise<unknown>
  ): Promise<ReadonlyArray<SentWithAuth>> => {
    await reset?.()
    const o = await sent(() => withGlobalFetch(recordOfficial, () => officialStep(onLocal.official())))
    await reset?.()
    const s = await sent(() => onLocal.run(asAdmin(sitefxStep).pipe(Effect.provideService(PlatformFetch, sitefxFetch))))
    assert.isAbove(o.length, 0, `${name}: the official client sent something`)
    assert.isTrue(o.every((r) => r.auth === `${Redacted.value(onLocal.platform.apiKey)} ${onLocal.platform.siteId}`), `${name}: API-key headers`)
    assert.deepStrictEqual(s, o, name)
    return o
  }

  const raw = (method: string, path: string, body?: unknown): Promise<Response> => rawResponse(onLocal.platform, method, path, body, "admin", onLocal.fetch)

  return { compare, raw }
}
