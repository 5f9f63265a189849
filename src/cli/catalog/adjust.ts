/**
 * `sitefx catalog adjust`: raises or lowers one property (price, cost or weight) of many products by
 * a percentage or an amount, through the platform's bulk adjust: at most 100 products and one property
 * per call. The products are selected first (all, a collection, a product-query filter) and adjusted
 * after, so an adjustment never moves a product within the query it is being selected by (a filter
 * on the price would otherwise skip some and adjust others twice).
 */
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import * as Result from "effect/Result"
import * as Stream from "effect/Stream"
import { MAX_PRODUCT_PAGE } from "../../catalog/protocol.ts"
import * as Products from "../../catalog/Products.ts"
import { Filter } from "../../data/Filter.ts"
import { failed, type OutputMode, printResult, usage, withProgress } from "../output.ts"
import { chunks, collectionIdBySlug, itemReason } from "./store.ts"

export type Property = "price" | "cost" | "weight"

/** Bulk calls in flight at once. */
const CONCURRENT_CALLS = 4

/**
 * An adjustment as written on the command line: `+10%`, `-5%` (a percentage, -100 to 1000) or
 * `+2.5`, `-1` (an amount); without a sign it raises.
 */
export const parseAdjustment = (text: string, roundToInt: boolean): Result.Result<Products.Adjustment, string> => {
  const m = /^([+-]?)(\d+(?:\.\d*)?|\.\d+)(%?)$/.exec(text.trim())
  if (m === null) return Result.fail(`"${text}" is not an adjustment; write +10% or -5% (a percentage), +2.5 or -1 (an amount)`)
  const value = (m[1] === "-" ? -1 : 1) * Number(m[2])
  if (m[3] === "%") {
    if (value < -100 || value > 1000) return Result.fail(`"${text}": a percentage is from -100% to +1000%`)
    return Result.succeed({ percentage: { rate: value, ...(roundToInt ? { roundToInt: true } : {}) } })
  }
  if (roundToInt) return Result.fail(`--round rounds a percentage's results; "${text}" is an amount`)
  return Result.succeed({ amount: value })
}

/** `+10%`, `-2.5`: an adjustment as a person writes it. */
export const describeAdjustment = (a: Products.Adjustment): string =>
  "amount" in a ? `${a.amount >= 0 ? "+" : ""}${a.amount}` : `${a.percentage.rate >= 0 ? "+" : ""}${a.percentage.rate}%${a.percentage.roundToInt === true ? " (whole units)" : ""}`

const propertyAdjust = (property: Property, adjustment: Products.Adjustment): Products.PropertyAdjust =>
  property === "price" ? { price: adjustment } : property === "cost" ? { cost: adjustment } : { weight: adjustment }

export interface AdjustFlags {
  readonly price: Option.Option<string>
  readonly cost: Option.Option<string>
  readonly weight: Option.Option<string>
  readonly round: boolean
  readonly collection: Option.Option<string>
  readonly filter: Option.Option<string>
}

export interface AdjustPlan {
  readonly property: Property
  readonly adjustment: Products.Adjustment
  readonly collection: string | undefined
  readonly filter: Filter | undefined
}

/** The one adjustment and the selection the flags ask for; a usage error for anything else. */
export const planOf = (flags: AdjustFlags): Effect.Effect<AdjustPlan, ReturnType<typeof usage>> =>
  Effect.gen(function*() {
    const given = (["price", "cost", "weight"] as const).flatMap((p) => (Option.isSome(flags[p]) ? [[p, flags[p].value] as const] : []))
    if (given.length !== 1) {
      const got = given.length === 0 ? "none was given" : `got ${given.map(([p]) => `--${p}`).join(" and ")}`
      return yield* usage(`give exactly one adjustment, --price, --cost or --weight (the platform adjusts one property per call); ${got}`)
    }
    const [property, text] = given[0]!
    const adjustment = parseAdjustment(text, flags.round)
    if (Result.isFailure(adjustment)) return yield* usage(`--${property}: ${adjustment.failure}`)
    let filter: Filter | undefined
    if (Option.isSome(flags.filter)) {
      let json: unknown
      try {
        json = JSON.parse(flags.filter.value)
      } catch (e) {
        return yield* usage(`--filter is not JSON (${(e as Error).message}); e.g. --filter '{"priceData.price": {"$lt": 20}}'`)
      }
      if (typeof json !== "object" || json === null || Array.isArray(json)) return yield* usage("--filter is a JSON object: a product-query filter")
      filter = Filter.fromJson(json)
      if (filter.error !== undefined) return yield* usage(`--filter: ${filter.error.message}`)
    }
    return { property, adjustment: adjustment.success, collection: Option.getOrUndefined(flags.collection), filter }
  })

