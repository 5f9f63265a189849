/**
 * Test support for the `sitefx` command: it runs as its own process (the pinned Node runs the sources),
 * against a local platform the test started, with what a script would see: exit code, stdout, stderr.
 */
import { type ChildProcess, spawn } from "node:child_process"
import { existsSync, mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import { afterAll, expect } from "vitest"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Redacted from "effect/Redacted"
import type { BulkServices } from "../../src/data/bulkWrites.ts"
import * as DataItems from "../../src/data/DataItems.ts"
import { Site } from "../../src/Site.ts"
import { LocalPlatform } from "../support/platform.ts"

export const ROOT = fileURLToPath(new URL("../..", import.meta.url))
export const MAIN = fileURLToPath(new URL("../../src/cli/main.ts", import.meta.url))

/**
 * A temporary folder for the test file that asks for it, removed once its tests are done; the removal
 * is checked, so a test file that leaves its files in the system's temporary folder fails.
 */
export const scratchDir = (prefix: string): string => {
  const dir = mkdtempSync(join(tmpdir(), prefix))
  afterAll(() => {
    rmSync(dir, { recursive: true, force: true })
    expect(existsSync(dir), `${dir} is left behind`).toBe(false)
  })
  return dir
}

/**
 * The state folder of every command a test file starts (SITEFX_STATE_DIR, where an import keeps its own
 * checkpoint): the test file's own, never the state folder of the person running the tests.
 */
export const STATE_DIR = join(scratchDir("sitefx-cli-state-"), "state")

export interface CliResult {
  readonly code: number | null
  readonly signal: NodeJS.Signals | null
  readonly stdout: string
  readonly stderr: string
}

export interface CliOptions {
  readonly env?: Record<string, string | undefined>
  readonly input?: string
  readonly cwd?: string
  readonly timeoutMs?: number
}

/** The environment of a script: no SITEFX_* of the machine running the tests leaks in; the state folder is the test file's. */
export const cleanEnv = (extra: Record<string, string | undefined> = {}): NodeJS.ProcessEnv => {
  const env: Record<string, string | undefined> = { SITEFX_STATE_DIR: STATE_DIR }
  for (const [k, v] of Object.entries(process.env)) if (!k.startsWith("SITEFX_") && v !== undefined) env[k] = v
  for (const [k, v] of Object.entries(extra)) {
    if (v === undefined) delete env[k]
    else env[k] = v
  }
  return env
}

/** Starts `sitefx <args>`; the caller decides when to signal it. */
export const startCli = (args: ReadonlyArray<string>, options: CliOptions = {}) => {
  const child = spawn(process.execPath, [MAIN, ...args], {
    cwd: options.cwd ?? ROOT,
    env: cleanEnv(options.env),
    stdio: ["pipe", "pipe", "pipe"]
  })
  let stdout = ""
  let stderr = ""
  child.stdout.setEncoding("utf8").on("data", (d: string) => (stdout += d))
  child.stderr.setEncoding("utf8").on("data", (d: string) => (stderr += d))
  // a command that ends before it read all of its input (stopped, refused) closes the pipe: not a failure of the test
  child.stdin.on("error", () => undefined)
  if (options.input !== undefined) child.stdin.end(options.input)
  else child.stdin.end()
  const done = new Promise<CliResult>((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill("SIGKILL")
      reject(new Error(`sitefx ${args.join(" ")} did not finish in ${options.timeoutMs ?? 60_000} ms\nstdout: ${stdout.slice(-2000)}\nstderr: ${stderr.slice(-2000)}`))
    }, options.timeoutMs ?? 60_000)
    child.on("close", (code, signal) => {
      clearTimeout(timer)
      resolve({ code, signal, stdout, stderr })
    })
  })
  return { child: child as ChildProcess, done, output: () => ({ stdout, stderr }) }
}

/** Runs `sitefx <args>` to the end. */
export const cli = (args: ReadonlyArray<string>, options: CliOptions = {}): Promise<CliResult> => startCli(args, options).done

/** Waits until a condition holds (polling), or fails after the timeout. */
export const waitFor = async (what: string, check: () => boolean, timeoutMs = 30_000): Promise<void> => {
  const until = Date.now() + timeoutMs
  while (!check()) {
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`)
    await new Promise((r) => setTimeout(r, 20))
  }
}

/**
 * Runs `sitefx <args>` on a pseudo-terminal (util-linux `script`), as a person at a terminal runs it:
 * stdin, stdout and stderr are the terminal; `typed` is what the person types. Asynchronous, so a
 * platform in the test's own process keeps answering.
 */
export const onTerminal = (args: ReadonlyArray<string>, typed = "", timeoutMs = 60_000): Promise<CliResult> =>
  new Promise((resolve, reject) => {
    const quote = (s: string) => `'${s.replace(/'/g, "'\\''")}'`
    const command = [process.execPath, MAIN, ...args].map(quote).join(" ")
    const child = spawn("script", ["-qec", command, "/dev/null"], { cwd: ROOT, env: cleanEnv({ COLUMNS: "120" }), stdio: ["pipe", "pipe", "pipe"] })
    let stdout = ""
    let stderr = ""
    child.stdout.setEncoding("utf8").on("data", (d: string) => (stdout += d))
    child.stderr.setEncoding("utf8").on("data", (d: string) => (stderr += d))
    // typed once the command is up and asking
    if (typed !== "") setTimeout(() => child.stdin.write(typed), 2500)
    const timer = setTimeout(() => {
      child.kill("SIGKILL")
      reject(new Error(`on a terminal, sitefx ${args.join(" ")} did not finish\n${stdout}`))
    }, timeoutMs)
    child.on("close", (code, signal) => {
      clearTimeout(timer)
      child.stdin.destroy()
      resolve({ code, signal, stdout, stderr })
    })
  })

/** The data client of the platform under test, as an admin. */
export const withData = <A, E>(use: (data: typeof DataItems) => Effect.Effect<A, E, BulkServices>) =>
  Effect.gen(function*() {
    const platform = yield* LocalPlatform
    const site = Site.apiKey({ apiKey: Redacted.value(platform.apiKey), baseUrl: platform.url })
    return yield* Effect.provide(use(DataItems), Layer.fresh(site))
  })

/** `sitefx <args>` against the platform under test. */
export const run = (args: ReadonlyArray<string>, options: CliOptions = {}) =>
  Effect.gen(function*() {
    const platform = yield* LocalPlatform
    return yield* Effect.promise(() => cli([...args, "--base-url", platform.url], options))
  })
