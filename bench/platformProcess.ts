/**
 * The local platform as its own process, for the benchmarks and the soak: `sitefx serve` on a free port
 * with a database in a fresh temporary folder, and what it prints read back (its URL, client id, site id
 * and admin key). Stopped with SIGTERM, its folder removed.
 */
import { type ChildProcess, spawn } from "node:child_process"
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { fileURLToPath } from "node:url"

export interface PlatformProcess {
  readonly url: string
  readonly clientId: string
  readonly siteId: string
  readonly apiKey: string
  readonly child: ChildProcess
  readonly dir: string
}

/** Starts `sitefx serve --port 0 --db <temp>/site.db <serveArgs> --no-log` under Node with `nodeArgs`. */
export const startPlatformProcess = (nodeArgs: ReadonlyArray<string>, serveArgs: ReadonlyArray<string>): Promise<PlatformProcess> =>
  new Promise((resolve, reject) => {
    const dir = mkdtempSync(join(tmpdir(), "sitefx-platform-"))
    const main = fileURLToPath(new URL("../src/cli/main.ts", import.meta.url))
    const child = spawn(process.execPath, [...nodeArgs, main, "serve", "--port", "0", "--db", join(dir, "site.db"), ...serveArgs, "--no-log"], {
      stdio: ["ignore", "pipe", "inherit"]
    })
    let out = ""
    const timer = setTimeout(() => reject(new Error(`the platform did not start:\n${out}`)), 30_000)
    child.on("exit", (code) => reject(new Error(`the platform exited (${code}):\n${out}`)))
    child.stdout!.setEncoding("utf8")
    child.stdout!.on("data", (chunk: string) => {
      out += chunk
      const field = (name: string) => new RegExp(`${name}\\s+(\\S+)`).exec(out)?.[1]
      const url = /listening on (http:\/\/\S+)/.exec(out)?.[1]
      const [clientId, siteId, apiKey] = [field("client id"), field("site id"), field("API key")]
      // the dev endpoints' line comes last of what the platform prints about itself
      if (url !== undefined && clientId !== undefined && siteId !== undefined && apiKey !== undefined && out.includes("dev endpoints")) {
        clearTimeout(timer)
        resolve({ url, clientId, siteId, apiKey, child, dir })
      }
    })
  })

/** Stops the platform (waiting at most 5 s for it to exit) and removes its folder. */
export const stopPlatformProcess = async (platform: PlatformProcess): Promise<void> => {
  const exited = new Promise((resolve) => platform.child.once("exit", resolve))
  platform.child.kill("SIGTERM")
  await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 5000))])
  rmSync(platform.dir, { recursive: true, force: true })
}
