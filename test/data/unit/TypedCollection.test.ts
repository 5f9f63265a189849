/**
 * A typed insert on its own, against a client that answers what the test says: the item without an
 * `_id` leaves with the id sitefx makes (in the item and as its id), and an answer that lacks what every
 * stored item has (the dates StoredItem holds present) fails typed instead of passing as stored.
 */
import { assert, describe, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import { checkBody, PlatformClient } from "../../../src/http/PlatformClient.ts"
import type { PlatformRequest } from "../../../src/http/PlatformRequest.ts"
import type { DataError } from "../../../src/data/DataError.ts"
import * as DataItems from "../../../src/data/DataItems.ts"
import { Authors } from "../../types/generated/collections.ts"

/** A client that records each request and answers it with the item it sent, its data changed by `stored`. */
const echoing = (stored: (data: Record<string, unknown>) => Record<string, unknown>) => {
  const sent: Array<PlatformRequest> = []
  const answer = (req: PlatformRequest) => {
    sent.push(req)
    const item = (req.payload as { readonly dataItem: { readonly id?: string; readonly data: Record<string, unknown> } }).dataItem
    return { body: { dataItem: { id: item.id, data: stored(item.data) } }, headers: {}, requestId: undefined }
  }
  const layer = Layer.succeed(PlatformClient, PlatformClient.of({
    request: (req) => Effect.sync(() => answer(req)),
    json: (req, guard) => Effect.flatMap(Effect.sync(() => answer(req)), (res) => checkBody(req, res, guard))
  }))
  return { layer, sent }
}

const authors = DataItems.collection("Authors", Authors)

describe("a typed insert without an _id", () => {
  it.effect("sends the item with an id sitefx made, and answers the stored item", () => {
    const client = echoing((data) => ({ ...data, _createdDate: new Date(0), _updatedDate: new Date(0) }))
    return Effect.gen(function*() {
      const ada = yield* authors.insert({ name: "Ada" })
      const payload = client.sent[0]!.payload as { readonly dataItem: { readonly id: string; readonly data: Record<string, unknown> } }
      assert.match(payload.dataItem.id, /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/)
      assert.deepStrictEqual(payload.dataItem.data, { name: "Ada", _id: payload.dataItem.id })
      assert.deepStrictEqual(ada, { _id: payload.dataItem.id, name: "Ada", _createdDate: new Date(0), _updatedDate: new Date(0) })
    }).pipe(Effect.provide(client.layer))
  })

  it.effect("fails with ITEM_DECODE_ERROR when the answer lacks the dates every stored item has", () => {
    const client = echoing((data) => ({ ...data, _updatedDate: new Date(0) }))
    return Effect.gen(function*() {
      const error = (yield* Effect.flip(authors.insert({ name: "Ada" }))) as DataError
      assert.strictEqual(error.code, "ITEM_DECODE_ERROR")
      assert.include(error.message, "lacks _createdDate")
      assert.notInclude(error.message, "_updatedDate")
    }).pipe(Effect.provide(client.layer))
  })
})
