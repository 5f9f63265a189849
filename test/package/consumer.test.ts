/**
 * sitefx as its users get it: the packed tarball installed into a fresh project. Every subpath loads
 * from a plain `.mjs` on Node 24 and on Node 22; the README's examples type-check in the consumer's
 * project (strict, `skipLibCheck: false`) under `module: NodeNext` and `moduleResolution: Bundler`, with
 * TypeScript 5.9 and TypeScript 7, and the browser subpaths under a browser-only config (DOM, no Node
 * types); `sitefx serve` runs from the consumer and answers its health endpoint and its console.
 *
 * Slow (it packs, and installs from the registry), so it runs once per `npm test`, in its own file.
 */
import { afterAll, assert, beforeAll, describe, it } from "@effect/vitest"
import { execFile, execFileSync, spawn } from "node:child_process"
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { promisify } from "node:util"
import { packedTarball } from "../support/packed.ts"

const run = promisify(execFile)
const repo = new URL("../..", import.meta.url).pathname
const npm = process.platform === "win32" ? "npm.cmd" : "npm"
const NODE_22 = "22.19.0"
const TS_7 = "7.0.2"

let dir = ""
const node22 = () => join(dir, "node22", "node_modules", ".bin", "node")
const consumer = () => join(dir, "consumer")

/** npm's own script, to run it on another Node (npm sets npm_execpath for the scripts it runs). */
const npmCli = () => process.env.npm_execpath ?? join(execFileSync(npm, ["root", "-g"], { encoding: "utf8" }).trim(), "npm", "bin", "npm-cli.js")
let installLog = ""
let packed = ""
const tarball = () => packed

/** Where the package `name` is installed under `project`, relative to it (every copy, nested ones too). */
const copiesOf = (name: string, project: string): ReadonlyArray<string> => {
  const found: Array<string> = []
  const walk = (modules: string) => {
    let entries: Array<string>
    try {
      entries = readdirSync(join(project, modules))
    } catch {
      return
    }
    for (const entry of entries) {
      const names = entry.startsWith("@") ? readdirSync(join(project, modules, entry)).map((n) => `${entry}/${n}`) : [entry]
      for (const installed of names) {
        if (installed === name) found.push(`${modules}/${installed}`)
        walk(`${modules}/${installed}/node_modules`)
      }
    }
  }
  walk("node_modules")
  return found.sort()
}
// the batch command keeps an import's checkpoint in the state folder: the consumer's own, not this machine's
const sh = (file: string, args: ReadonlyArray<string>, cwd: string, timeout = 240_000) =>
  run(file, [...args], {
    cwd,
    timeout,
    maxBuffer: 64 * 1024 * 1024,
    env: { ...process.env, npm_config_fund: "false", npm_config_audit: "false", SITEFX_STATE_DIR: join(cwd, ".sitefx-state") }
  })

const BROWSER_SUBPATHS = [
  "sitefx",
  "sitefx/http",
  "sitefx/session",
  "sitefx/data",
  "sitefx/data/items",
  "sitefx/data/indexes",
  "sitefx/data/sandbox",
  "sitefx/data/backups",
  "sitefx/data/movement-jobs",
  "sitefx/catalog",
  "sitefx/catalog/products",
  "sitefx/catalog/collections",
  "sitefx/catalog/inventory",
  "sitefx/catalog/storefront",
  "sitefx/catalog/abandoned-carts",
  "sitefx/catalog/subscription-options",
  "sitefx/catalog/entities",
  "sitefx/events",
  "sitefx/members",
  "sitefx/react",
  "sitefx/first-screen",
  "sitefx/dev"
]
const SUBPATHS = [...BROWSER_SUBPATHS, "sitefx/server", "sitefx/session/file"]

