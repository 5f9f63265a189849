/**
 * Bad input changes nothing: a battery of refused data requests (malformed bodies, unknown
 * collections, refused permissions, existing and missing ids, bad filters, patches and pipelines, too
 * many items, oversized bodies, failing hooks) leaves every data table exactly as it was, read through
 * a second connection to the database file.
 */
import { assert, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Redacted from "effect/Redacted"
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { LocalPlatform } from "../../../src/server/index.ts"
import { call, dev, snapshotTables } from "../support.ts"
import { memberToken, visitorToken } from "./support.ts"

const snapshot = (file: string) => snapshotTables(file, "data_")

it.live("refused data requests leave every data table as it was", () => {
  const dir = mkdtempSync(join(tmpdir(), "sitefx-data-"))
  const file = join(dir, "platform.db")
  return Effect.scoped(Effect.gen(function*() {
    const context = yield* Layer.build(LocalPlatform.layer({ db: file, dataMaxPayloadBytes: 32 * 1024 }))
    yield* Effect.provideContext(
      Effect.gen(function*() {
        const platform = yield* LocalPlatform
        const key = Redacted.value(platform.apiKey)
        const guest = yield* visitorToken
        const member = yield* memberToken
        yield* dev("POST", "/data/hooks", { dataCollectionId: "Authors", hook: "beforeUpdate", error: { name: "Error", message: "frozen" } })
        const before = snapshot(file)
        assert.isAbove((before["data_items"] as Array<unknown>).length, 0)
        const V2 = "/wix-data/v2"
        const refused: ReadonlyArray<readonly [string, string, unknown, string | undefined, number]> = [
          ["POST", `${V2}/items`, "{not json", key, 400],
          ["POST", `${V2}/items`, { dataItem: { data: {} } }, key, 400],
          ["POST", `${V2}/items`, { dataCollectionId: "Nope", dataItem: { data: {} } }, key, 404],
          ["POST", `${V2}/items`, { dataCollectionId: "Posts", dataItem: { data: { title: "x" } } }, guest, 403],
          ["POST", `${V2}/items`, { dataCollectionId: "Posts", dataItem: { id: "welcome", data: {} } }, key, 409],
          ["POST", `${V2}/items`, { dataCollectionId: "Posts", dataItem: { data: { big: "x".repeat(40 * 1024) } } }, key, 413],
          ["POST", `${V2}/items/update`, { dataCollectionId: "Posts", dataItem: { id: "ghost", data: {} } }, key, 404],
          ["POST", `${V2}/items/update`, { dataCollectionId: "Authors", dataItem: { id: "ada", data: { name: "x" } } }, key, 400],
          ["POST", `${V2}/items/save`, { dataCollectionId: "Notes", dataItem: { id: "demo-note", data: { title: "mine now" } } }, member.token, 403],
          ["POST", `${V2}/items/patch`, { dataCollectionId: "Posts", patch: { dataItemId: "welcome", fieldModifications: [{ fieldPath: "likes", action: "SET_FIELD", setFieldOptions: { value: 1 } }, { fieldPath: "title", action: "INCREMENT_FIELD", incrementFieldOptions: { value: 1 } }] } }, key, 400],
          ["POST", `${V2}/items/remove`, { dataCollectionId: "Posts", dataItemId: "ghost" }, key, 404],
          ["POST", `${V2}/items/remove`, { dataCollectionId: "Notes", dataItemId: "demo-note" }, member.token, 403],
          ["POST", `${V2}/items/truncate`, { dataCollectionId: "Posts" }, member.token, 403],
          ["POST", `${V2}/bulk/items/insert`, { dataCollectionId: "Posts", dataItems: Array.from({ length: 1001 }, () => ({ data: {} })) }, key, 400],
          ["POST", `${V2}/bulk/items/remove`, { dataCollectionId: "Posts", dataItemIds: ["welcome"] }, guest, 403],
          ["POST", `${V2}/bulk/items/async-remove-by-filter`, { dataCollectionId: "Posts", filter: { title: { $regex: "." } } }, key, 400],
          ["POST", `${V2}/bulk/items/async-patch-by-filter`, { dataCollectionId: "Posts", filter: {}, fieldModifications: [] }, member.token, 403],
          ["POST", `${V2}/bulk/items/insert-references`, { dataCollectionId: "Posts", dataItemReferences: [{ referringItemFieldName: "author", referringItemId: "welcome", referencedItemId: "grace" }] }, guest, 403],
          ["POST", `${V2}/items/replace-references`, { dataCollectionId: "Posts", referringItemFieldName: "author", referringItemId: "welcome", newReferencedItemIds: [] }, key, 400],
          ["POST", `${V2}/items/aggregate-pipeline`, { dataCollectionId: "Posts", pipeline: { stages: [{ group: {}, limit: 1 }] } }, key, 400],
          ["POST", `${V2}/collections`, { collection: { id: "Posts" } }, key, 409],
          ["POST", `${V2}/collections`, { collection: { id: "New" } }, member.token, 403],
          ["PUT", `${V2}/collections`, { collection: { id: "Posts", revision: "99" } }, key, 409],
          ["DELETE", `${V2}/collections/Posts`, undefined, guest, 403],
          ["POST", `${V2}/collections/delete-field`, { dataCollectionId: "Posts", fieldKey: "_id" }, key, 400],
          ["POST", `${V2}/indexes`, { dataCollectionId: "Posts", index: { name: "x", fields: [] } }, key, 400]
        ]
        for (const [method, path, body, auth, status] of refused) {
          const answer = yield* call(method, path, { ...(body === undefined ? {} : { body }), ...(auth === undefined ? {} : { auth }) })
          assert.strictEqual(answer.status, status, `${method} ${path} ${answer.text}`)
        }
        assert.deepStrictEqual(snapshot(file), before)
      }),
      context
    )
  })).pipe(Effect.ensuring(Effect.sync(() => rmSync(dir, { recursive: true, force: true }))))
})
