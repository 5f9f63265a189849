/** Generated item ids: version 7 UUIDs, unique, increasing in the order they were made. */
import { assert, describe, it } from "@effect/vitest"
import { bulkItemId, isBulkKey, MAX_BULK_POSITION, newBulkKey, newItemId } from "../../../src/data/ids.ts"

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

describe("bulkItemId", () => {
  const V7 = /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/
  const positions = [0, 1, 15, 16, 255, 4095, 4096, 65_535, 65_536, 1_000_000, 2 ** 32, MAX_BULK_POSITION - 1, MAX_BULK_POSITION]
  /** The position written into an id: its nine counter digits around the variant. */
  const positionOf = (id: string) => parseInt(id.slice(15, 18) + id.slice(20, 23) + id.slice(24, 27), 16)

  it("is a version 7 UUID with the key's time, variant and last nine digits, and the position between", () => {
    const key = newBulkKey()
    assert.isTrue(isBulkKey(key))
    for (const position of positions) {
      const id = bulkItemId(key, position)
      assert.match(id, V7)
      assert.strictEqual(id.slice(0, 15), key.slice(0, 15))
      assert.strictEqual(id[19], key[19])
      assert.strictEqual(id.slice(27), key.slice(27))
      assert.strictEqual(positionOf(id), position)
    }
  })

  it("the same key and position give the same id; the ids of one key sort by position; another key gives other ids", () => {
    const key = newBulkKey()
    const again = key.slice(0) // an equal string, as read back from a checkpoint
    const ids = positions.map((p) => bulkItemId(key, p))
    assert.deepStrictEqual(positions.map((p) => bulkItemId(again, p)), ids)
    for (let i = 1; i < ids.length; i++) assert.isTrue(ids[i - 1]! < ids[i]!, `${ids[i - 1]} < ${ids[i]}`)
    const run = Array.from({ length: 5000 }, (_, i) => bulkItemId(key, i))
    assert.strictEqual(new Set(run).size, 5000)
    const other = newBulkKey()
    const otherRun = new Set(Array.from({ length: 5000 }, (_, i) => bulkItemId(other, i)))
    assert.isFalse(run.some((id) => otherRun.has(id)))
  })

  it("keys are version 7 UUIDs in lower-case hex; anything else is not a key", () => {
    for (const bad of ["", "nope", 42, undefined, newBulkKey().toUpperCase(), crypto.randomUUID(), newBulkKey() + "0"]) {
      assert.isFalse(isBulkKey(bad), String(bad))
    }
  })
})
