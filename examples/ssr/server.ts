/**
 * Server rendering with sitefx/react on a plain Node server (`node:http` and `renderToString`): each page
 * request loads the page's query, renders it, and writes the query's result into the page, which the
 * browser hydrates from without asking the platform again. The browser script is bundled with esbuild at
 * start-up. Run against `npm start`: `npm run example examples/ssr/server.ts`, then open the URL it prints.
 */
import { build } from "esbuild"
import { createServer } from "node:http"
import type { AddressInfo } from "node:net"
import { fileURLToPath } from "node:url"
import { createElement as h } from "react"
import { renderToString } from "react-dom/server"
import { AtomRegistry, dehydrate, prefetch, queriesScript, RegistryProvider } from "sitefx/react"
import { siteConnection } from "../localSite.ts"
import { pageAtoms, PostsPage, type SiteConfig } from "./page.ts"

/** The page's HTML: the query loaded on the server, rendered, and its result in the page for the browser. */
export const renderPage = async (site: SiteConfig): Promise<string> => {
  const atoms = pageAtoms(site)
  const registry = AtomRegistry.make()
  try {
    await prefetch(registry, [atoms.posts])
    const html = renderToString(h(RegistryProvider, { registry }, h(PostsPage, { atoms })))
    const config = JSON.stringify(site).replace(/</g, "\\u003c")
    return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Latest posts</title><link rel="icon" href="data:,"></head><body>` +
      `<div id="root">${html}</div>` +
      `<script type="application/json" id="site-config">${config}</script>` +
      queriesScript(dehydrate(registry, [atoms.posts])) +
      `<script type="module" src="/client.js"></script></body></html>`
  } finally {
    registry.dispose()
  }
}

/** The browser script, bundled (React, sitefx/react and the page). */
export const bundleClient = async (): Promise<string> => {
  const result = await build({
    entryPoints: [fileURLToPath(new URL("./client.tsx", import.meta.url))],
    bundle: true,
    write: false,
    format: "esm",
    platform: "browser",
    conditions: ["sitefx-source"],
    jsx: "automatic",
    minify: true,
    define: { "process.env.NODE_ENV": "\"production\"" },
    logLevel: "silent"
  })
  return result.outputFiles[0]!.text
}

/** Serves the page at `/` and its script at `/client.js`; resolves once listening. */
export const startServer = async (site: SiteConfig, port = 0): Promise<{ readonly url: string; readonly close: () => Promise<void> }> => {
  const client = await bundleClient()
  const server = createServer((req, res) => {
    if (req.url === "/client.js") {
      res.writeHead(200, { "content-type": "text/javascript; charset=utf-8" }).end(client)
    } else if (req.url === "/" || req.url?.startsWith("/?")) {
      renderPage(site).then(
        (html) => res.writeHead(200, { "content-type": "text/html; charset=utf-8" }).end(html),
        (error) => res.writeHead(500, { "content-type": "text/plain" }).end(String(error))
      )
    } else {
      res.writeHead(404).end()
    }
  })
  await new Promise<void>((resolve) => server.listen(port, "127.0.0.1", resolve))
  const { port: bound } = server.address() as AddressInfo
  return { url: `http://127.0.0.1:${bound}/`, close: () => new Promise((resolve) => server.close(() => resolve())) }
}

if (import.meta.main) {
  const { baseUrl, clientId } = await siteConnection()
  const server = await startServer({ baseUrl, clientId }, Number(process.env.PORT ?? 3000))
  console.log(`Latest posts, rendered on the server: ${server.url}`)
}
