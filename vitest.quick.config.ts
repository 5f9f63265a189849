/**
 * `npm run test:quick`: the maintainers' loop. The unit and integration tests, the compatibility and wire
 * tests against the official packages, and the platform's own suites, without what takes minutes: the app
 * in Chromium (and the build it needs), the packed tarball in fresh projects, the command's process-level
 * proofs (imports killed and resumed, live cuts, 100 000-item exports), the docs' snippets, the type-level
 * suites that run TypeScript, and the property tests' hundreds of random cases. `npm test` stays the whole
 * proof: run it before a push, and the quick loop while working.
 */
import { configDefaults, defineConfig, mergeConfig } from "vitest/config"
import base from "./vitest.config.ts"

/** The long proofs, left to `npm test`. */
export const LONG = [
  "test/browser/**",
  "test/next/example.test.ts",
  "test/package/**",
  "test/cli/**",
  "test/network/**",
  "test/docs/**",
  "test/types/**",
  "test/examples.test.ts",
  "test/**/*.property.test.ts",
  "test/server/data/scale.test.ts",
  "test/server/cli.test.ts",
  "test/server/loginThrottle.test.ts",
  "test/server/ecom/checkoutKill.test.ts"
]

const quick = mergeConfig(base, defineConfig({ test: {
    exclude: [...configDefaults.exclude, ...LONG],
    // one module graph per worker, not per file: the platform's modules load once (on 2 cores, quiet:
    // 15 min isolated under load, 2 min 41 s shared with 2 workers, 1 min 24 s with 3, since the tests
    // wait on HTTP much of the time)
    isolate: false,
    maxWorkers: 3
  } }))
// no browser test runs, so the app and the console are not built first
quick.test!.globalSetup = ["test/support/tempGuard.ts"]

export default quick
