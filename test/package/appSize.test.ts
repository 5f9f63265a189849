/**
 * What the demo app's first load weighs (bench/appLoad.ts; `npm run bench:app` prints it): the store's
 * first screen is one script within its budget, and carries none of what it does not show: the member
 * area, the data browser, the events panel, the product page, the brand filter's catalog v3 entities, or
 * effect's Schema machinery (its AST, parser and issues), the session's sign-in flows, the data filters' JSON
 * checks, or what the write atoms and the live events' changes keep; and since the first screen is drawn by
 * a bootstrap without Effect (app/src/main.tsx), none of effect at all, nor sitefx's atoms and sessions.
 * The budget is today's size, a ratchet (the goal was 100 KB; React DOM alone is about 62).
 * The app is built for production (as `npm start` and `npm run bench:app` build it) into .tmp/app-size;
 * the browser tests' build runs under the test runner, whose NODE_ENV gives React's development build.
 */
import { assert, describe, it } from "@effect/vitest"
import { execFile } from "node:child_process"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import { promisify } from "node:util"
import { measureAppLoad, sourcesOf } from "../../bench/appLoad.ts"

const root = fileURLToPath(new URL("../..", import.meta.url))
const dist = join(root, ".tmp/app-size")

const buildForProduction = () =>
  promisify(execFile)(process.execPath, [join(root, "node_modules/vite/bin/vite.js"), "build", "app", "--outDir", dist, "--emptyOutDir", "--logLevel", "error"], {
    cwd: root,
    env: { ...process.env, NODE_ENV: "production" },
    timeout: 120_000
  })

/**
 * The first load's JavaScript, gzip -9, in bytes: a ratchet at today's size, lowered as the first screen
 * sheds code. 129.0 KB after the store's split; the header's session (who is signed in, following the
 * other tabs: 1.4 KB) and the binding's optimistic writes (0.7 KB) came after, then the sign-in flows moved
 * to the member area (3.4 KB less) and the
 * binding's write atoms to a module of their own, used by the data browser alone (2.2 KB less: 125.5 KB).
 * Then Filter.fromJson's checks (FilterTree) left the catalog's filter builders (1.2 KB), the events panel
 * stopped using Stream.scan, whose machinery the first load's shared modules carried for it (0.9 KB), the
 * live events' changes and the write atoms' state moved to modules of their own (0.6 KB), the catalog's
 * call paths became one export each (0.4 KB), and the build dropped the modulepreload polyfill (0.2 KB):
 * 122.2 KB. A timeout on every call, transport failures that say how they failed, and retries told on
 * spans added 0.8 KB: 123.0 KB. The issue's aim was 100 KB, of which React DOM is 62; what bounded the rest
 * was effect's runtime and atoms (about 34 KB), which a first grid rendered before they load avoids: the
 * entry became a bootstrap that asks for the first screen with fetch and draws it with plain components,
 * while the full app (effect, the atoms, the session) loads after its first paint and takes over: 76.2 KB.
 * The bootstrap then checked the token answers with the session's own guards instead of its own copy of
 * them (0.4 KB): 76.6 KB. At 78.5 KB, the bootstrap's requests moved to the package's entry
 * (`sitefx/first-screen`), whose `.r` encoding is a module of its own: the first load no longer carries
 * the rest of the wire (query parameters, `$date` values), while it carries the token store's reading of
 * its document, the client's hosts and the query atoms' keys (0.2 KB less): 78.2 KB.
 */
const BUDGET_GZIP = 78_300

/** Sources the first screen must not carry, by the path its source map names. */
const NOT_IN_FIRST_LOAD =
  /app\/src\/(member|data|events)\/|src\/session\/(Session|MemberFlows|OAuthFlows|AuthorizeAgent|Pkce|prewarm|codeGrant)\.ts$|app\/src\/store\/(ProductPage|BrandField)\.tsx$|src\/catalog\/(entities|v3)\/|src\/catalog\/storefront\/(variants|options|stock)\.ts$|effect\/dist\/(SchemaAST|SchemaParser|SchemaIssue)\.js$|src\/data\/(Filter|FilterTree)\.ts$|src\/react\/(changes|sending|writes)\.ts$|node_modules\/effect\/|src\/react\/(?!keys\.ts$)|src\/session\/(SessionTokens|tabs|SiteClient)\.ts$|app\/src\/(full|site|App)\.tsx?$|app\/src\/store\/(Catalog\.tsx|atoms\.ts)$/

describe("the demo app's first load", () => {
  it(`is one script of at most ${(BUDGET_GZIP / 1024).toFixed(1)} KB gzipped, without the sections it does not show`, async () => {
    await buildForProduction()
    const load = measureAppLoad(dist)
    assert.lengthOf(load.files, 1)
    assert.isAtMost(load.jsGzip, BUDGET_GZIP, `the first load weighs ${load.jsGzip} bytes gzipped`)
    const sources = sourcesOf(dist, load.files[0]!)
    assert.isAbove(sources.length, 20)
    assert.deepStrictEqual(sources.filter((s) => NOT_IN_FIRST_LOAD.test(s)), [])
    // and the store's first screen is in it, drawn by the bootstrap
    assert.isTrue(sources.some((s) => s.endsWith("app/src/boot/BootCatalog.tsx")))
    assert.isTrue(sources.some((s) => s.endsWith("app/src/store/GridView.tsx")))
  }, 150_000)
})
