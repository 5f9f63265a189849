/** axe-core, injected into a page, audits it as it is now: the accessibility tests of every screen use it. */
import { assert } from "@effect/vitest"
import { readFileSync } from "node:fs"
import { createRequire } from "node:module"
import type { Page } from "playwright-core"

const axePath = createRequire(import.meta.url).resolve("axe-core/axe.min.js")

export interface Violation {
  readonly id: string
  readonly impact: string | null
  readonly help: string
  readonly nodes: ReadonlyArray<{ readonly target: ReadonlyArray<unknown>; readonly failureSummary?: string }>
}

/** axe-core's violations on the page as it is now, and how many of its rules applied to the page. */
export const audit = async (page: Page): Promise<{ readonly violations: ReadonlyArray<Violation>; readonly applied: number }> => {
  if (!await page.evaluate(() => "axe" in window)) await page.addScriptTag({ path: axePath })
  return page.evaluate(async () => {
    type Results = { violations: Array<Violation>; passes: Array<unknown>; incomplete: Array<unknown> }
    const axe = (window as unknown as { axe: { run: (context: Document, options: object) => Promise<Results> } }).axe
    const result = await axe.run(document, { resultTypes: ["violations"] })
    const violations = result.violations.map((v) => ({
      id: v.id,
      impact: v.impact,
      help: v.help,
      nodes: v.nodes.map((n) => ({ target: n.target, ...(n.failureSummary === undefined ? {} : { failureSummary: n.failureSummary }) }))
    }))
    return { violations, applied: result.violations.length + result.passes.length + result.incomplete.length }
  })
}

export const describeViolation = (screen: string, v: Violation): string =>
  `${screen}: [${v.impact}] ${v.id} (${v.help}) at ${v.nodes.map((n) => JSON.stringify(n.target)).join(", ")}`

let axeSource: string | undefined

/**
 * axe-core finds no serious or critical violation on a page of the console as it is now (and read it:
 * rules applied). The console's CSP runs its own scripts only, so axe-core goes in through the browser's
 * devtools protocol, not a script tag.
 */
export const expectAccessible = async (page: Page, screen: string): Promise<void> => {
  if (!await page.evaluate(() => "axe" in window)) await page.evaluate(axeSource ??= readFileSync(axePath, "utf8"))
  const { violations, applied } = await audit(page)
  assert.isAbove(applied, 15, `axe-core applied only ${applied} rules to ${screen}`)
  assert.deepStrictEqual(violations.filter((v) => v.impact === "serious" || v.impact === "critical").map((v) => describeViolation(screen, v)), [])
}
