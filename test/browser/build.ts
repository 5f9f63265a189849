/**
 * Builds the demo app (`app/dist`) and the platform's console (`console/dist`) with Vite, from their own
 * configs as `npm start` does. Under Vitest, whose NODE_ENV is "test", that is React's development build:
 * React's warnings and StrictMode's second run of every effect reach the pages, whose tests fail on any
 * console warning. Run by a script (bench/app.ts), it is the production build `npm start` makes. The first
 * load's size is held by test/package/appSize.test.ts, on a production build of its own.
 */
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import { build } from "vite"

const root = fileURLToPath(new URL("../..", import.meta.url))

/** Set (to "1") by the tests' global setup once it has built both: a test file then does not build them again. */
export const BUILT = "SITEFX_TEST_BUILT"

const development = (process.env["NODE_ENV"] ?? "production") !== "production"

/**
 * Vite's chunk size warning for a development build, in kB (measured on 2026-11-29): the console's first
 * chunk is 562 kB there, against 352 kB in production, React DOM's development bundle being most of the
 * difference; no one loads that build, so the warning (at 500 kB) says nothing about it. The app's largest
 * chunk is 462 kB there (248 kB in production). Vite's own limit holds for production builds.
 */
const DEVELOPMENT_CHUNK_LIMIT_KB = { app: 500, console: 700 } as const

const viteBuild = (project: keyof typeof DEVELOPMENT_CHUNK_LIMIT_KB) =>
  process.env[BUILT] === "1"
    ? Promise.resolve()
    : build({
      root: join(root, project),
      configFile: join(root, project, "vite.config.ts"),
      logLevel: "warn",
      ...(development ? { build: { chunkSizeWarningLimit: DEVELOPMENT_CHUNK_LIMIT_KB[project] } } : {})
    }).then(() => undefined)

let built: Promise<void> | undefined
/** Builds the app once per process. */
export const buildApp = (): Promise<void> => built ??= viteBuild("app")

let builtConsole: Promise<void> | undefined
/** Builds the console once per process. */
export const buildConsole = (): Promise<void> => builtConsole ??= viteBuild("console")
