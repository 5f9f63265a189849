/** Builds the demo app (`app/dist`) and the platform's console (`console/dist`) with Vite, as `npm start` does. */
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import { build } from "vite"

const root = fileURLToPath(new URL("../..", import.meta.url))

const viteBuild = (project: string) =>
  build({ root: join(root, project), configFile: join(root, project, "vite.config.ts"), logLevel: "warn" }).then(() => undefined)

let built: Promise<void> | undefined
/** Builds the app once per process. */
export const buildApp = (): Promise<void> => built ??= viteBuild("app")

let builtConsole: Promise<void> | undefined
/** Builds the console once per process. */
export const buildConsole = (): Promise<void> => builtConsole ??= viteBuild("console")