/** The version this repository tests with, so the consumer's test kit runs on what was tested. */
const devVersion = (name: string): string =>
  (JSON.parse(readFileSync(join(repo, "package.json"), "utf8")) as { devDependencies: Record<string, string> }).devDependencies[name]!

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "sitefx-consumer-"))
  // packed once per run, shared with the Next.js example's test (see test/support/packed.ts)
  const tarball = await packedTarball()
  packed = tarball
  mkdirSync(consumer())
  writeFileSync(join(consumer(), "package.json"), JSON.stringify({
    name: "a-consumer",
    private: true,
    type: "module",
    // the app's own effect (sitefx's peer), and the Node platform that `sitefx/server` and `sitefx/testing` run on
    dependencies: { sitefx: `file:${tarball}`, effect: devVersion("effect"), react: "19.3.1", "react-dom": "19.3.1" },
    devDependencies: {
      "@effect/platform-node": devVersion("@effect/platform-node"),
      "@types/node": "24.19.2",
      "@types/react": "19.3.0",
      typescript: "5.9.3",
      typescript7: `npm:typescript@${TS_7}`,
      // the test kit's peers, as a consumer's tests have them
      vitest: devVersion("vitest"),
      "@effect/vitest": devVersion("@effect/vitest")
    }
  }))
  mkdirSync(join(dir, "node22"))
  writeFileSync(join(dir, "node22", "package.json"), JSON.stringify({ name: "node22", private: true, dependencies: { node: NODE_22 } }))
  // The consumer installs with npm running on Node 22.19, the package's stated minimum (its `engines`).
  await sh(npm, ["install"], join(dir, "node22"))
  installLog = (await sh(node22(), [npmCli(), "install"], consumer())).stderr
  cpSync(join(repo, "examples"), join(consumer(), "examples"), { recursive: true })
  // the README's permissions test, as a consumer's own test file
  cpSync(join(repo, "test/testing/readme.test.ts"), join(consumer(), "permissions.test.ts"))
  // and a test of the demo site through the kit's FaultProxy
  cpSync(join(repo, "test/testing/faultProxyKit.test.ts"), join(consumer(), "faults.test.ts"))
  writeFileSync(join(consumer(), "load.mjs"), `for (const path of ${JSON.stringify(SUBPATHS)}) {
  const module = await import(path)
  if (Object.keys(module).length === 0) throw new Error(path + " exports nothing")
}
console.log("loaded")
`)
  writeFileSync(join(consumer(), "react.tsx"), `import { Atom, AsyncResult, RegistryProvider, sessionAtoms, useAtomSet, useAtomValue } from "sitefx/react"
import { Site } from "sitefx"

const session = sessionAtoms(Atom.runtime(Site.layer({ clientId: "sitefx-local-client", tokens: "localStorage" })))

export function Account({ email, password }: { readonly email: string; readonly password: string }) {
  const state = useAtomValue(session.state)
  const signIn = useAtomSet(session.signIn)
  return AsyncResult.match(state, {
    onInitial: () => <p>…</p>,
    onFailure: () => <p>offline</p>,
    onSuccess: ({ value }) => value.loggedIn ? <p>Welcome back</p> : <button onClick={() => signIn({ email, password })}>Sign in</button>
  })
}

export const App = () => <RegistryProvider><Account email="demo@sitefx.dev" password="sitefx-demo" /></RegistryProvider>
`)
  writeFileSync(join(consumer(), "server.ts"), `import * as Effect from "effect/Effect"
import { LocalPlatform } from "sitefx/server"
import * as FileTokenStore from "sitefx/session/file"

export const url = Effect.scoped(LocalPlatform.use((p) => Effect.succeed(p.url))).pipe(Effect.provide(LocalPlatform.layer({ seed: "demo" })))
export const store = FileTokenStore.layer(".tokens.json")
`)
  // the examples import each other as Node runs TypeScript directly, by their `.ts` paths
  const base = {
    strict: true,
    skipLibCheck: false,
    noEmit: true,
    allowImportingTsExtensions: true,
    target: "es2022",
    jsx: "react-jsx",
    exactOptionalPropertyTypes: true,
    noUncheckedIndexedAccess: true
  }
  const config = (name: string, options: Record<string, unknown>, include: ReadonlyArray<string>) =>
    writeFileSync(join(consumer(), name), JSON.stringify({ compilerOptions: { ...base, ...options }, include }))
  // the demo site's module from `sitefx data types`, and queries the compiler must check on it
  writeFileSync(join(consumer(), "typed.ts"), `import * as Effect from "effect/Effect"
import { Collections } from "./examples/generated/collections.ts"

export const authors = Collections.Posts.query.gt("likes", 5).include("author").find.pipe(
  Effect.map((page) => page.items.map((post) => post.author?.name))
)
export const careless = Collections.Posts.query.include("author").find.pipe(
  // @ts-expect-error a post may have no author: the included one is as optional as the field
  Effect.map((page) => page.items.map((post) => post.author.name))
)
// @ts-expect-error likes is a number
Collections.Posts.query.eq("likes", "x")
// @ts-expect-error the demo posts have no such field
Collections.Posts.query.ascending("nope")
// @ts-expect-error startsWith takes a text field
Collections.Posts.query.startsWith("likes", "1")
`)
  // the app's own Effect values, services and layers, made with the app's effect, flow into sitefx's calls
  writeFileSync(join(consumer(), "app-effect.ts"), `import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Schedule from "effect/Schedule"
import { DataItems, Site } from "sitefx"

class PageSize extends Context.Service<PageSize, number>()("app/PageSize") {}

export const titles = Effect.gen(function*() {
  const size = yield* PageSize
  const page = yield* DataItems.query("Posts").limit(size).find.pipe(Effect.retry(Schedule.recurs(2)))
  return page.items.map((post) => String(post["title"]))
}).pipe(
  Effect.provide(Layer.mergeAll(Layer.succeed(PageSize)(5), Site.layer({ clientId: "sitefx-local-client" })))
)
`)
  const everything = ["examples/*.ts", "examples/generated/*.ts", "typed.ts", "react.tsx", "server.ts", "app-effect.ts"]
  config("tsconfig.nodenext.json", { module: "nodenext", moduleResolution: "nodenext", lib: ["es2023", "dom"], types: ["node"] }, everything)
  config("tsconfig.bundler.json", { module: "esnext", moduleResolution: "bundler", lib: ["es2023", "dom"], types: ["node"] }, everything)
  writeFileSync(join(consumer(), "browser.tsx"), `${BROWSER_SUBPATHS.map((p, i) => `import * as M${i} from "${p}"`).join("\n")}
export const all = [${BROWSER_SUBPATHS.map((_, i) => `M${i}`).join(", ")}]
`)
  config("tsconfig.browser.json", { module: "esnext", moduleResolution: "bundler", lib: ["es2022", "dom", "dom.iterable"], types: [] }, ["browser.tsx", "react.tsx"])
}, 600_000)

