/**
 * The local platform's console: a React page on sitefx/dev's calls and sitefx/react's atoms, served by
 * the platform at `/_sitefx/console` (src/server/dev/console.ts). `vite build console` writes
 * console/dist, which a checkout's platform serves; scripts/build.mjs builds it into dist/console for the
 * package. React is bundled into the console's own files: it is not a dependency of sitefx.
 */
import react from "@vitejs/plugin-react"
import { defaultClientConditions, defineConfig } from "vite"

export default defineConfig({
  root: import.meta.dirname,
  base: "/_sitefx/console/",
  plugins: [react()],
  resolve: { conditions: ["sitefx-source", ...defaultClientConditions] },
  build: {
    outDir: "dist",
    emptyOutDir: true,
    target: "es2022",
    // the platform serves its files under a strict CSP: nothing inlined, no preload helper it does not need
    assetsInlineLimit: 0,
    modulePreload: { polyfill: false },
    reportCompressedSize: false,
    rolldownOptions: {
      // reading a property runs no code (as for the demo app, app/vite.config.ts): effect's modules keep
      // only what the console uses
      treeshake: { propertyReadSideEffects: false }
    }
  },
  // while working on the console with `vite console` (VITE_SITEFX_URL names the platform)
  server: { port: 5174 }
})
