/**
 * Builds the demo app once before any test file runs: the browser test files run in parallel processes
 * and all serve the same `app/dist`, so none may build it while another serves it.
 */
import { buildApp } from "./build.ts"

export default async function setup(): Promise<void> {
  await buildApp()
}
