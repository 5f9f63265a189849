#!/usr/bin/env node
// Installed, the package runs its built JavaScript (any Node >= 22.19). In a checkout of the
// repository the sources run directly (Node 24 strips their types), so `sitefx` never runs a stale build.
import { existsSync } from "node:fs"

const source = new URL("../src/cli/main.ts", import.meta.url)
await import(existsSync(source) ? source.href : new URL("../dist/cli/main.js", import.meta.url).href)
