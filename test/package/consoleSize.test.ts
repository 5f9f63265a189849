/**
 * What the platform's console weighs on first load (bench/appLoad.ts measures it as it measures the demo
 * app's): the members panel it opens on, in one script within its budget, without any other panel or
 * what only they use: the request log's live tail, the admin calls, the live events, orders and
 * abandoned carts, the dev endpoints' wire Schemas or effect's Schema machinery (its AST, parser and issues;
 * the atoms' registry keeps Schema.js for one predicate), and effect/http.
 * The console is built for production (as `npm start` and `npm run build` build it) into .tmp/console-size;
 * the browser tests' build runs under the test runner, whose NODE_ENV gives React's development build.
 */
import { assert, describe, it } from "@effect/vitest"
import { execFile } from "node:child_process"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import { promisify } from "node:util"
import { measureAppLoad, sourcesOf } from "../../bench/appLoad.ts"

const root = fileURLToPath(new URL("../..", import.meta.url))
const dist = join(root, ".tmp/console-size")

const buildForProduction = () =>
  promisify(execFile)(
    process.execPath,
    [join(root, "node_modules/vite/bin/vite.js"), "build", "console", "--outDir", dist, "--emptyOutDir", "--sourcemap", "--logLevel", "error"],
    { cwd: root, env: { ...process.env, NODE_ENV: "production" }, timeout: 120_000 }
  )

/**
 * The first load's JavaScript, gzip -9, in bytes: a ratchet at today's size, lowered as the first panel
 * sheds code. It was 133 525 with every panel but events, orders and carts in it, and sitefx/dev's
 * answers decoded with the wire Schemas. Then sitefx/dev checked its answers with guards, every panel
 * but members loaded when opened, and effect's modules were tree-shaken as the demo app's are: 111 731.
 * The issue's aim was 100 KB (102 400 bytes). What bounds it, as shares of the gzip by the source map:
 * React and React DOM, 65 400 (React DOM alone 61 100); effect, 32 500: its runtime and the atoms (fibers,
 * Layer, Context, Duration, Equal and Hash, and the atoms' registry, which carries Stream, Channel, Queue
 * and PubSub for atoms that read streams), 29 900 of it in a build of the members panel alone, the rest
 * what the lazy panels use of the same modules (a module is in one chunk, and these are in the first);
 * 1 700 of the bundler's glue for the lazy panels' imports; sitefx's wire to the platform (PlatformHttp:
 * retries, timeouts, typed errors, the `$date` codec; the guards), 8 400; the frame and the members panel,
 * 3 700. React and effect alone are 97 900: below the aim only a first panel drawn before effect loads
 * would go, as the demo app's bootstrap does. Then 112 221 (2026-11-29): sitefx/react's server render that
 * runs nothing and its hydration view (the Next.js integration), and a token store's own renewal, +490.
 * Then 112 296: the request log panel creates the index an advice suggests (sitefx/data/indexes, in lazy
 * files of their own), +73 of the bundler's list of the files the panel needs; waiting for the index to be
 * active would have brought effect's schedules into the first load (+1 700), so the panel does not wait.
 */
const BUDGET_GZIP = 112_300

/** Sources the first load must not carry, by the path its source map names. */
const NOT_IN_FIRST_LOAD =
  /console\/src\/(outbox|requests|events|orders|carts|settings|platform|snapshots)\/|console\/src\/admin\.ts$|effect\/dist\/(SchemaAST|SchemaParser|SchemaIssue|SchemaTransformation)\.js$|effect\/dist\/http\/|src\/dev\/(wire\/|guards\/(platform|webhooks)\.ts$|(Requests|Webhooks|Faults|Snapshots|Outbox|Settings|Clock|Platform|Profile)\.ts$)|src\/(ecom|events|catalog)\/|src\/data\/Indexes\.ts$|src\/session\/wire\//

describe("the console's first load", () => {
  it(`is one script of at most ${(BUDGET_GZIP / 1024).toFixed(1)} KB gzipped, with the members panel and no other`, async () => {
    await buildForProduction()
    const load = measureAppLoad(dist)
    assert.lengthOf(load.files, 1)
    assert.isAtMost(load.jsGzip, BUDGET_GZIP, `the first load weighs ${load.jsGzip} bytes gzipped`)
    const sources = sourcesOf(dist, load.files[0]!)
    assert.isAbove(sources.length, 20)
    assert.deepStrictEqual(sources.filter((s) => NOT_IN_FIRST_LOAD.test(s)), [])
    // the panel the console opens on is in it, read through sitefx/dev's guards
    assert.isTrue(sources.some((s) => s.endsWith("console/src/members/MembersPanel.tsx")))
    assert.isTrue(sources.some((s) => s.endsWith("src/dev/guards/members.ts")))
    // and every other panel is a script of its own, loaded when opened
    assert.isAtLeast(load.allFiles, 9)
  }, 150_000)
})
