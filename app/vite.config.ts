/**
 * The demo app: a headless storefront, member area, data browser and live events panel on sitefx. `vite
 * build` (run by `npm start` and the browser tests) writes app/dist, which the local platform serves at
 * its root. `sitefx` imports resolve to the library's sources, as in this repository's tests.
 */
import react from "@vitejs/plugin-react"
import { defaultClientConditions, defineConfig } from "vite"

export default defineConfig({
  root: import.meta.dirname,
  plugins: [react()],
  resolve: { conditions: ["sitefx-source", ...defaultClientConditions] },
  build: {
    outDir: "dist",
    emptyOutDir: true,
    target: "es2022",
    sourcemap: true,
    modulePreload: { polyfill: false },
    // the store's first screen in one chunk (every module the entry imports statically), not in several
    // small ones the lazy sections happen to share: fewer requests, and gzip sees it all at once
    rolldownOptions: {
      // reading a property runs no code (no module of the app or its packages reads a getter with effects
      // at load): effect's modules then keep only what the app uses, not every Schema its atoms could use
      treeshake: { propertyReadSideEffects: false },
      output: { codeSplitting: { groups: [{ name: "store", tags: ["$initial"] }] } }
    }
  },
  // the platform's address while developing with `vite` (the built app is served by the platform itself)
  server: { port: 5173 }
})
