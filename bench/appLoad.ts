/**
 * What the demo app's first load costs: the JavaScript and CSS `app/dist/index.html` loads before the
 * store's first screen (its entry script and every chunk the entry imports statically, transitively),
 * gzip -9, as `npm run bench:app` prints it and test/package/appSize.test.ts holds it to a budget. The
 * platform's console, served under `/_sitefx/console/`, is measured the same way (test/package/consoleSize.test.ts).
 */
import { readdirSync, readFileSync } from "node:fs"
import { join } from "node:path"
import { gzipSync } from "node:zlib"

export interface AppLoad {
  /** The first load's script files, the entry first. */
  readonly files: ReadonlyArray<string>
  /** Their gzipped bytes together. */
  readonly jsGzip: number
  readonly cssGzip: number
  /** Every script of every section, gzipped. */
  readonly allJsGzip: number
  readonly allFiles: number
}

/** Measures a built app (the folder Vite wrote: index.html and assets/). */
export const measureAppLoad = (dist: string): AppLoad => {
  const assets = join(dist, "assets")
  const gzip = (file: string) => gzipSync(readFileSync(join(assets, file)), { level: 9 }).byteLength
  const html = readFileSync(join(dist, "index.html"), "utf8")
  const entry = /src="[^"]*\/assets\/([^"]+\.js)"/.exec(html)![1]!
  const first = new Set([entry])
  for (const file of first) {
    for (const m of readFileSync(join(assets, file), "utf8").matchAll(/(?:^|[;}\n])import\s*[^"'()]*?["']\.\/([^"']+\.js)["']/g)) first.add(m[1]!)
  }
  const all = readdirSync(assets).filter((f) => f.endsWith(".js"))
  return {
    files: [...first],
    jsGzip: [...first].reduce((sum, f) => sum + gzip(f), 0),
    cssGzip: readdirSync(assets).filter((f) => f.endsWith(".css")).reduce((sum, f) => sum + gzip(f), 0),
    allJsGzip: all.reduce((sum, f) => sum + gzip(f), 0),
    allFiles: all.length
  }
}

/** The source files a built script holds, as its source map names them (`file` as `measureAppLoad` lists it). */
export const sourcesOf = (dist: string, file: string): ReadonlyArray<string> =>
  (JSON.parse(readFileSync(join(dist, "assets", `${file}.map`), "utf8")) as { sources: ReadonlyArray<string> }).sources
