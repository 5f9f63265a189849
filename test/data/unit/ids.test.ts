/** Generated item ids: version 7 UUIDs, unique, increasing in the order they were made. */
import { assert, describe, it } from "@effect/vitest"
import { newItemId } from "../../../src/data/ids.ts"

describe("newItemId", () => {
  it("is a version 7 UUID with the RFC variant, carrying the current time", () => {
    const before = Date.now()
    const id = newItemId()
    assert.match(id, /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/)
    const millis = parseInt(id.slice(0, 8) + id.slice(9, 13), 16)
    assert.isAtLeast(millis, before)
    assert.isAtMost(millis, Date.now() + 1)
  })

  it("ids made one after another are unique and sort in that order, even many within one millisecond", () => {
    const ids = Array.from({ length: 20_000 }, () => newItemId())
    assert.strictEqual(new Set(ids).size, ids.length)
    for (let i = 1; i < ids.length; i++) assert.isTrue(ids[i - 1]! < ids[i]!, `${ids[i - 1]} < ${ids[i]}`)
  })
})
