#!/usr/bin/env node
// Installed, the package runs its built command: one bundled file (any Node >= 22.19), which starts in a
// fraction of the time some 600 separate modules took. In a checkout of the repository it runs the same
// kind of bundle made from the sources, built again first whenever a source changed since (see
// scripts/bundle.mjs), so `sitefx` never runs a stale build; without esbuild the sources run directly
// (Node 24 strips their types), as `node src/cli/main.ts` always can. Started in a checkout by an older
// Node (`./bin/sitefx.mjs` on a system Node 20), it hands over to the Node 24 the checkout pins in
// node_modules. An older Node with nothing to hand over to gets one line saying so.
import { spawn } from "node:child_process"
import { existsSync } from "node:fs"
import * as nodeModule from "node:module"
import { fileURLToPath, pathToFileURL } from "node:url"

const source = new URL("../src/cli/main.ts", import.meta.url)
const pinned = fileURLToPath(new URL("../node_modules/.bin/node", import.meta.url))
const [major, minor] = process.versions.node.split(".").map(Number)
const recent = major > 22 || (major === 22 && minor >= 19)
const inCheckout = existsSync(source)

/** The checkout's bundle, fresh; undefined when it cannot be built. */
const checkoutBundle = async () => {
  const { freshBundle } = await import(new URL("../scripts/bundle.mjs", import.meta.url).href)
  const file = await freshBundle()
  return file === undefined ? undefined : pathToFileURL(file).href
}

const entry = !recent
  ? undefined
  : !inCheckout
  ? new URL("../dist/cli/sitefx.bundle.js", import.meta.url).href
  : (await checkoutBundle()) ?? (typeof process.features.typescript === "string" ? source.href : undefined)

if (entry !== undefined) {
  // Node keeps the command's compiled code for the next start (in the system's temporary folder, by
  // content, so never stale; NODE_DISABLE_COMPILE_CACHE=1 turns it off): some 20 ms less of every start
  nodeModule.enableCompileCache?.()
  await import(entry)
} else if (inCheckout && existsSync(pinned) && process.execPath !== pinned) {
  const child = spawn(pinned, [fileURLToPath(import.meta.url), ...process.argv.slice(2)], { stdio: "inherit" })
  // Ctrl-C reaches the child from the terminal; this process waits for it and exits as it did.
  for (const signal of ["SIGINT", "SIGTERM"]) process.on(signal, () => child.kill(signal))
  child.on("exit", (code, signal) => process.exit(code ?? (signal === "SIGINT" ? 130 : 1)))
} else {
  process.stderr.write(
    `sitefx needs Node 22.19 or newer (this is Node ${process.versions.node})` +
      (inCheckout ? "; in this repository run `npm ci` first, then `npm run sitefx -- <command>`\n" : "\n")
  )
  process.exit(2)
}
