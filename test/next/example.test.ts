/**
 * examples/next, as a Next.js user builds and runs it: the packed package installed in the example's
 * node_modules, `next build` with Turbopack and with webpack (Cache Components on), `next start`, and a
 * real Chromium against a local platform that delivers webhooks to the app. What it proves: posts rendered
 * on the server; products hydrated with no call from the browser to the platform; a member signing in,
 * rendered on the server as that member, reloading without a hydration warning, and signing out of the
 * platform's session too; one visitor token for a series of page views; a webhook delivered to a route
 * handler. It prints the page's First Load JS as the browser received it, and the share of the chunks
 * that carry sitefx and effect.
 *
 * Slow (two production builds), so it runs once per `npm test`, in its own file.
 */
import { afterAll, assert, beforeAll, describe, it } from "@effect/vitest"
import { type ChildProcess, execFile, spawn } from "node:child_process"
import { cpSync, existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs"
import { createServer } from "node:net"
import { join } from "node:path"
import { promisify } from "node:util"
import { type Browser, chromium, type Page } from "playwright-core"
import { CHROMIUM, CHROMIUM_ARGS, type Platform, startPlatform } from "../browser/support.ts"
import { packedTarball } from "../support/packed.ts"

const run = promisify(execFile)
const repo = join(import.meta.dirname, "..", "..")
// inside the repository, so the example finds next, react and effect in its node_modules as an app would
const app = join(repo, `.next-example-${process.pid}`)
const next = join(repo, "node_modules", "next", "dist", "bin", "next")
const BUILD_MILLIS = 8 * 60_000

/** A free port on 127.0.0.1. */
const freePort = () =>
  new Promise<number>((resolve, reject) => {
    const server = createServer()
    server.listen(0, "127.0.0.1", () => {
      const address = server.address()
      server.close(() => (typeof address === "object" && address !== null ? resolve(address.port) : reject(new Error("no port"))))
    })
  })

let platform: Platform
let server: ChildProcess | undefined
let browser: Browser
let port = 0
let env: NodeJS.ProcessEnv
const builds: Record<string, string> = {}

const base = () => `http://127.0.0.1:${port}`

/** What the platform counts: token requests by grant. */
const stats = async () => (await (await fetch(`${platform.url}/_sitefx/stats`)).json()) as { tokenRequests: Record<string, number> }

/** Builds the example; the build's output, without its colours. */
const build = async (bundler: "turbopack" | "webpack") => {
  const { stdout, stderr } = await run(process.execPath, [next, "build", ...(bundler === "webpack" ? ["--webpack"] : [])], {
    cwd: app,
    env,
    maxBuffer: 64 * 1024 * 1024,
    timeout: BUILD_MILLIS
  })
  return `${stdout}\n${stderr}`.replace(/\u001b\[[0-9;]*m/g, "")
}

const start = () =>
  new Promise<ChildProcess>((resolve, reject) => {
    const child = spawn(process.execPath, [next, "start", "-p", String(port), "-H", "127.0.0.1"], { cwd: app, env, stdio: ["ignore", "pipe", "pipe"] })
    let out = ""
    const timer = setTimeout(() => reject(new Error(`next start did not answer:\n${out}`)), 60_000)
    const onData = (chunk: Buffer) => {
      out += chunk.toString()
      if (out.includes("Ready")) {
        clearTimeout(timer)
        resolve(child)
      }
    }
    child.stdout!.on("data", onData)
    child.stderr!.on("data", onData)
    child.on("exit", (code) => reject(new Error(`next start exited (${code}):\n${out}`)))
  })

/** A page that records what it asks the platform for, and every console error and page error. */
const watched = async () => {
  const page = await browser.newPage()
  const toPlatform: Array<string> = []
  const problems: Array<string> = []
  page.on("request", (r) => {
    if (r.url().startsWith(platform.url)) toPlatform.push(`${r.method()} ${new URL(r.url()).pathname}`)
  })
  page.on("console", (m) => {
    // a missing favicon is the example's, not a hydration or script problem
    if (m.type() === "error" && !m.text().includes("404")) problems.push(m.text())
  })
  page.on("pageerror", (e) => problems.push(String(e)))
  return { page, toPlatform, problems }
}

const signIn = async (page: Page) => {
  await page.goto(`${base()}/sign-in`)
  await page.getByLabel("Email").fill("demo@sitefx.dev")
  await page.getByLabel("Password").fill("sitefx-demo")
  await page.getByRole("button", { name: "Sign in" }).click()
  await page.waitForURL("**/account")
  await page.getByText("Signed in as demo@sitefx.dev").waitFor()
}

beforeAll(async () => {
  port = await freePort()
  const tarball = await packedTarball()
  platform = await startPlatform(["--webhook", `http://127.0.0.1:${port}/api/webhooks`])
  const { publicKey } = (await (await fetch(`${platform.url}/_api/sitefx-events/v1/public-key`)).json()) as { publicKey: string }
  env = {
    ...process.env,
    NEXT_TELEMETRY_DISABLED: "1",
    NEXT_PUBLIC_SITEFX_CLIENT_ID: "sitefx-local-client",
    NEXT_PUBLIC_SITEFX_BASE_URL: platform.url,
    SITE_PUBLIC_KEY: publicKey
  }
  // the example as a user copies it, with the packed package installed beside the repository's next and react
  rmSync(app, { recursive: true, force: true })
  cpSync(join(repo, "examples", "next"), app, { recursive: true, filter: (path) => !/[/\\](node_modules|\.next)$/.test(path) })
  mkdirSync(join(app, "node_modules"))
  await run("tar", ["-xzf", tarball, "-C", join(app, "node_modules")])
  renameSync(join(app, "node_modules", "package"), join(app, "node_modules", "sitefx"))
  // webpack first: the app then runs Turbopack's build, Next's default
  builds["webpack"] = await build("webpack")
  builds["turbopack"] = await build("turbopack")
  server = await start()
  browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS, headless: true })
}, 2 * BUILD_MILLIS + 3 * 60_000)

