import { defaultClientConditions, defaultServerConditions } from "vite"
import { defineConfig } from "vitest/config"

// "sitefx" imports (the examples) resolve to the sources; consumers of the package get dist/.
const source = "sitefx-source"

export default defineConfig({
  resolve: { conditions: [source, ...defaultClientConditions] },
  ssr: { resolve: { conditions: [source, ...defaultServerConditions] } },
  test: {
    include: ["test/**/*.test.ts", "test/**/*.test.tsx"],
    // the browser tests serve the demo app: it is built once, before any test file runs
    globalSetup: ["test/browser/globalSetup.ts"],
    testTimeout: 30_000,
    hookTimeout: 30_000
  }
})
