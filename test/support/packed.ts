/**
 * The package as `npm pack` makes it, once per test run: the test files that install it (the consumer's
 * projects, the Next.js example) share one tarball, and only one of them packs (packing builds dist/, and
 * two builds at once would write over each other). The first caller takes a lock folder named after the
 * run's temporary folder and packs; the others wait for its tarball.
 */
import { execFile } from "node:child_process"
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { basename, join } from "node:path"
import { setTimeout as sleep } from "node:timers/promises"
import { promisify } from "node:util"

const run = promisify(execFile)
const repo = join(import.meta.dirname, "..", "..")
const npm = process.platform === "win32" ? "npm.cmd" : "npm"
const WAIT_MILLIS = 10 * 60_000

/** The packed tarball's path (packed by the first caller of this run). */
export const packedTarball = async (): Promise<string> => {
  const packs = join(repo, ".tmp", "packs")
  mkdirSync(packs, { recursive: true })
  const run_ = basename(tmpdir())
  const dir = join(packs, run_)
  const done = join(dir, "tarball")
  let mine = false
  try {
    mkdirSync(dir)
    mine = true
  } catch {
    // another test file of this run packs
  }
  if (mine) {
    // the folders of earlier runs go
    for (const other of readdirSync(packs)) if (other !== run_) rmSync(join(packs, other), { recursive: true, force: true })
    try {
      const { stdout } = await run(npm, ["pack", "--pack-destination", dir, "--silent"], { cwd: repo, maxBuffer: 16 * 1024 * 1024 })
      const tarball = join(dir, stdout.trim().split("\n").pop()!)
      writeFileSync(done, tarball)
      return tarball
    } catch (e) {
      writeFileSync(join(dir, "failed"), String(e))
      throw e
    }
  }
  const deadline = Date.now() + WAIT_MILLIS
  while (Date.now() < deadline) {
    if (existsSync(done)) return readFileSync(done, "utf8")
    if (existsSync(join(dir, "failed"))) throw new Error(`packing failed in another test file: ${readFileSync(join(dir, "failed"), "utf8")}`)
    await sleep(500)
  }
  throw new Error("the package was not packed within 10 minutes")
}
