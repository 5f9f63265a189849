/** Builds the demo app (`app/dist`) with Vite, as `npm start` does. */
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import { build } from "vite"

const root = fileURLToPath(new URL("../..", import.meta.url))

let built: Promise<void> | undefined
/** Builds the app once per process. */
export const buildApp = (): Promise<void> =>
  built ??= build({ root: join(root, "app"), configFile: join(root, "app/vite.config.ts"), logLevel: "warn" }).then(() => undefined)