export interface AdjustResult {
  readonly property: Property
  readonly adjustment: Products.Adjustment
  readonly dryRun: boolean
  readonly selected: number
  readonly adjusted: number
  readonly failed: ReadonlyArray<{ readonly id: string; readonly reason: string }>
}

export const adjustProducts = (plan: AdjustPlan, options: { readonly dryRun: boolean; readonly mode: OutputMode }) =>
  Effect.gen(function*() {
    let query = Products.query({ includeHiddenProducts: true }).limit(MAX_PRODUCT_PAGE)
    if (plan.collection !== undefined) query = query.hasSome("collectionIds", [yield* collectionIdBySlug(plan.collection)])
    if (plan.filter !== undefined) query = query.where(plan.filter)
    const ids = yield* withProgress(options.mode, "select", "products", undefined, (progress) =>
      query.pages.pipe(
        Stream.runFold(() => [] as Array<string>, (list, page) => {
          progress.setTotal(page.totalCount)
          for (const p of page.items) if (p.id != null) list.push(p.id)
          progress.update(list.length)
          return list
        })
      ))

    const adjust = propertyAdjust(plan.property, plan.adjustment)
    const what = `${plan.property} ${describeAdjustment(plan.adjustment)}`
    let adjusted = 0
    const failures: Array<{ id: string; reason: string }> = []
    if (!options.dryRun && ids.length > 0) {
      yield* withProgress(options.mode, "adjust", "products", ids.length, (progress) =>
        Effect.forEach(chunks(ids, Products.MAX_BULK_PRODUCTS), (part) =>
          Products.bulkAdjust(part, adjust).pipe(
            Effect.map((answer) => {
              const results = answer.results ?? []
              for (const [i, r] of results.entries()) {
                const id = r.itemMetadata?.id ?? part[r.itemMetadata?.originalIndex ?? i] ?? "?"
                if (r.itemMetadata?.success === true) adjusted++
                else {
                  const e = r.itemMetadata?.error
                  failures.push({ id, reason: [e?.code, e?.description].filter((x) => x != null && x !== "").join(": ") || "not adjusted" })
                }
              }
              // an answer without item results counts by its totals
              if (results.length === 0) adjusted += answer.bulkActionMetadata?.totalSuccesses ?? 0
            }),
            // the call as a whole refused: each of its products failed for that reason
            Effect.catch((error) => Effect.map(itemReason(error), (reason) => void failures.push(...part.map((id) => ({ id, reason }))))),
            Effect.map(() => progress.update(adjusted + failures.length))
          ), { concurrency: CONCURRENT_CALLS, discard: true }))
    }

    const result: AdjustResult = { property: plan.property, adjustment: plan.adjustment, dryRun: options.dryRun, selected: ids.length, adjusted, failed: failures }
    const scope = plan.collection === undefined ? "" : ` in collection "${plan.collection}"`
    const text = ids.length === 0
      ? `no products${scope} match; nothing adjusted`
      : options.dryRun
      ? `would adjust ${what} on ${ids.length} product${ids.length === 1 ? "" : "s"}${scope}`
      : [
        `adjusted ${what} on ${adjusted} of ${ids.length} product${ids.length === 1 ? "" : "s"}${scope}`,
        ...failures.map((f) => `  ${f.id}: ${f.reason}`)
      ].join("\n")
    yield* printResult(options.mode, result, text)
    if (failures.length > 0) return yield* failed(`${failures.length} of ${ids.length} products were not adjusted`)
  })
