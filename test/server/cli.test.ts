import { afterEach, assert, describe, it } from "@effect/vitest"
import { type ChildProcess, spawn } from "node:child_process"
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs"
import * as http from "node:http"
import { tmpdir } from "node:os"
import { join } from "node:path"

const NODE = join(process.cwd(), "node_modules/.bin/node")
const BIN = join(process.cwd(), "bin/sitefx.mjs")

interface Running {
  readonly child: ChildProcess
  readonly printout: string
  readonly url: string
  readonly exit: Promise<number | null>
}

const children: Array<ChildProcess> = []

// a failed assertion must not leave a server running
afterEach(() => {
  for (const child of children.splice(0)) if (child.exitCode === null) child.kill("SIGKILL")
})

/** Starts `sitefx ...` and waits until it has printed its address. */
const start = (args: ReadonlyArray<string>): Promise<Running> =>
  new Promise((resolve, reject) => {
    const child = spawn(NODE, [BIN, ...args], { stdio: ["ignore", "pipe", "pipe"] })
    children.push(child)
    const exit = new Promise<number | null>((done) => child.on("exit", (code) => done(code)))
    let out = ""
    let err = ""
    const timer = setTimeout(() => {
      child.kill("SIGKILL")
      reject(new Error(`no address printed: ${out} ${err}`))
    }, 15_000)
    child.stderr!.on("data", (chunk) => {
      err += chunk
    })
    child.stdout!.on("data", (chunk) => {
      out += chunk
      const url = /listening on (http:\/\/[^\s]+)/.exec(out)?.[1]
      // the whole printout is one write; wait for its last line
      if (url !== undefined && /dev endpoints/.test(out)) {
        clearTimeout(timer)
        resolve({ child, printout: out, url, exit })
      }
    })
  })

