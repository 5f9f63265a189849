/**
 * A shopper's text search as one product query condition. The catalog v1 products query takes
 * `$contains` on `name`, `description` and `sku` (and nothing on brand or options), and has no ranking or
 * word search of its own, so a search is its words, each of which must occur somewhere in one of those
 * fields: `{$and: [{$or: [{name: {$contains: "kids"}}, …]}, {$or: [{name: {$contains: "hoodie"}}, …]}]}`.
 * The platform compares text without case. A word matches inside other words ("tee" finds "Steel").
 */
import { Filter } from "../data/filterBuilder.ts"

/** The fields a product search looks in: those the platform's product query takes `$contains` on. */
export const SEARCH_FIELDS = ["name", "description", "sku"] as const

/** Words a search takes at most (the rest are ignored), so a pasted paragraph stays one modest query. */
export const MAX_SEARCH_WORDS = 8

/** The words of a search: split at white space, lower-cased, each once, at most {@link MAX_SEARCH_WORDS}. */
export const searchWords = (text: string): ReadonlyArray<string> =>
  [...new Set(text.toLowerCase().split(/\s+/).filter((w) => w !== ""))].slice(0, MAX_SEARCH_WORDS)

/**
 * The condition of a text search: every word occurs, in any case, in the product's name, description or
 * SKU. No words (an empty or blank search) is no condition.
 *
 * @example
 * import * as Products from "sitefx/catalog/products"
 * const page = yield* Products.query().where(Products.searchFilter("kids hoodie")).limit(24).find
 */
export const searchFilter = (text: string): Filter =>
  searchWords(text).reduce(
    (all, word) => all.and(SEARCH_FIELDS.slice(1).reduce((any, field) => any.or(Filter.contains(field, word)), Filter.contains(SEARCH_FIELDS[0], word))),
    Filter.empty
  )
