/**
 * The platform's modules, one list, as PocketBase's `InitApi` registers its APIs: Core builds their
 * layers in this order (each module's layer may use the services of the kernel, accounts, the store and
 * the modules before it), and App mounts their routes, and their dev routes in dev mode. A new module
 * exports its `module` (platform/PlatformModule.ts) from its index.ts and is added here, nowhere else.
 */
import { module as catalog } from "./catalog/index.ts"
import { module as data } from "./data/index.ts"
import { module as dev } from "./dev/index.ts"
import { module as ecom } from "./ecom/index.ts"
import { module as events } from "./events/index.ts"
import { module as identity } from "./identity/index.ts"
import { module as oauth } from "./oauth/index.ts"

// dev last: a restore of a snapshot brings every module before it in line through their reset hooks
export const modules = [oauth, identity, data, catalog, ecom, events, dev] as const
