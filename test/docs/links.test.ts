/**
 * The Markdown files a reader opens in the repository or on npm (the README, the CHANGELOG, SECURITY and
 * the guides as files) link only to files that exist and to headings that exist. The built docs site
 * has its own check (`npm run docs`, scripts/linkcheck.mjs); this one covers the files as GitHub shows them.
 */
import { assert, describe, it } from "@effect/vitest"
import { existsSync, readFileSync, statSync } from "node:fs"
import { dirname, join, relative } from "node:path"
import { pages, root } from "./snippets.ts"

/** A heading's anchor as GitHub and VitePress make it: lower case, punctuation dropped, spaces as hyphens. */
export const slug = (heading: string) =>
  heading.trim().toLowerCase().replace(/`/g, "").replace(/[^\p{L}\p{N}\s_-]/gu, "").replace(/\s/g, "-")

/**
 * The anchors of a file's headings. A heading with an apostrophe is left out: GitHub drops the apostrophe
 * from its anchor and VitePress turns it into a hyphen, so a link to it works in one of the two only.
 */
const anchorsOf = (file: string): Set<string> => {
  const text = readFileSync(file, "utf8").replace(/^(```|~~~)[\s\S]*?^\1/gm, "")
  return new Set([...text.matchAll(/^#{1,6}\s+(.+)$/gm)].filter((m) => !/['’]/.test(m[1]!)).map((m) => slug(m[1]!.replace(/\{#[^}]*\}$/, ""))))
}

const linksOf = (file: string) => {
  const text = readFileSync(join(root, file), "utf8").replace(/^(```|~~~)[\s\S]*?^\1/gm, "")
  return [...text.matchAll(/\]\(([^)\s]+)\)/g)].map((m) => m[1]!)
}

const files = [...pages(), "CHANGELOG.md", "SECURITY.md"]

describe("the repository's Markdown", () => {
  for (const file of files) {
    it(`${file} links to files and headings that exist`, () => {
      const broken: Array<string> = []
      for (const link of linksOf(file)) {
        if (/^[a-z][a-z0-9+.-]*:/i.test(link) || link.startsWith("/")) continue // other sites; the docs site's own paths
        const [path = "", anchor] = link.split("#", 2)
        const target = path === "" ? join(root, file) : join(dirname(join(root, file)), decodeURIComponent(path))
        if (!existsSync(target)) {
          broken.push(`${link} (no ${relative(root, target)})`)
          continue
        }
        if (anchor !== undefined && statSync(target).isFile() && target.endsWith(".md") && !anchorsOf(target).has(anchor)) {
          broken.push(`${link} (no heading #${anchor} in ${relative(root, target)})`)
        }
      }
      assert.deepStrictEqual(broken, [])
    })
  }

  it("the README says how to install sitefx, what to run first, and where everything else is", () => {
    const readme = readFileSync(join(root, "README.md"), "utf8")
    assert.include(readme, "npm install sitefx effect")
    assert.match(readme, /^npm start\b/m)
    assert.match(readme, /^npm test\b/m)
    for (const guide of ["getting-started", "sessions", "data", "store", "events", "react", "errors", "cli", "local-platform", "real-site", "migrating", "performance"]) {
      assert.include(readme, `(docs/guide/${guide}.md)`, `the README does not link the ${guide} guide`)
    }
  })
})
