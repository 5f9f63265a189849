/**
 * Vitest global setup: the run gets a temporary folder of its own, and fails if a test leaves one of its
 * own temporary files or folders behind.
 *
 * Before any test file runs, TMPDIR names a fresh folder `sitefx-test-…` in the system's temporary folder:
 * `os.tmpdir()` then answers it in every test process and in every process those start (the CLI, the
 * platform, Chromium), and nothing another process on the machine makes (another run of these tests
 * included) lands in it. At the end, an entry there whose name starts with `sitefx` was made by this run
 * and not removed: the run fails, naming each. Tests name their temporary folders `sitefx-<what>-` (as
 * `tempDir` in ./platform.ts does) so that this can tell theirs apart. The folder is then removed with
 * whatever else the tools left in it (a browser's profile, Node's compile cache).
 */
import { mkdtempSync, readdirSync, realpathSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { setTimeout as sleep } from "node:timers/promises"

/** How the temporary files and folders the project makes are named. */
export const PREFIX = "sitefx"

let runDir: string | undefined
let previous: string | undefined

export function setup(): void {
  previous = process.env["TMPDIR"]
  runDir = mkdtempSync(join(realpathSync(tmpdir()), `${PREFIX}-test-`))
  process.env["TMPDIR"] = runDir
}

export async function teardown(): Promise<void> {
  if (runDir === undefined) return
  const dir = runDir
  runDir = undefined
  if (previous === undefined) delete process.env["TMPDIR"]
  else process.env["TMPDIR"] = previous
  const ours = () => readdirSync(dir).filter((name) => name.startsWith(PREFIX)).sort()
  // a process a test stopped at its end (a platform, a CLI) may still be removing its own folder
  let left = ours()
  for (let i = 0; i < 20 && left.length > 0; i++) {
    await sleep(100)
    left = ours()
  }
  rmSync(dir, { recursive: true, force: true })
  if (left.length > 0) {
    throw new Error(
      `the tests left ${left.length} temporary ${left.length === 1 ? "entry" : "entries"} behind (removed now with ${dir}): ` +
        `${left.join(", ")}. A test that makes a temporary file or folder removes it when it ends.`
    )
  }
}
