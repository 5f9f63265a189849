/**
 * The one shape of a platform module (oauth, identity, data, catalog, events, dev): a name, the services
 * it adds to the platform, its routes, and the dev endpoints it mounts in dev mode. Each module's
 * `index.ts` exports one, named `module`; src/server/modules.ts lists them all. Core builds each
 * module's layer in the list's order, on the kernel, accounts, the store and the modules before it; App
 * mounts every module's routes, and its dev routes when dev mode is on.
 *
 * @example
 * // src/server/<name>/index.ts
 * export const module = {
 *   name: "reviews",
 *   layer: () => ReviewStore.layer,
 *   routes: reviewRoutes
 * } satisfies PlatformModule
 */
import type * as Layer from "effect/Layer"

export interface PlatformModule<Options = never> {
  /** The module's folder under src/server. */
  readonly name: string
  /**
   * The services the module adds to the platform, made from the platform's options (a module declares
   * the fields it reads; Core passes them all). It may use the services of the kernel, accounts, the
   * store and the modules listed before it; a layer can neither fail nor need a later module's service
   * (Core's type check names the module and the service).
   */
  readonly layer: (options: Options) => Layer.Layer<never, never, unknown>
  /** The module's routes: a Layer of `HttpRouter.addAll(...)` tables, mounted always. */
  readonly routes: Layer.Layer<never, never, unknown>
  /** Its dev endpoints (`/_sitefx/...`), mounted only in dev mode, behind the dev guard. */
  readonly devRoutes?: Layer.Layer<never, never, unknown>
}
