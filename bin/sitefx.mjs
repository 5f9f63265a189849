#!/usr/bin/env node
// Node 24 runs the TypeScript sources directly (type stripping).
import "../src/cli/main.ts"
