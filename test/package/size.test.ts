/**
 * What sitefx weighs in a browser (bench/size.ts, `npm run size`): every browser entry bundles without
 * a `node:` module or any of the local platform's or the command's code, and stays within its budget.
 * Bundle sizes are deterministic for pinned dependencies, so a budget can be a test. The budgets are
 * today's sizes, a ratchet: they go down as the entries get lighter (the goal is the official client's
 * size for the same job, `npm run size` prints both), never up.
 */
import { assert, describe, it } from "@effect/vitest"
import { weigh } from "../../bench/size.ts"

const BUDGETS_GZIP: Record<string, number> = {
  "sitefx-session": 61_900,
  "sitefx-query": 82_200
}

describe("browser bundles", () => {
  for (const [entry, budget] of Object.entries(BUDGETS_GZIP)) {
    it(`${entry}: no server code, no node: modules, at most ${(budget / 1024).toFixed(1)} KB gzipped`, async () => {
      const weight = await weigh(entry)
      const foreign = weight.inputs.filter((path) => /(^|\/)src\/(server|cli)\//.test(path) || path.startsWith("node:") || path.includes("@effect/platform-node"))
      assert.deepStrictEqual(foreign, [])
      assert.isAtMost(weight.gzip, budget, `${entry} weighs ${weight.gzip} bytes gzipped`)
    }, 60_000)
  }
})
