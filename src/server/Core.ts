/**
 * The services every platform module builds on, and the modules' own: the kernel (storage, the server
 * clock, counters, settings, the outbox, one-time tokens, the site, the request log, the production
 * profile), the store's event
 * log, and accounts (members, refresh and access tokens, the login throttle, visitors' sign-ins, the seeder,
 * callers), then
 * each module of src/server/modules.ts in its order, on top of them and of the modules before it.
 */
import * as Layer from "effect/Layer"
import { AccessTokens } from "./accounts/AccessTokens.ts"
import { Callers } from "./accounts/Callers.ts"
import { LoginThrottle } from "./accounts/LoginThrottle.ts"
import { MemberStore } from "./accounts/MemberStore.ts"
import { RefreshTokens } from "./accounts/RefreshTokens.ts"
import { Seeder } from "./accounts/seed.ts"
import { SignIns } from "./accounts/SignIns.ts"
import { modules } from "./modules.ts"
import { Database } from "./platform/Database.ts"
import { OneTimeTokens } from "./platform/OneTimeTokens.ts"
import { Profile, type ProfileOptions } from "./platform/Profile.ts"
import { Outbox } from "./platform/Outbox.ts"
import type { PlatformModule } from "./platform/PlatformModule.ts"
import { RequestLog } from "./platform/RequestLog.ts"
import { ServerClock } from "./platform/ServerClock.ts"
import { Settings } from "./platform/Settings.ts"
import { SiteRegistry } from "./platform/SiteRegistry.ts"
import { Stats } from "./platform/Stats.ts"
import { SiteEvents } from "./store/SiteEvents.ts"

/** The services of the kernel, the store and accounts, which every module may use. */
type KernelServices =
  | Database
  | ServerClock
  | Stats
  | Settings
  | Outbox
  | OneTimeTokens
  | SiteRegistry
  | RequestLog
  | Profile
  | SiteEvents
  | MemberStore
  | RefreshTokens
  | AccessTokens
  | LoginThrottle
  | SignIns
  | Seeder
  | Callers

type Module = (typeof modules)[number]

/** The services `coreLayer` provides: the kernel's and every module's. */
export type PlatformCore = KernelServices | Layer.Success<ReturnType<Module["layer"]>>

/** What a module's layer reads from the options (nothing, for a layer that takes none). */
type OptionsOf<M> = M extends { readonly layer: (options: infer O) => unknown } ? (unknown extends O ? {} : O) : never
type Intersection<U> = (U extends unknown ? (u: U) => void : never) extends (i: infer I) => void ? I : never

export type CoreOptions = {
  /** `:memory:` or a file path. */
  readonly db: string
  readonly accessTokenTtlSeconds: number
  /** Print outbox messages to the log. */
  readonly log: boolean
  /** How many requests the request log keeps (default 5000). */
  readonly requestLogSize?: number | undefined
  /** The production profile at start (off unless `profile: "production"`). */
  readonly profile?: ProfileOptions | undefined
} & Intersection<OptionsOf<Module>>

/**
 * `true` when each module's layer needs only services of the kernel and of the modules before it in the
 * list; otherwise the first module that needs more, and what it needs, so a wrong order fails to compile.
 */
type InOrder<Modules extends ReadonlyArray<unknown>, Have> = Modules extends readonly [infer M extends Module, ...infer Rest]
  ? [Exclude<Layer.Services<ReturnType<M["layer"]>>, Have>] extends [never] ? InOrder<Rest, Have | Layer.Success<ReturnType<M["layer"]>>>
  : { readonly module: M["name"]; readonly needs: Exclude<Layer.Services<ReturnType<M["layer"]>>, Have> }
  : true
type Holds<T extends true> = T
type ModulesInOrder = Holds<InOrder<typeof modules, KernelServices>>

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
    LoginThrottle.layer,
    SignIns.layer,
    RequestLog.layer(options.requestLogSize),
    Profile.layer(options.profile)
  ).pipe(Layer.provideMerge(storage))
  // the event log sits under the modules: their writes log their events in their own transactions
  const accounts = Layer.mergeAll(AccessTokens.layer, Seeder.layer, SiteEvents.layer).pipe(Layer.provideMerge(records))
  const kernel: Layer.Layer<KernelServices> = Callers.layer.pipe(Layer.provideMerge(accounts))
  const list: ReadonlyArray<PlatformModule<CoreOptions>> = modules
  // each module on the kernel and the modules before it, which ModulesInOrder holds the list to
  const built = list.reduce<Layer.Layer<never, never, unknown>>((below, module) => module.layer(options).pipe(Layer.provideMerge(below)), kernel)
  return built as Layer.Layer<PlatformCore>
}
