/**
 * `sitefx serve` told a port it cannot listen on: a usage error (what is wrong, then where the help is)
 * and exit 2, as every other bad flag, never the server's stack trace.
 */
import { describe, expect, it } from "vitest"
import { cli } from "./support.ts"

describe("sitefx serve --port", () => {
  it("a port out of range, negative, or not a whole number is a usage error with exit 2", async () => {
    const cases = [
      ["--port", "99999"],
      ["--port=65536"],
      ["--port", "-1"],
      ["--port=-1"],
      ["--port", "abc"],
      ["--port", "80.5"]
    ]
    const results = await Promise.all(cases.map((flags) => cli(["serve", ...flags, "--db", ":memory:", "--seed", "none"], { timeoutMs: 60_000 })))
    results.forEach((result, i) => {
      const given = cases[i]!.length === 1 ? cases[i]![0]!.split("=")[1]! : cases[i]![1]!
      expect(result.code, cases[i]!.join(" ")).toBe(2)
      expect(result.stdout).toBe("")
      const said = result.stderr.split("\n")
      expect(said[0]).toMatch(new RegExp(`^sitefx: Invalid value for flag --port: "${given.replace(".", "\\.")}"\\. Expected`))
      expect(said.slice(1)).toEqual(["Run `sitefx serve --help` for its arguments and flags.", ""])
    })
    expect(results[0]!.stderr.split("\n")[0]).toBe('sitefx: Invalid value for flag --port: "99999". Expected: a port number from 0 to 65535 (0 picks a free one)')
  })
})
