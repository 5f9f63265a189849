import { defaultClientConditions, defaultServerConditions } from "vite"
import { defineConfig } from "vitest/config"

// "sitefx" imports (the examples) resolve to the sources; consumers of the package get dist/.
const source = "sitefx-source"

export default defineConfig({
  resolve: { conditions: [source, ...defaultClientConditions] },
  ssr: { resolve: { conditions: [source, ...defaultServerConditions] } },
  test: {
    include: ["test/**/*.test.ts", "test/**/*.test.tsx"],
    globalSetup: [
      // a temporary folder of the run's own, and a failed run if a test leaves its temporary files behind
      "test/support/tempGuard.ts",
      // the browser tests serve the demo app: it is built once, before any test file runs
      "test/browser/globalSetup.ts"
    ],
    testTimeout: 30_000,
    hookTimeout: 30_000
  }
})