// the consumer's node_modules: on a loaded machine its removal has taken more than the default 30 s
afterAll(() => {
  if (dir !== "") rmSync(dir, { recursive: true, force: true })
}, 120_000)

const tsc = (version: "5.9" | "7", project: string) =>
  sh(process.execPath, [join(consumer(), "node_modules", version === "5.9" ? "typescript" : "typescript7", "bin", "tsc"), "-p", project], consumer())

describe("the packed package in a consumer's project", () => {
  it("holds the build, the bin, the guides, the README, the CHANGELOG and the LICENSE, and no tests, benches or sources", () => {
    const top = readdirSync(join(consumer(), "node_modules", "sitefx")).sort()
    assert.deepStrictEqual(top, ["CHANGELOG.md", "LICENSE", "README.md", "bin", "dist", "docs", "package.json"])
  })

  it("has every link of its README, and its guides' links between pages, to a file of its own in the package", () => {
    const pkg = join(consumer(), "node_modules", "sitefx")
    const guides = readdirSync(join(pkg, "docs", "guide")).map((name) => join("docs", "guide", name))
    assert.include(guides, join("docs", "guide", "next.md"))
    const dead: Array<string> = []
    for (const page of ["README.md", ...guides]) {
      const text = readFileSync(join(pkg, page), "utf8")
      for (const [, target] of text.matchAll(/\]\(([^)\s]+)\)/g)) {
        // the guides' links into the docs site's API reference (`/api/...`), built from the types dist/ ships
        if (/^(https?:|mailto:|#)/.test(target!) || (page !== "README.md" && target!.startsWith("/api/"))) continue
        const path = join(pkg, page, "..", target!.split("#")[0]!)
        if (!existsSync(path)) dead.push(`${page} -> ${target}`)
      }
    }
    assert.deepStrictEqual(dead, [])
  })

  it("installs on Node 22.19, its stated minimum, without engine warnings", () => {
    assert.notMatch(installLog, /EBADENGINE/)
  })

  it("shares the app's effect: one copy in the project, the one the app depends on", () => {
    assert.deepStrictEqual(copiesOf("effect", consumer()), ["node_modules/effect"])
    assert.deepStrictEqual(copiesOf("@effect/platform-node", consumer()), ["node_modules/@effect/platform-node"])
  })

  it("a browser app's install (sitefx and effect) carries no server-only package", async () => {
    const app = join(dir, "browser-app")
    mkdirSync(app)
    writeFileSync(join(app, "package.json"), JSON.stringify({ name: "a-browser-app", private: true, dependencies: { sitefx: `file:${tarball()}`, effect: devVersion("effect") } }))
    await sh(npm, ["install"], app)
    for (const server of ["@effect/platform-node", "@effect/platform-node-shared", "redis", "@redis/client", "undici", "ws"]) {
      assert.deepStrictEqual(copiesOf(server, app), [], `${server} is installed`)
    }
    assert.deepStrictEqual(copiesOf("effect", app), ["node_modules/effect"])
    // the figure for the notes: what a browser app's node_modules weighs
    console.log(`a browser app's install: ${(await sh("du", ["-sk", "node_modules"], app)).stdout.split("\t")[0]} KB`)
  }, 300_000)

  it("an app on an effect outside sitefx's range hears it from npm, and gets no second copy", async () => {
    const app = join(dir, "old-effect")
    mkdirSync(app)
    writeFileSync(join(app, "package.json"), JSON.stringify({ name: "an-older-app", private: true, dependencies: { sitefx: `file:${tarball()}`, effect: "4.0.6" } }))
    const refused = await sh(npm, ["install"], app).then(() => "", (e: { stdout?: string; stderr?: string }) => `${e.stdout ?? ""}${e.stderr ?? ""}`)
    assert.match(refused, /ERESOLVE/)
    assert.match(refused, /peer effect@"~4\.1\.0" from sitefx/)
    assert.deepStrictEqual(copiesOf("effect", app), [])
  }, 300_000)

  it("every subpath loads from a plain .mjs on Node 24 and on Node 22", async () => {
    assert.strictEqual((await sh(process.execPath, ["load.mjs"], consumer())).stdout.trim(), "loaded")
    assert.strictEqual((await sh(node22(), ["load.mjs"], consumer())).stdout.trim(), "loaded")
    assert.match((await sh(node22(), ["--version"], consumer())).stdout, /^v22\./)
  })

  for (const version of ["5.9", "7"] as const) {
    for (const project of ["tsconfig.nodenext.json", "tsconfig.bundler.json", "tsconfig.browser.json"]) {
      it(`the README's examples type-check with TypeScript ${version} under ${project}`, async () => {
        const result = await tsc(version, project).then((r) => r.stdout, (e: { stdout?: string }) => `failed: ${e.stdout ?? String(e)}`)
        assert.strictEqual(result.trim(), "")
        // TypeScript 5.9 takes 20 s over the examples on a quiet 2-core machine, more while other tests run
      }, 120_000)
    }
  }

  it("the test kit runs the README's permissions test and a test through its FaultProxy in the consumer's vitest, on Node 22", async () => {
    const run = await sh(node22(), [join(consumer(), "node_modules", "vitest", "vitest.mjs"), "run", "permissions.test.ts", "faults.test.ts"], consumer()).catch((e) => {
      throw new Error(`${e.message}\n${e.stdout}\n${e.stderr}`)
    })
    assert.match(run.stdout, /3 passed/)
  })

  it("`sitefx serve` runs from the consumer on Node 22 and answers its health endpoint and its console; the batch commands run against it", async () => {
    const server = spawn(node22(), [join(consumer(), "node_modules", ".bin", "sitefx"), "serve", "--port", "0"], { cwd: consumer() })
    try {
      const url = await new Promise<string>((resolve, reject) => {
        let out = ""
        server.stdout.on("data", (chunk: Buffer) => {
          out += chunk.toString()
          const found = /listening on (http:\/\/\S+)/.exec(out)
          if (found !== null) resolve(found[1]!)
        })
        server.on("exit", (code) => reject(new Error(`exited ${code}: ${out}`)))
      })
      const health = await fetch(`${url}/_sitefx/health`).then((r) => r.json())
      assert.deepStrictEqual(health, { ok: true })
      // the console ships built inside dist, React and all: its page and its script answer
      const page = await fetch(`${url}/_sitefx/console`)
      assert.strictEqual(page.status, 200)
      const script = /src="(\/_sitefx\/console\/assets\/[^"]+\.js)"/.exec(await page.text())?.[1]
      assert.isString(script)
      assert.strictEqual((await fetch(`${url}${script}`)).status, 200)
      // the batch command as a consumer runs it: the key found through the platform, an import, an export
      const bin = join(consumer(), "node_modules", ".bin", "sitefx")
      writeFileSync(join(consumer(), "posts.jsonl"), `${JSON.stringify({ _id: "from-consumer", title: "Imported, from a consumer's project", likes: 1 })}\n`)
      const imported = await sh(node22(), [bin, "data", "import", "Posts", "posts.jsonl", "--base-url", url, "--json"], consumer()).catch((e) => {
        throw new Error(`${e.message} code=${e.code} signal=${e.signal} stdout=${e.stdout}`)
      })
      assert.strictEqual(JSON.parse(imported.stdout).inserted, 1)
      const exported = await sh(node22(), [bin, "data", "export", "Posts", "--filter", '{"_id": "from-consumer"}', "--base-url", url, "--quiet"], consumer())
      assert.strictEqual(JSON.parse(exported.stdout).title, "Imported, from a consumer's project")
    } finally {
      server.kill("SIGTERM")
    }
  })
})
