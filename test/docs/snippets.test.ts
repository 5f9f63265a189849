/**
 * Every TypeScript block of the README and the guides compiles as written, and the runnable ones run
 * against a local platform with the demo data (test/docs/snippets.ts says how a block is marked).
 * `SNIPPETS=docs/guide/data.md npx vitest run test/docs` checks the pages whose path contains the text.
 */
import { assert, describe, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as Redacted from "effect/Redacted"
import { execFile } from "node:child_process"
import { join } from "node:path"
import { pathToFileURL } from "node:url"
import { cleanEnv } from "../cli/support.ts"
import { LocalPlatform } from "../support/platform.ts"
import { nameOf, pages, root, runnable, type Snippet, snippetsOf, typeCheck, writeRunnable } from "./snippets.ts"

const only = process.env.SNIPPETS
const all = pages().filter((page) => only === undefined || page.includes(only)).flatMap((page) => snippetsOf(page))
const checked = all.filter((s) => s.mode._tag !== "unmarked" && s.mode._tag !== "bad")

/** Runs a snippet's module with the project's Node, as `node file.ts` would, and gives its exit and output. */
const run = (file: string, apiKey: string) =>
  Effect.callback<{ readonly code: number | null; readonly output: string }>((resume) => {
    const child = execFile(
      process.execPath,
      ["--conditions=sitefx-source", "--no-warnings", "--import", pathToFileURL(join(root, "test/docs/tsx-hooks.mjs")).href, file],
      { cwd: root, env: cleanEnv({ SITEFX_API_KEY: apiKey }), timeout: 60_000, maxBuffer: 16 * 1024 * 1024 },
      (error, stdout, stderr) => resume(Effect.succeed({ code: error === null ? 0 : typeof error.code === "number" ? error.code : null, output: `${stdout}${stderr}` }))
    )
    return Effect.sync(() => child.kill())
  })

describe("the docs' code blocks", () => {
  it("are found, in the README and in the guides", () => {
    assert.isAbove(all.length, 0)
    if (only === undefined) assert.isAbove(new Set(all.map((s) => s.page)).size, 1, "no guide with a TypeScript block in docs/")
  })

  it("each say whether they run, are only checked (and why), or are a fragment of which context", () => {
    const unmarked = all.filter((s) => s.mode._tag === "unmarked" || s.mode._tag === "bad").map((s) =>
      s.mode._tag === "bad" ? `${nameOf(s)}: "<!-- snippet: ${s.mode.marker} -->" is not run, check: WHY or fragment of NAME [run]` : `${nameOf(s)}: no <!-- snippet: ... --> comment before the block`
    )
    assert.deepStrictEqual(unmarked, [])
  })

  it("run unless they cannot (a React component, a browser page, a server that never stops)", () => {
    const tsxRun = all.filter((s) => s.lang === "tsx" && (s.mode._tag === "run" || (s.mode._tag === "fragment" && s.mode.run)))
    assert.deepStrictEqual(tsxRun.map(nameOf), [], "a tsx block cannot run under Node: mark it check")
  })

  it("compile as written", () => {
    const failures = typeCheck(checked)
    const report = [...failures].map(([name, messages]) => `${name}\n  ${messages.join("\n  ")}`)
    assert.deepStrictEqual(report, [], `${failures.size} of ${checked.length} blocks do not compile:\n${report.join("\n")}`)
  }, 120_000)
})

/** The runnable blocks of each page, in the order of the page. */
const byPage = new Map<string, Array<Snippet>>()
for (const snippet of checked.filter(runnable)) byPage.set(snippet.page, [...(byPage.get(snippet.page) ?? []), snippet])

describe("the docs' runnable blocks", () => {
  it("run in the order of their page, as a reader follows it: the README's typed block after its bulk insert", () => {
    for (const [page, snippets] of byPage) {
      const lines = snippets.map((s) => s.line)
      assert.deepStrictEqual(lines, [...lines].sort((a, b) => a - b), page)
    }
    const readme = byPage.get("README.md")
    if (readme !== undefined) {
      const bulkInsert = readme.findIndex((s) => s.code.includes("DataItems.bulkInsert("))
      const typed = readme.findIndex((s) => s.code.includes(`from "./generated/collections.ts"`))
      assert.isAtLeast(bulkInsert, 0, "the README's bulk insert runs")
      assert.isAbove(typed, bulkInsert, "the README's typed block runs after the bulk insert, over posts without an author")
    }
  })
})

for (const [page, snippets] of byPage) {
  // one after another, in the page's order, against one platform: a block finds what the blocks above it
  // did, and each checks that they ran before it (a shuffled or concurrent run fails rather than mislead)
  const ran: Array<string> = []
  it.layer(LocalPlatform.layer({ seed: "demo" }), { excludeTestServices: true, concurrent: false, timeout: 60_000 })(`${page}, followed in order against the demo platform`, (it) => {
    for (const [n, snippet] of snippets.entries()) {
      it.effect(`${nameOf(snippet)} runs`, () =>
        Effect.gen(function*() {
          assert.deepStrictEqual(ran, snippets.slice(0, n).map(nameOf), `the blocks above ${nameOf(snippet)} on its page ran before it, in order`)
          ran.push(nameOf(snippet))
          const platform = yield* LocalPlatform
          const file = writeRunnable(snippet, platform.url)
          const { code, output } = yield* run(file, Redacted.value(platform.apiKey))
          assert.strictEqual(code, 0, `${nameOf(snippet)} exited ${code}:\n${output}`)
        }), 90_000)
    }
  })
}