afterAll(async () => {
  await browser?.close()
  server?.kill()
  platform?.child.kill()
  rmSync(app, { recursive: true, force: true })
})

describe("the Next.js example", () => {
  it("builds with Turbopack and with webpack, Cache Components on, without a warning from sitefx", () => {
    for (const [bundler, output] of Object.entries(builds)) {
      assert.include(output, "Cache Components enabled", bundler)
      assert.match(output, /Compiled successfully/, bundler)
      // the posts' page is prerendered, the account page partly (its member part streams)
      assert.match(output, /○ \/\s/, bundler)
      assert.match(output, /◐ \/account/, bundler)
      const warnings = output.split("\n").filter((line) => /warn|⚠/i.test(line) && /sitefx|effect/i.test(line))
      assert.deepStrictEqual(warnings, [], bundler)
    }
  })

  it("renders the posts and the products on the server, and the browser asks the platform nothing for them", async () => {
    const html = await (await fetch(`${base()}/`)).text()
    assert.include(html, "Welcome to sitefx")
    assert.match(html, /aria-label="products"/)
    const { page, toPlatform, problems } = await watched()
    await page.goto(`${base()}/`)
    await page.locator("ul[aria-label=products] li").first().waitFor()
    assert.isAbove(await page.locator("ul[aria-label=products] li").count(), 0)
    await page.waitForTimeout(1000)
    assert.deepStrictEqual(toPlatform, [])
    assert.deepStrictEqual(problems, [])

    // what the page's scripts weigh as the browser received them (gzip), and the chunks with sitefx and effect
    const scripts = await page.evaluate(() =>
      performance.getEntriesByType("resource").filter((e) => (e as PerformanceResourceTiming).initiatorType === "script" || e.name.endsWith(".js"))
        .map((e) => ({ url: e.name, encoded: (e as PerformanceResourceTiming).encodedBodySize }))
    )
    const staticDir = join(app, ".next", "static")
    let total = 0
    let ours = 0
    for (const script of scripts) {
      total += script.encoded
      const path = join(staticDir, new URL(script.url).pathname.replace(/^\/_next\/static\//, ""))
      if (existsSync(path) && /sitefx\/TokenStore|~effect\//.test(readFileSync(path, "utf8"))) ours += script.encoded
    }
    assert.isAbove(total, 0)
    assert.isAbove(ours, 0)
    console.log(`Next.js example (Turbopack), "/": First Load JS ${(total / 1024).toFixed(1)} KB gzip as received, ${scripts.length} scripts; the chunks with sitefx and effect ${(ours / 1024).toFixed(1)} KB (${Math.round((ours / total) * 100)}%)`)
    writeFileSync(join(repo, ".tmp", "next-example-weight.json"), JSON.stringify({ at: new Date().toISOString(), firstLoadGzip: total, sitefxAndEffectGzip: ours, scripts: scripts.length }))
    await page.close()
  }, 120_000)

  it("gives one visitor one visitor token across page views", async () => {
    const before = (await stats()).tokenRequests["anonymous"] ?? 0
    const { page, problems } = await watched()
    const tokens: Array<string> = []
    for (const path of ["/", "/account", "/sign-in", "/", "/account"]) {
      await page.goto(`${base()}${path}`)
      await page.waitForLoadState("load")
      const readable = (await page.context().cookies()).find((c) => c.name === "sitefx.session")
      tokens.push((JSON.parse(Buffer.from(readable!.value, "base64url").toString()) as { a: string }).a)
    }
    // the proxy gave the first view its tokens; every later view, on the server and in the browser, used them
    assert.strictEqual(new Set(tokens).size, 1)
    const after = (await stats()).tokenRequests["anonymous"] ?? 0
    // besides the visitor's, the server's own visitor session may renew the cached posts once
    assert.include([1, 2], after - before)
    assert.deepStrictEqual(problems, [])
    await page.context().close()
  }, 120_000)

  it("signs a member in, renders their page on the server, reloads without a hydration warning, and signs out of the platform too", async () => {
    const { page, toPlatform, problems } = await watched()
    await signIn(page)
    // the member's tokens: httpOnly for the refresh token, and never the refresh token where the page reads
    const cookies = await page.context().cookies()
    const readable = cookies.find((c) => c.name === "sitefx.session")!
    const secret = cookies.find((c) => c.name === "sitefx.session.refresh")!
    assert.isFalse(readable.httpOnly)
    assert.isTrue(secret.httpOnly)
    const refresh = JSON.parse(Buffer.from(secret.value, "base64url").toString()) as { t: string; r: string }
    assert.strictEqual(refresh.r, "member")
    assert.notInclude(Buffer.from(readable.value, "base64url").toString(), refresh.t)

    // a reload: the server renders the member (no flash of a visitor), the browser asks the platform nothing
    toPlatform.length = 0
    const html = await page.reload().then((r) => r!.text())
    assert.include(html, "Signed in as <strong>demo@sitefx.dev</strong>")
    await page.getByText("Signed in as demo@sitefx.dev").waitFor()
    await page.waitForTimeout(1000)
    assert.deepStrictEqual(toPlatform, [])
    assert.deepStrictEqual(problems, [])

    // signing out ends the platform's session (its logout page) and the app's cookies
    await page.getByRole("button", { name: "Sign out" }).click()
    await page.waitForURL(`${base()}/`)
    await page.goto(`${base()}/account`)
    await page.getByText("You are browsing as a visitor").waitFor()
    const left = (await page.context().cookies()).find((c) => c.name === "sitefx.session.refresh")
    assert.notStrictEqual(left && (JSON.parse(Buffer.from(left.value, "base64url").toString()) as { r: string }).r, "member")
    assert.deepStrictEqual(problems, [])
    await page.context().close()
  }, 120_000)

  it("receives the site's events as webhooks in a route handler", async () => {
    const created = await fetch(`${platform.url}/wix-data/v2/items`, {
      method: "POST",
      headers: { "content-type": "application/json", authorization: platform.apiKey, "wix-site-id": platform.siteId },
      body: JSON.stringify({ dataCollectionId: "Posts", dataItem: { data: { title: "Sent to Next.js" } } })
    })
    assert.strictEqual(created.status, 200)
    const id = ((await created.json()) as { dataItem: { id: string } }).dataItem.id
    const deadline = Date.now() + 15_000
    let received: ReadonlyArray<string> = []
    while (Date.now() < deadline) {
      received = ((await (await fetch(`${base()}/api/webhooks`)).json()) as { received: ReadonlyArray<string> }).received
      if (received.some((line) => line.includes(id))) break
      await new Promise((r) => setTimeout(r, 250))
    }
    assert.isTrue(received.some((line) => line.includes(id)), JSON.stringify(received))
  })
})
