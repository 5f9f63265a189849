/**
 * Browser tests: the demo app built by Vite (once per test run, globalSetup.ts), served by the local platform as `npm start` serves it (the
 * `sitefx serve` command in its own process, demo seed, the app at the root), and Debian's Chromium
 * driven by playwright-core, headless, with the flags a closed network needs. Each page fails its test on
 * any console error or warning; screenshots go to `.tmp/screenshots/` for review.
 */
import { afterAll, beforeAll } from "@effect/vitest"
import { type ChildProcess, spawn } from "node:child_process"
import { existsSync, mkdirSync } from "node:fs"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import { type Browser, type BrowserContext, chromium, type Page } from "playwright-core"

const root = fileURLToPath(new URL("../..", import.meta.url))
export const OUTPUT = join(root, ".tmp")
export const SCREENSHOTS = join(OUTPUT, "screenshots")

/** Chromium and Vite keep their files in the project's .tmp, not in the home folder. */
for (const dir of ["tmp", "config", "cache"]) mkdirSync(join(OUTPUT, dir), { recursive: true })
process.env["TMPDIR"] = join(OUTPUT, "tmp")
process.env["XDG_CONFIG_HOME"] = join(OUTPUT, "config")
process.env["XDG_CACHE_HOME"] = join(OUTPUT, "cache")

export const CHROMIUM = "/usr/bin/chromium"
export const CHROMIUM_ARGS = ["--disable-gpu", "--disable-quic", "--no-proxy-server", "--disable-extensions", "--disable-default-apps", "--no-first-run"]

export { buildApp } from "./build.ts"

export interface Platform {
  readonly url: string
  readonly apiKey: string
  readonly siteId: string
  readonly child: ChildProcess
}

/** `sitefx serve --seed demo` on a free port, as `npm start` runs it, with the built app. */
export const startPlatform = (args: ReadonlyArray<string> = []): Promise<Platform> =>
  new Promise((resolve, reject) => {
    const main = join(root, "src/cli/main.ts")
    const child = spawn(process.execPath, [main, "serve", "--port", "0", "--seed", "demo", ...args], { stdio: ["ignore", "pipe", "pipe"], cwd: root })
    let out = ""
    const timer = setTimeout(() => reject(new Error(`the platform did not start:\n${out}`)), 30_000)
    child.on("exit", (code) => reject(new Error(`the platform exited (${code}):\n${out}`)))
    child.stderr!.on("data", (chunk: Buffer) => {
      out += chunk.toString()
    })
    child.stdout!.setEncoding("utf8")
    child.stdout!.on("data", (chunk: string) => {
      out += chunk
      const url = /listening on (http:\/\/\S+)/.exec(out)?.[1]
      const apiKey = /API key\s+(\S+)/.exec(out)?.[1]
      const siteId = /site id\s+(\S+)/.exec(out)?.[1]
      if (url !== undefined && apiKey !== undefined && siteId !== undefined && out.includes("app ")) {
        clearTimeout(timer)
        resolve({ url, apiKey, siteId, child })
      }
    })
  })

export const PHONE = { width: 390, height: 844 } as const
export const DESKTOP = { width: 1280, height: 800 } as const

export interface Session {
  readonly platform: Platform
  readonly browser: Browser
  /** A fresh browser profile (its own storage) with a page at `viewport`; console problems are collected. */
  readonly open: (viewport?: { readonly width: number; readonly height: number }) => Promise<{ readonly context: BrowserContext; readonly page: Page; readonly problems: Array<string> }>
}

/** Collects the page's console errors and warnings, and errors thrown in it. */
export const watch = (page: Page, problems: Array<string>): void => {
  page.on("console", (message) => {
    if (message.type() === "error" || message.type() === "warning") problems.push(`${message.type()}: ${message.text()}`)
  })
  page.on("pageerror", (error) => problems.push(`page error: ${error.message}`))
}

/** Registers the platform and the browser for the test file. */
export const browserSession = (args: ReadonlyArray<string> = []): Session => {
  const state = { platform: undefined as unknown as Platform, browser: undefined as unknown as Browser }
  beforeAll(async () => {
    if (!existsSync(CHROMIUM)) throw new Error(`browser tests need Chromium at ${CHROMIUM} (apt-get install -y chromium)`)
    // the app is built once for the whole run (globalSetup.ts), never while a platform serves it
    if (!existsSync(join(root, "app/dist/index.html"))) throw new Error("app/dist is missing: the test run's global setup builds it")
    const [platform, browser] = await Promise.all([startPlatform(args), chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS, headless: true })])
    state.platform = platform
    state.browser = browser
  }, 120_000)
  afterAll(async () => {
    await state.browser?.close()
    state.platform?.child.kill("SIGTERM")
  })
  return {
    get platform() {
      return state.platform
    },
    get browser() {
      return state.browser
    },
    open: async (viewport = DESKTOP) => {
      const context = await state.browser.newContext({ viewport })
      const page = await context.newPage()
      const problems: Array<string> = []
      watch(page, problems)
      return { context, page, problems }
    }
  }
}

/** Saves a screenshot of the page for review. */
export const screenshot = async (page: Page, name: string): Promise<string> => {
  mkdirSync(SCREENSHOTS, { recursive: true })
  const path = join(SCREENSHOTS, `${name}.png`)
  await page.screenshot({ path, fullPage: true })
  return path
}
