/**
 * The platform with no event log at all, for the benchmark's baseline: `node --import
 * ./bench/without-event-log/register.ts src/cli/main.ts serve ...` runs the real platform with the
 * log and its two writers (the data engine's and the store's) replaced by the modules beside this file,
 * which log nothing. What a write costs there is what it costs without events; the bench compares the
 * real platform with it. Nothing outside the bench uses this.
 */
import { registerHooks } from "node:module"

const replaced = new Map([
  ["/src/server/store/SiteEvents.ts", new URL("./SiteEvents.ts", import.meta.url).href],
  ["/src/server/data/DataEvents.ts", new URL("./DataEvents.ts", import.meta.url).href],
  ["/src/server/catalog/CatalogEngine.ts", new URL("./CatalogEngine.ts", import.meta.url).href]
])

registerHooks({
  resolve(specifier, context, nextResolve) {
    const resolved = nextResolve(specifier, context)
    for (const [suffix, url] of replaced) {
      if (resolved.url.endsWith(suffix) && !context.parentURL?.startsWith(new URL(".", import.meta.url).href)) return { ...resolved, url }
    }
    return resolved
  }
})
