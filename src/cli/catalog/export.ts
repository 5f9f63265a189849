/**
 * `sitefx catalog export`: every product (or a collection's) as JSONL, one {@link ProductLine} a line,
 * read page by page with its variants and written as each page arrives, so memory holds one page
 * however large the store.
 */
import * as Effect from "effect/Effect"
import * as Stream from "effect/Stream"
import { MAX_PRODUCT_PAGE } from "../../catalog/protocol.ts"
import * as Products from "../../catalog/Products.ts"
import { type OutputMode, printResult, withProgress } from "../output.ts"
import { openOutput } from "../files.ts"
import { toLine } from "./line.ts"
import { collectionIdBySlug, collectionIndex } from "./store.ts"

export interface ExportOptions {
  readonly out: string | undefined
  readonly collection: string | undefined
  readonly mode: OutputMode
}

export interface ExportResult {
  readonly exported: number
  readonly out: string | null
  readonly collection: string | null
}

export const exportProducts = (options: ExportOptions) =>
  Effect.gen(function*() {
    const collectionId = options.collection === undefined ? undefined : yield* collectionIdBySlug(options.collection)
    const { slugById } = yield* collectionIndex
    const all = Products.query({ includeVariants: true, includeHiddenProducts: true }).limit(MAX_PRODUCT_PAGE)
    const query = collectionId === undefined ? all : all.hasSome("collectionIds", [collectionId])

    const exported = yield* Effect.scoped(Effect.gen(function*() {
      const output = yield* openOutput(options.out)
      const count = yield* withProgress(options.mode, "export", "products", undefined, (progress) => {
        let done = 0
        return query.pages.pipe(
          Stream.runForEach((page) => {
            progress.setTotal(page.totalCount)
            done += page.items.length
            const text = page.items.map((product) => `${JSON.stringify(toLine(product, slugById))}\n`).join("")
            return Effect.map(output.write(text), () => progress.update(done))
          }),
          Effect.map(() => done)
        )
      })
      yield* output.finish
      return count
    }))

    const result: ExportResult = { exported, out: options.out ?? null, collection: options.collection ?? null }
    const what = `exported ${exported} product${exported === 1 ? "" : "s"}${options.collection === undefined ? "" : ` of collection "${options.collection}"`}`
    if (options.out !== undefined) return yield* printResult(options.mode, result, `${what} to ${options.out}`)
    // standard output carries the products: the result goes to stderr
    yield* Effect.sync(() => {
      if (options.mode === "json") process.stderr.write(`${JSON.stringify(result)}\n`)
      else if (options.mode !== "quiet") process.stderr.write(`${what}\n`)
    })
  })
