/**
 * Builds the demo app and the platform's console once before any test file runs: the browser test files
 * run in parallel processes and all serve the same `app/dist` and `console/dist`, so none may build them
 * while another serves them (a test file's own `buildApp()` then finds them built and builds nothing).
 */
import { BUILT, buildApp, buildConsole } from "./build.ts"

export default async function setup(): Promise<void> {
  await buildApp()
  await buildConsole()
  process.env[BUILT] = "1"
}
