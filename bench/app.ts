/**
 * `npm run bench:app`: what the demo app costs a browser. Builds the app, then reports its JavaScript and
 * CSS (gzip -9) on first load, and, in headless Chromium against `sitefx serve --seed demo`, the time from
 * navigation to the first product grid (median of several cold page loads, each in a fresh profile).
 * Measured figures, printed; nothing is asserted.
 */
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import { chromium } from "playwright-core"
import { measureAppLoad } from "./appLoad.ts"
import { buildApp, CHROMIUM, CHROMIUM_ARGS, DESKTOP, startPlatform } from "../test/browser/support.ts"

const root = fileURLToPath(new URL("..", import.meta.url))
const LOADS = Number(process.env["BENCH_LOADS"] ?? 7)

await buildApp()
const kb = (n: number) => `${(n / 1024).toFixed(1)} KB`
const load = measureAppLoad(join(root, "app/dist"))
console.log(`app on first load (the store): JavaScript ${kb(load.jsGzip)} gzip in ${load.files.length} file(s), CSS ${kb(load.cssGzip)} gzip; every section: ${kb(load.allJsGzip)} in ${load.allFiles} files`)

const platform = await startPlatform()
const browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS, headless: true })
try {
  const times: Array<number> = []
  for (let i = 0; i <= LOADS; i++) {
    const context = await browser.newContext({ viewport: DESKTOP })
    const page = await context.newPage()
    const started = Date.now()
    await page.goto(platform.url)
    await page.getByRole("list", { name: "Products" }).getByRole("listitem").first().waitFor()
    const ms = await page.evaluate(() => performance.now())
    if (i > 0) times.push(ms)
    else console.log(`  (warm-up load: ${Date.now() - started} ms)`)
    await context.close()
  }
  times.sort((a, b) => a - b)
  console.log(`navigation to the first product grid: median ${Math.round(times[Math.floor(times.length / 2)]!)} ms over ${LOADS} cold loads (${times.map((t) => Math.round(t)).join(", ")})`)
} finally {
  await browser.close()
  platform.child.kill("SIGTERM")
}
