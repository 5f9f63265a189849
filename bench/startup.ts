/**
 * The `startup` case of `npm run bench`: how long `sitefx serve` takes from the start of its process
 * until `GET /_sitefx/health` answers 200, with an empty database (`--seed none`, target under 500 ms)
 * and with the demo seed (`--seed demo`, the default, target under 1 s). It runs from this checkout and
 * from the package as a consumer installs it (packed with `npm pack`, installed into a fresh project in a
 * temporary folder), each started as users start it: directly by Node (`node bin/sitefx.mjs serve`,
 * `node node_modules/.bin/sitefx serve`) and through npm (`npm run sitefx -- serve`, `npx sitefx serve`),
 * which adds npm's own start. Every way runs once to warm up (the checkout's first run may build its
 * bundle), then RUNS times, one way after the other in each round; the figure is the median, with the
 * range beside it.
 */
import { type ChildProcess, execFileSync, spawn } from "node:child_process"
import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs"
import { get } from "node:http"
import { tmpdir } from "node:os"
import { delimiter, dirname, join } from "node:path"
import { fileURLToPath } from "node:url"

const root = fileURLToPath(new URL("..", import.meta.url))
/** Milliseconds from the start of the process to the health endpoint's 200, at most. */
export const STARTUP_TARGETS_MS = { none: 500, demo: 1000 } as const

export interface StartupFigure {
  readonly where: "checkout" | "installed"
  readonly how: string
  readonly seed: "none" | "demo"
  /** Every measured run, in milliseconds. */
  readonly runs: ReadonlyArray<number>
}

interface Way {
  readonly where: StartupFigure["where"]
  readonly how: string
  readonly command: string
  readonly args: ReadonlyArray<string>
  readonly cwd: string
}

/** The pinned Node first on the PATH, so that npm and npx (and what they start) run on it. */
const env = { ...process.env, PATH: `${dirname(process.execPath)}${delimiter}${process.env["PATH"] ?? ""}`, npm_config_update_notifier: "false" }

const health = (url: string) =>
  new Promise<void>((resolve, reject) => {
    get(`${url}/_sitefx/health`, (response) => {
      response.resume()
      response.on("end", () => (response.statusCode === 200 ? resolve() : reject(new Error(`health answered ${response.statusCode}`))))
    }).on("error", reject)
  })

/** Stops a started command and whatever it started (npm runs the platform as its child). */
const stop = (child: ChildProcess) =>
  new Promise<void>((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve()
    child.once("exit", () => resolve())
    try {
      process.kill(-child.pid!, "SIGTERM")
    } catch {
      child.kill("SIGTERM")
    }
  })

/** One start: milliseconds from the spawn until the health endpoint answered 200. */
const startOnce = (way: Way, seed: StartupFigure["seed"]): Promise<number> =>
  new Promise((resolve, reject) => {
    const t0 = performance.now()
    // its own process group, so that stopping it stops what npm started too
    const child = spawn(way.command, [...way.args, "--port", "0", "--seed", seed], { cwd: way.cwd, env, detached: true, stdio: ["ignore", "pipe", "pipe"] })
    let out = ""
    let err = ""
    let answered = false
    const fail = (error: Error) => void stop(child).then(() => reject(error))
    const timer = setTimeout(() => fail(new Error(`${way.how} did not answer in 30 s:\n${out}\n${err}`)), 30_000)
    child.stderr!.setEncoding("utf8").on("data", (chunk: string) => (err += chunk))
    child.on("exit", (code) => answered || fail(new Error(`${way.how} exited ${code}:\n${out}\n${err}`)))
    child.stdout!.setEncoding("utf8").on("data", (chunk: string) => {
      out += chunk
      const url = /listening on (http:\/\/\S+)/.exec(out)?.[1]
      if (url === undefined || answered) return
      answered = true
      health(url).then(
        () => {
          const ms = performance.now() - t0
          clearTimeout(timer)
          void stop(child).then(() => resolve(ms))
        },
        (error: Error) => fail(error)
      )
    })
  })

/** The package as a consumer gets it: packed, then installed (from npm's cache when it can) into a fresh project. */
const installPackage = (dir: string): string => {
  execFileSync("npm", ["pack", "--pack-destination", dir, "--silent"], { cwd: root, env, stdio: ["ignore", "ignore", "inherit"] })
  const tarball = join(dir, readdirSync(dir).find((f) => f.endsWith(".tgz"))!)
  const project = join(dir, "consumer")
  mkdirSync(project)
  writeFileSync(join(project, "package.json"), JSON.stringify({ name: "sitefx-startup-consumer", private: true, type: "module" }))
  const install = (extra: ReadonlyArray<string>) =>
    execFileSync("npm", ["install", ...extra, "--no-audit", "--no-fund", "--silent", tarball], { cwd: project, env, stdio: ["ignore", "ignore", "pipe"] })
  try {
    install(["--offline"])
  } catch {
    install(["--prefer-offline"])
  }
  return project
}

/** Times every way of starting `sitefx serve`, with each seed; `runs` measured starts of each after one warm-up. */
export const measureStartup = async (runs: number): Promise<ReadonlyArray<StartupFigure>> => {
  const dir = mkdtempSync(join(tmpdir(), "sitefx-startup-"))
  try {
    const project = installPackage(dir)
    const ways: ReadonlyArray<Way> = [
      { where: "checkout", how: "node bin/sitefx.mjs serve", command: process.execPath, args: [join(root, "bin/sitefx.mjs"), "serve"], cwd: root },
      { where: "checkout", how: "npm run sitefx -- serve", command: "npm", args: ["run", "--silent", "sitefx", "--", "serve"], cwd: root },
      { where: "installed", how: "node node_modules/.bin/sitefx serve", command: process.execPath, args: [join(project, "node_modules/.bin/sitefx"), "serve"], cwd: project },
      { where: "installed", how: "npx sitefx serve", command: "npx", args: ["--offline", "sitefx", "serve"], cwd: project }
    ]
    const seeds = ["none", "demo"] as const
    const runsOf = new Map<string, Array<number>>()
    for (let round = 0; round <= runs; round++) {
      for (const way of ways) {
        for (const seed of seeds) {
          const ms = await startOnce(way, seed)
          if (round > 0) runsOf.set(`${way.how}|${seed}`, [...(runsOf.get(`${way.how}|${seed}`) ?? []), ms])
        }
      }
    }
    return ways.flatMap((way) => seeds.map((seed) => ({ where: way.where, how: way.how, seed, runs: runsOf.get(`${way.how}|${seed}`) ?? [] })))
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}
