/**
 * `npm run size`: what sitefx weighs in a browser, beside the platform's official client doing the same
 * job. Each entry in bench/size/ is bundled as a browser app would be (esbuild: bundle, minify, browser,
 * ESM) and gzipped at level 9. The budgets are checked by test/package/size.test.ts.
 */
import * as esbuild from "esbuild"
import { gzipSync } from "node:zlib"

export interface Weight {
  readonly entry: string
  readonly bytes: number
  readonly gzip: number
  /** Every module with code in the bundle, by path (modules tree-shaken to nothing are left out). */
  readonly inputs: ReadonlyArray<string>
}

const root = new URL("..", import.meta.url).pathname

/** Bundles one entry of bench/size/ (`sitefx-query`, ...) as a browser app would. */
export const weigh = async (entry: string): Promise<Weight> => {
  const result = await esbuild.build({
    entryPoints: [`${root}bench/size/${entry}.ts`],
    bundle: true,
    minify: true,
    platform: "browser",
    format: "esm",
    // sitefx's own sources, as the package's dist/ holds them compiled
    conditions: ["sitefx-source"],
    metafile: true,
    write: false,
    logLevel: "silent"
  })
  const code = result.outputFiles[0]!.contents
  const output = Object.values(result.metafile.outputs)[0]!
  const inputs = Object.entries(output.inputs).filter(([, input]) => input.bytesInOutput > 0).map(([path]) => path)
  return { entry, bytes: code.byteLength, gzip: gzipSync(code, { level: 9 }).byteLength, inputs }
}

export const ENTRIES = [
  { job: "visitor session", sitefx: "sitefx-session", official: "official-session" },
  { job: "visitor session + one data query", sitefx: "sitefx-query", official: "official-query" },
  { job: "README's first example (Site.layer)", sitefx: "sitefx-readme", official: "official-query" },
  { job: "+ one product query", sitefx: "sitefx-products", official: "official-products" }
] as const

const kb = (n: number) => `${(n / 1024).toFixed(1)} KB`

if (import.meta.main) {
  console.log("job                                   sitefx (gzip)   official (gzip)   ratio")
  for (const e of ENTRIES) {
    const [s, o] = await Promise.all([weigh(e.sitefx), weigh(e.official)])
    console.log(`${e.job.padEnd(38)}${kb(s.gzip).padStart(13)}${kb(o.gzip).padStart(18)}${(s.gzip / o.gzip).toFixed(2).padStart(8)}x`)
  }
}
