/**
 * Test support: the local platform in-process on an ephemeral port, a sitefx Site pointed at it, and
 * small helpers for the platform's dev endpoints (outbox, settings, clock, stats).
 */
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import type { Scope } from "effect/Scope"
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { Site, type SiteOptions, type SiteServices } from "../../src/Site.ts"
import * as DevWire from "../../src/dev/wire/platform.ts"
import type { PlatformCore } from "../../src/server/Core.ts"
import { LocalPlatform, type LocalPlatformOptions } from "../../src/server/index.ts"
import { type CoreTuning, layerWithCore } from "../../src/server/LocalPlatform.ts"

export { LocalPlatform }

/** A fresh temporary folder for the current scope, removed with it. */
export const tempDir = (prefix: string) =>
  Effect.acquireRelease(
    Effect.sync(() => mkdtempSync(join(tmpdir(), prefix))),
    (dir) => Effect.sync(() => rmSync(dir, { recursive: true, force: true }))
  )

/** Runs `effect` against a platform of its own (the `demo` seed unless `options` say otherwise), closed afterwards. */
export const onPlatform = <A, E>(options: LocalPlatformOptions & CoreTuning, effect: Effect.Effect<A, E, LocalPlatform | PlatformCore | Scope>) =>
  Effect.scoped(Effect.gen(function*() {
    const context = yield* Layer.build(layerWithCore({ seed: "demo", ...options }))
    return yield* Effect.provide(effect, Layer.succeedContext(context))
  }))

/** Runs an effect against a fresh sitefx session on the local platform. */
export const withSite = <A, E, R>(
  effect: Effect.Effect<A, E, R>,
  options: Omit<SiteOptions, "baseUrl" | "clientId"> = {}
): Effect.Effect<A, E, Exclude<R, SiteServices> | LocalPlatform> =>
  Effect.gen(function*() {
    const platform = yield* LocalPlatform
    const site = Site.layer({ baseUrl: platform.url, clientId: platform.clientId, retry: { base: "5 millis", cap: "50 millis" }, ...options })
    return yield* Effect.provide(effect, Layer.fresh(site), { local: true })
  }) as Effect.Effect<A, E, Exclude<R, SiteServices> | LocalPlatform>

/** Calls a dev endpoint (`/_sitefx/...`) and returns its JSON answer. */
export const dev = <T = any>(path: string, init: { method?: string; body?: unknown; headers?: Record<string, string> } = {}) =>
  Effect.gen(function*() {
    const platform = yield* LocalPlatform
    return yield* Effect.promise(async () => {
      const res = await fetch(`${platform.url}/_sitefx${path}`, {
        method: init.method ?? (init.body === undefined ? "GET" : "POST"),
        headers: { "content-type": "application/json", ...init.headers },
        ...(init.body === undefined ? {} : { body: JSON.stringify(init.body) })
      })
      const text = await res.text()
      if (res.status !== 200) throw new Error(`dev ${path}: ${res.status} ${text}`)
      return (text === "" ? {} : JSON.parse(text)) as T
    })
  })

export type OutboxMessage = typeof DevWire.OutboxMessage.Type

/** The newest outbox message to an address (of a kind, when given). */
export const lastMessage = (to: string, kind?: string) =>
  Effect.map(dev<typeof DevWire.OutboxResponse.Type>(`/outbox?to=${encodeURIComponent(to)}`), (r) => {
    const found = r.messages.filter((m) => kind === undefined || m.kind === kind)
    const last = found[found.length - 1]
    if (last === undefined) throw new Error(`no ${kind ?? ""} message to ${to}`)
    return last
  })

export const settings = (patch: Record<string, unknown>) => dev("/settings", { method: "PATCH", body: patch })

export const stats = dev<typeof DevWire.StatsResponse.Type>("/stats")

/** A unique email per test run, so tests on one platform never collide. */
let counter = 0
export const uniqueEmail = (prefix = "member") => `${prefix}-${Date.now().toString(36)}-${counter++}@example.com`
