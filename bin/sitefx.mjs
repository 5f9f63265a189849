#!/usr/bin/env node
// Installed, the package runs its built JavaScript (any Node >= 22.19). In a checkout of the
// repository the sources run directly (Node 24 strips their types), so `sitefx` never runs a stale build;
// started there by an older Node (`./bin/sitefx.mjs` on a system Node 20), it hands over to the Node 24
// the checkout pins in node_modules. An older Node with nothing to hand over to gets one line saying so.
import { spawn } from "node:child_process"
import { existsSync } from "node:fs"
import { fileURLToPath } from "node:url"

const source = new URL("../src/cli/main.ts", import.meta.url)
const pinned = fileURLToPath(new URL("../node_modules/.bin/node", import.meta.url))
const [major, minor] = process.versions.node.split(".").map(Number)
const recent = major > 22 || (major === 22 && minor >= 19)
const inCheckout = existsSync(source)

if (recent && (!inCheckout || typeof process.features.typescript === "string")) {
  await import(inCheckout ? source.href : new URL("../dist/cli/main.js", import.meta.url).href)
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