describe("sitefx serve", () => {
  it("prints the address, client id, API key and demo member; serves; stops cleanly on SIGTERM", async () => {
    const dir = mkdtempSync(join(tmpdir(), "sitefx-cli-"))
    try {
      const running = await start(["serve", "--port", "0", "--db", join(dir, "site.db"), "--seed", "demo", "--no-log"])
      const { printout, url } = running
      assert.match(url, /^http:\/\/127\.0\.0\.1:\d+$/)
      assert.include(printout, "client id      sitefx-local-client")
      assert.include(printout, "demo member    demo@sitefx.dev / sitefx-demo")
      assert.include(printout, `dev endpoints  ${url}/_sitefx`)
      const apiKey = /API key\s+(sfx_key_[A-Za-z0-9_-]+)/.exec(printout)?.[1]
      assert.isString(apiKey)

      assert.deepStrictEqual(await (await fetch(`${url}/_sitefx/health`)).json(), { ok: true })
      const who = await fetch(`${url}/_sitefx/whoami`, { headers: { authorization: apiKey! } })
      assert.strictEqual((await who.json()).kind, "admin")
      const token = await fetch(`${url}/oauth2/token`, {
        method: "POST",
        body: JSON.stringify({ clientId: "sitefx-local-client", grantType: "anonymous" })
      })
      assert.strictEqual(token.status, 200)

      running.child.kill("SIGTERM")
      assert.strictEqual(await running.exit, 0)
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  })

  it("turns dev endpoints off by default on a non-loopback host, and SIGINT stops it too", async () => {
    const running = await start(["serve", "--port", "0", "--host", "0.0.0.0", "--seed", "none", "--no-log"])
    assert.include(running.printout, "dev endpoints  off")
    assert.notInclude(running.printout, "demo member")
    assert.strictEqual((await fetch(`${running.url}/_sitefx/health`)).status, 404)
    running.child.kill("SIGINT")
    assert.strictEqual(await running.exit, 0)
  })

  it("--dev turns them on explicitly", async () => {
    const running = await start(["serve", "--port", "0", "--host", "0.0.0.0", "--dev", "--no-log"])
    assert.strictEqual((await fetch(`${running.url}/_sitefx/health`)).status, 200)
    running.child.kill("SIGTERM")
    assert.strictEqual(await running.exit, 0)
  })

  it("--dev-origin lets a dev server's pages reach the dev endpoints, and no other origin", async () => {
    const running = await start(["serve", "--port", "0", "--seed", "none", "--no-log", "--dev-origin", "http://localhost:5173", "--dev-origin", "http://127.0.0.1:5173"])
    // a dev server at localhost and the platform at 127.0.0.1 are two sites, and the printout says what that costs
    assert.include(running.printout, `  dev origin     http://localhost:5173   (another site than ${running.url}: a silent login in its pages finds no session; open both at one host name)\n`)
    assert.include(running.printout, "  dev origin     http://127.0.0.1:5173\n")
    const health = (origin: string) =>
      new Promise<{ status: number; allow: unknown }>((resolve, reject) => {
        http.get(`${running.url}/_sitefx/health`, { headers: { origin } }, (res) => {
          res.resume()
          res.on("end", () => resolve({ status: res.statusCode!, allow: res.headers["access-control-allow-origin"] }))
        }).on("error", reject)
      })
    assert.deepStrictEqual(await health("http://localhost:5173"), { status: 200, allow: "http://localhost:5173" })
    // refused, and granted the refusal alone, so the page reads why
    assert.deepStrictEqual(await health("http://localhost:5174"), { status: 403, allow: "http://localhost:5174" })
    running.child.kill("SIGTERM")
    assert.strictEqual(await running.exit, 0)
  })

  it("stops when the process that started it is gone (npm start stopped without passing the signal on)", async () => {
    // a shell stands in for npm: it starts the platform and is killed outright
    const shell = spawn("sh", ["-c", `"${NODE}" "${BIN}" serve --port 0 --no-log & echo $!; wait`], { stdio: ["ignore", "pipe", "ignore"] })
    children.push(shell)
    const pid = Number(await new Promise<string>((resolve) => shell.stdout!.once("data", (chunk) => resolve(String(chunk).trim()))))
    const alive = () => {
      try {
        process.kill(pid, 0)
        return true
      } catch {
        return false
      }
    }
    await new Promise((r) => setTimeout(r, 2000))
    assert.isTrue(alive())
    shell.kill("SIGKILL")
    // it looks for its parent once a second, then closes the server and the database: 20 s allows a loaded machine
    for (let i = 0; i < 100 && alive(); i++) await new Promise((r) => setTimeout(r, 200))
    assert.isFalse(alive(), "the platform outlived its parent")
  })

  it("--export-on-exit saves the state on SIGINT; --import starts from it; a kill leaves the saved one whole", async () => {
    const dir = mkdtempSync(join(tmpdir(), "sitefx-cli-"))
    const saved = join(dir, "state")
    const admin = async (url: string) => {
      const site = await (await fetch(`${url}/_sitefx/site`)).json()
      return { authorization: site.apiKey as string, "content-type": "application/json" }
    }
    const insert = async (url: string, id: string) => {
      const res = await fetch(`${url}/wix-data/v2/items`, {
        method: "POST",
        headers: await admin(url),
        body: JSON.stringify({ dataCollectionId: "Posts", dataItem: { id, data: { title: id } } })
      })
      assert.strictEqual(res.status, 200)
    }
    const has = async (url: string, id: string) =>
      (await fetch(`${url}/wix-data/v2/items/${id}?dataCollectionId=Posts`, { headers: await admin(url) })).status === 200
    try {
      // the first run of `--import state --export-on-exit state` has no state yet: it starts from the seed
      const first = await start(["serve", "--port", "0", "--import", saved, "--export-on-exit", saved, "--no-log"])
      assert.include(first.printout, `saves on exit  ${saved}`)
      assert.include(first.printout, "started from   the demo seed")
      await insert(first.url, "before-exit")
      first.child.kill("SIGINT")
      assert.strictEqual(await first.exit, 0)
      const manifest = JSON.parse(readFileSync(join(saved, "manifest.json"), "utf8"))
      assert.strictEqual(manifest.format, "sitefx-snapshot")
      const bytes = readFileSync(join(saved, "snapshot.sqlite"))

      const second = await start(["serve", "--port", "0", "--import", saved, "--export-on-exit", saved, "--no-log"])
      assert.include(second.printout, `started from   ${saved}`)
      assert.isTrue(await has(second.url, "before-exit"))
      await insert(second.url, "never-saved")
      // a crash saves nothing and leaves the last snapshot as it was
      second.child.kill("SIGKILL")
      await second.exit
      assert.isTrue(readFileSync(join(saved, "snapshot.sqlite")).equals(bytes))

      const third = await start(["serve", "--port", "0", "--import", saved, "--no-log"])
      assert.isTrue(await has(third.url, "before-exit"))
      assert.isFalse(await has(third.url, "never-saved"))
      third.child.kill("SIGTERM")
      assert.strictEqual(await third.exit, 0)
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  })

  it("--import refuses what is not a snapshot, in one line", async () => {
    const dir = mkdtempSync(join(tmpdir(), "sitefx-cli-"))
    try {
      writeFileSync(join(dir, "snapshot.sqlite"), "not a database")
      const child = spawn(NODE, [BIN, "serve", "--port", "0", "--import", dir], { stdio: ["ignore", "pipe", "pipe"] })
      children.push(child)
      let err = ""
      child.stderr!.on("data", (chunk) => {
        err += chunk
      })
      const code = await new Promise((done) => child.on("exit", done))
      assert.strictEqual(code, 1)
      assert.match(err, /--import .*is not a sitefx snapshot/)
      assert.notInclude(err, "    at ")
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  })
})
