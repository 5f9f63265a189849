/**
 * The public API is what its reports in api/ say: `npm run api -- --check` compares every entry point's
 * exported declarations with its report, so a change of the public surface fails here until its reports
 * are updated (`npm run api`) and show in review; and every public export carries a doc comment.
 */
import { assert, describe, it } from "@effect/vitest"
import { execFile } from "node:child_process"
import { fileURLToPath } from "node:url"
import { promisify } from "node:util"

const root = fileURLToPath(new URL("../..", import.meta.url))

describe("the public API", () => {
  it("matches its reports in api/, every export documented", async () => {
    const result = await promisify(execFile)(process.execPath, ["scripts/api-report.mjs", "--check"], { cwd: root, timeout: 120_000 }).then(
      (r) => ({ code: 0, stderr: r.stderr }),
      (e: { code?: number; stderr?: string }) => ({ code: e.code ?? 1, stderr: e.stderr ?? String(e) })
    )
    assert.strictEqual(result.code, 0, result.stderr)
  }, 120_000)
})
