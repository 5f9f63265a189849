/**
 * The services every platform module builds on: storage, the server clock, settings, the outbox,
 * counters, one-time and refresh tokens, the site, members, callers, the seeder, injected faults, the
 * request log and the data engine, the store and the events log. Route modules take what they need from here.
 */
import * as Layer from "effect/Layer"
import { AccessTokens } from "./accounts/AccessTokens.ts"
import { BrowserSessions } from "./oauth/BrowserSessions.ts"
import { Callers } from "./accounts/Callers.ts"
import { type CatalogServices, catalogLayer } from "./catalog/index.ts"
import { type DataServices, dataLayer } from "./data/index.ts"
import { type EventsServices, eventsLayer, SiteEvents, WebhooksConfig, type WebhooksOptions } from "./events/index.ts"
import { Database } from "./platform/Database.ts"
import { Faults } from "./dev/Faults.ts"
import { Flows } from "./identity/Flows.ts"
import { LoginThrottle } from "./accounts/LoginThrottle.ts"
import { MemberStore } from "./accounts/MemberStore.ts"
import { OneTimeTokens } from "./platform/OneTimeTokens.ts"
import { Outbox } from "./platform/Outbox.ts"
import { RedirectSessions } from "./oauth/RedirectSessions.ts"
import { RefreshTokens } from "./accounts/RefreshTokens.ts"
import { RequestLog } from "./platform/RequestLog.ts"
import { Seeder } from "./accounts/seed.ts"
import { ServerClock } from "./platform/ServerClock.ts"
import { Settings } from "./platform/Settings.ts"
import { SiteRegistry } from "./platform/SiteRegistry.ts"
import { Stats } from "./platform/Stats.ts"
import { Snapshots } from "./dev/Snapshots.ts"

/** The services `coreLayer` provides: storage, clock, settings, site, members, tokens, callers, and the data, store and events engines. */
export type PlatformCore =
  | Database
  | ServerClock
  | Stats
  | Settings
  | Outbox
  | OneTimeTokens
  | SiteRegistry
  | MemberStore
  | RefreshTokens
  | BrowserSessions
  | RedirectSessions
  | AccessTokens
  | Flows
  | LoginThrottle
  | Seeder
  | Callers
  | Faults
  | Snapshots
  | RequestLog
  | DataServices
  | CatalogServices
  | EventsServices

export interface CoreOptions {
  /** `:memory:` or a file path. */
  readonly db: string
  readonly accessTokenTtlSeconds: number
  /** Print outbox messages to the log. */
  readonly log: boolean
  /** Data request bodies above this size get 413 (default 5 MB). */
  readonly dataMaxPayloadBytes?: number | undefined
  /** Webhook subscriptions made at start, and the delivery policy. */
  readonly webhooks?: WebhooksOptions | undefined
  /** How many requests the request log keeps (default 5000). */
  readonly requestLogSize?: number | undefined
}

/** The platform's services without an HTTP server, for tools and tests that drive the engines in-process. */
export const coreLayer = (options: CoreOptions): Layer.Layer<PlatformCore> => {
  const storage = Layer.mergeAll(ServerClock.layer, Stats.layer).pipe(Layer.provideMerge(Database.layer(options.db)))
  const records = Layer.mergeAll(
    Settings.layer({ accessTokenTtlSeconds: options.accessTokenTtlSeconds }),
    Outbox.layer({ log: options.log }),
    OneTimeTokens.layer,
    SiteRegistry.layer,
    MemberStore.layer,
    RefreshTokens.layer,
    BrowserSessions.layer,
    RedirectSessions.layer,
    LoginThrottle.layer,
    Faults.layer,
    RequestLog.layer(options.requestLogSize)
  ).pipe(Layer.provideMerge(storage))
  // the event log sits under the data engine and the store: their writes log their events in their own transactions
  const flows = Layer.mergeAll(AccessTokens.layer, Flows.layer, Seeder.layer, SiteEvents.layer).pipe(Layer.provideMerge(records))
  const callers = Callers.layer.pipe(Layer.provideMerge(flows))
  const data = dataLayer({ maxPayloadBytes: options.dataMaxPayloadBytes }).pipe(Layer.provideMerge(callers))
  const catalog = catalogLayer.pipe(Layer.provideMerge(data))
  const events = eventsLayer.pipe(Layer.provide(Layer.succeed(WebhooksConfig)(options.webhooks ?? {})), Layer.provideMerge(catalog))
  // last: a restore brings every module's in-memory state in line through the reset hooks
  return Snapshots.layer.pipe(Layer.provideMerge(events))
}
