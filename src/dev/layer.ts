/** The wire to one local platform's dev endpoints, for a program that has no Site layer of its own. */
import * as Layer from "effect/Layer"
import { PlatformConfig, type RetryPolicy } from "../http/PlatformConfig.ts"
import { PlatformHttp } from "../http/PlatformHttp.ts"

/**
 * PlatformHttp (and its PlatformConfig) for the platform at `baseUrl`. A program with `Site.layer` or
 * `Site.apiKey` already has PlatformHttp: the dev calls run there as they are.
 *
 * @example
 * import * as Dev from "sitefx/dev"
 * const settings = await Effect.runPromise(Dev.Settings.get.pipe(Effect.provide(Dev.layer({ baseUrl: "http://127.0.0.1:8787" }))))
 */
export const layer = (options: { readonly baseUrl: string; readonly retry?: Partial<RetryPolicy> | undefined }): Layer.Layer<PlatformHttp | PlatformConfig> =>
  PlatformHttp.layerFetch.pipe(Layer.provideMerge(PlatformConfig.layer({ baseUrl: options.baseUrl, retry: options.retry })))
