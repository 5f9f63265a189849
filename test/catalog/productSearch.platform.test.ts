/**
 * Product text search against the local platform's demo store: `searchFilter` finds the products whose
 * name, description or SKU contains every word, in any case, as the same search done by hand over every
 * product finds them; one query, its words under one `$and`.
 */
import { assert, describe, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as Stream from "effect/Stream"
import * as Products from "../../src/catalog/Products.ts"
import { LocalPlatform, withSite } from "../support/platform.ts"

const byHand = (products: ReadonlyArray<Products.Product>, text: string) =>
  products
    .filter((p) => Products.searchWords(text).every((w) => [p.name, p.description, p.sku].some((f) => (f ?? "").toLowerCase().includes(w))))
    .map((p) => p.id)
    .sort()

const search = (text: string) =>
  withSite(Products.query().where(Products.searchFilter(text)).stream.pipe(Stream.runCollect, Effect.map((ps) => ps.map((p) => p.id!).sort())))

describe("product text search on the demo store", () => {
  it("a search is one $and of per-word $or conditions over name, description and SKU", () => {
    assert.deepStrictEqual(Products.searchWords("  Kids\tHOODIE kids "), ["kids", "hoodie"])
    assert.deepStrictEqual(Products.query().where(Products.searchFilter("Kids hoodie")).filter, {
      $and: ["kids", "hoodie"].map((w) => ({ $or: [{ name: { $contains: w } }, { description: { $contains: w } }, { sku: { $contains: w } }] }))
    })
    assert.deepStrictEqual(Products.query().where(Products.searchFilter(" ")).filter, {})
  })

  it.layer(LocalPlatform.layer({ seed: "demo" }))((it) => {
    it.effect("finds words anywhere in the name, description or SKU, in any case, each word narrowing", () =>
      Effect.gen(function*() {
        const all = [...yield* withSite(Products.query().stream.pipe(Stream.runCollect))]
        const names = new Map(all.map((p) => [p.id!, p.name!]))

        const hoodie = yield* search("hoodie")
        assert.deepStrictEqual(hoodie, byHand(all, "hoodie"))
        assert.include(hoodie.map((id) => names.get(id)), "Kids Hoodie")
        assert.deepStrictEqual(yield* search("HoOdIe"), hoodie)

        const kidsHoodie = yield* search("kids hoodie")
        assert.deepStrictEqual(kidsHoodie, byHand(all, "kids hoodie"))
        assert.include(kidsHoodie.map((id) => names.get(id)), "Kids Hoodie")
        assert.isBelow(kidsHoodie.length, hoodie.length)
        for (const id of kidsHoodie) assert.include(hoodie, id)

        // a word that only a description holds
        const described = all.find((p) => (p.description ?? "").match(/[a-z]{5,}/i) !== null && p.description !== "")!
        const word = (described.description ?? "").match(/[a-z]{5,}/gi)!.find((w) => !all.some((p) => (p.name ?? "").toLowerCase().includes(w.toLowerCase())))
        assert.isDefined(word, "a description word that no name holds")
        const byDescription = yield* search(word!)
        assert.include(byDescription, described.id)
        assert.deepStrictEqual(byDescription, byHand(all, word!))

        // a SKU, or part of one
        const withSku = all.find((p) => (p.sku ?? "").length >= 4)
        if (withSku !== undefined) assert.include(yield* search(withSku.sku!.slice(1).toLowerCase()), withSku.id)

        assert.deepStrictEqual(yield* search("hoodie zzzqqq"), [])
      }))
  })
})
