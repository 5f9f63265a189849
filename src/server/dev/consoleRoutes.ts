/**
 * The console at `/_sitefx/console`: a page of the platform (React, built by Vite into static files)
 * for what the dev endpoints do, mounted with them in dev mode. Being under `/_sitefx`, it meets the
 * dev guard like every dev endpoint (devAccess.ts): another site's page can neither load it in a frame
 * nor pull its files, and its own calls pass as the platform's own origin. Its answers forbid framing
 * and any script but its own files (no inline script), and it reaches nothing but its own origin.
 *
 * The built console is found where this copy of sitefx keeps it: `dist/console` in the installed
 * package (scripts/build.mjs builds it there), `console/dist` in a checkout (`npm start`,
 * `npm run build:console`, the browser tests' global setup). It is looked for on each request, so a
 * console built after the platform started is served.
 */
import * as Effect from "effect/Effect"
import * as HttpRouter from "effect/http/HttpRouter"
import * as HttpServerRequest from "effect/http/HttpServerRequest"
import * as HttpServerResponse from "effect/http/HttpServerResponse"
import { existsSync } from "node:fs"
import { readFile } from "node:fs/promises"
import { extname, join } from "node:path"
import { fileURLToPath } from "node:url"
import { notFound } from "../platform/responses.ts"
import { route } from "../platform/routing.ts"
import { DEV_PREFIX } from "../platform/devAccess.ts"

export const CONSOLE_PATH = `${DEV_PREFIX}/console`

/** `GET /_sitefx/console` and its files under `/_sitefx/console/assets/` (the wildcard route takes both). */
export const consoleRoutes = HttpRouter.addAll(Effect.sync(() => [route("GET", `${CONSOLE_PATH}/*`, serve)]))

/** Where a built console may be, from this file: dist/server/dev → dist/console; src/server/dev → console/dist. */
const PLACES = ["../../console", "../../../console/dist"].map((p) => fileURLToPath(new URL(p, import.meta.url)))

/** The folder of the built console, or undefined when there is none. */
export const consoleDir = (): string | undefined => PLACES.find((dir) => existsSync(join(dir, "index.html")))

/** Every answer of the console: its own files only, never framed, nothing sent elsewhere. */
export const CONSOLE_HEADERS: Readonly<Record<string, string>> = {
  "content-security-policy": [
    "default-src 'none'",
    "script-src 'self'",
    "style-src 'self'",
    "img-src 'self' data:",
    "connect-src 'self'",
    "base-uri 'none'",
    "form-action 'self'",
    "frame-ancestors 'none'"
  ].join("; "),
  "x-frame-options": "DENY",
  "x-content-type-options": "nosniff",
  "referrer-policy": "no-referrer",
  "cross-origin-opener-policy": "same-origin",
  "cross-origin-resource-policy": "same-origin",
  "cache-control": "no-cache"
}

const TYPES: Readonly<Record<string, string>> = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".svg": "image/svg+xml",
  ".map": "application/json"
}

/** The file a path under the console names: the page itself, or one of its built assets (no other name is read). */
const fileOf = (rest: string): string | undefined => {
  if (rest === "" || rest === "/" || rest === "/index.html") return "index.html"
  const asset = /^\/assets\/([A-Za-z0-9_-][A-Za-z0-9_.-]*)$/.exec(rest)
  return asset === null || asset[1]!.includes("..") ? undefined : `assets/${asset[1]}`
}

const serve = Effect.gen(function*() {
  const request = yield* HttpServerRequest.HttpServerRequest
  const path = request.url.split("?")[0] ?? request.url
  const dir = consoleDir()
  if (dir === undefined) {
    return yield* notFound("The console is not built: in a checkout of sitefx, run `npm run build:console` (npm start builds it)")
  }
  const name = fileOf(path.slice(CONSOLE_PATH.length))
  const type = name === undefined ? undefined : TYPES[extname(name)]
  if (name === undefined || type === undefined) return yield* notFound(`Nothing at ${path}`)
  const bytes = yield* Effect.tryPromise(() => readFile(join(dir, name))).pipe(Effect.catch(() => Effect.fail(notFound(`Nothing at ${path}`))))
  return HttpServerResponse.uint8Array(bytes, { contentType: type, headers: CONSOLE_HEADERS })
})
