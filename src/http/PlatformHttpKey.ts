/**
 * PlatformHttp's key without its layers. A Context finds a service by its key's string, so this is the
 * same service as `PlatformHttp`'s; code that is handed the wire and builds none (the member flows)
 * yields it, and a page that uses that code carries neither the wire's encodings nor its configuration,
 * which PlatformHttp's own layers bring.
 */
import * as Context from "effect/Context"
import type { PlatformHttp, PlatformHttpShape } from "./PlatformHttp.ts"

/** The key of `PlatformHttp` (the same string), with none of its layers. */
export const PlatformHttpKey = Context.Service<PlatformHttp, PlatformHttpShape>("sitefx/PlatformHttp")
