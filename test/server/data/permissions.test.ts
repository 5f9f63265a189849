import { assert, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as Redacted from "effect/Redacted"
import { PermissionPaths } from "../../../src/data/protocol.ts"
import { LocalPlatform } from "../../../src/server/index.ts"
import { apiKey, call, login } from "../support.ts"
import { codeOf, count, data, freshCollection, ids, memberToken, ok, OPEN, query, visitorToken } from "./support.ts"

const AUTHOR = { read: "SITE_MEMBER_AUTHOR", insert: "SITE_MEMBER_AUTHOR", update: "SITE_MEMBER_AUTHOR", remove: "SITE_MEMBER_AUTHOR" }

/** `GET /wix-data/v1/permissions/current` for a collection, as `auth` (the API key unless told; nobody with `""`). */
const mine = (collection: string, auth?: string) =>
  Effect.gen(function*() {
    const authorization = auth ?? (yield* apiKey)
    return yield* call("GET", `${PermissionPaths.mine}?dataCollectionId=${encodeURIComponent(collection)}`, authorization === "" ? {} : { auth: authorization })
  })

const allowed = (answer: { readonly status: number; readonly body: any }) => {
  assert.strictEqual(answer.status, 200)
  return [answer.body.itemRead, answer.body.itemInsert, answer.body.itemUpdate, answer.body.itemRemove]
}

const refused = (answer: { readonly status: number; readonly body: any }) => {
  assert.strictEqual(answer.status, 403)
  assert.strictEqual(codeOf(answer as never), "WDE0027")
}

it.layer(LocalPlatform.layer({}), { excludeTestServices: true })("data permissions", (it) => {
  it.effect("read ANYONE / write ADMIN (the seeded Posts): anyone reads, only an API key writes; refusals change nothing", () =>
    Effect.gen(function*() {
      const guest = yield* visitorToken
      const member = yield* memberToken
      assert.deepStrictEqual(ids(yield* query("Posts", { sort: [{ fieldName: "likes" }] }, {}, guest)), ["filters", "welcome", "cursors"])
      assert.strictEqual((yield* query("Posts", {}, {}, "")).dataItems.length, 3)
      const before = yield* count("Posts")
      refused(yield* data("POST", "/items", { dataCollectionId: "Posts", dataItem: { data: { title: "x" } } }, guest))
      refused(yield* data("POST", "/items", { dataCollectionId: "Posts", dataItem: { data: { title: "x" } } }, member.token))
      refused(yield* data("POST", "/items/update", { dataCollectionId: "Posts", dataItem: { id: "welcome", data: { title: "hacked" } } }, member.token))
      refused(yield* data("POST", "/items/remove", { dataCollectionId: "Posts", dataItemId: "welcome" }, guest))
      refused(yield* data("POST", "/items/truncate", { dataCollectionId: "Posts" }, guest))
      refused(yield* data("POST", "/bulk/items/insert", { dataCollectionId: "Posts", dataItems: [{ data: {} }] }, member.token))
      refused(yield* data("POST", "/bulk/items/async-remove-by-filter", { dataCollectionId: "Posts", filter: {} }, member.token))
      assert.strictEqual(yield* count("Posts"), before)
      assert.strictEqual((yield* ok("GET", "/items/welcome?dataCollectionId=Posts&dataItemId=welcome")).dataItem.data.title, "Welcome to sitefx")
      const badToken = yield* data("POST", "/items/query", { dataCollectionId: "Posts" }, "not-a-token")
      assert.strictEqual(badToken.status, 401)
    }))

  it.effect("SITE_MEMBER: members and API keys, not visitors nor anonymous callers", () =>
    Effect.gen(function*() {
      const c = yield* freshCollection({ permissions: { read: "SITE_MEMBER", insert: "SITE_MEMBER", update: "SITE_MEMBER", remove: "SITE_MEMBER" } })
      const guest = yield* visitorToken
      const member = yield* memberToken
      refused(yield* data("POST", "/items/query", { dataCollectionId: c }, guest))
      refused(yield* data("POST", "/items/count", { dataCollectionId: c }, ""))
      refused(yield* data("POST", "/items", { dataCollectionId: c, dataItem: { data: {} } }, guest))
      const inserted = yield* ok("POST", "/items", { dataCollectionId: c, dataItem: { data: { v: 1 } } }, member.token)
      assert.strictEqual(inserted.dataItem.data._owner, member.id)
      assert.strictEqual((yield* query(c, {}, {}, member.token)).dataItems.length, 1)
      // a member of SITE_MEMBER may change anyone's items
      const other = yield* memberToken
      yield* ok("POST", "/items/update", { dataCollectionId: c, dataItem: { id: inserted.dataItem.id, data: { v: 2 } } }, other.token)
      const updated = yield* ok("GET", `/items/${inserted.dataItem.id}?dataCollectionId=${c}&dataItemId=${inserted.dataItem.id}`)
      assert.strictEqual(updated.dataItem.data._owner, member.id)
    }))

  it.effect("ADMIN and CMS_EDITOR/PRIVILEGED roles: only the API key", () =>
    Effect.gen(function*() {
      const c = yield* freshCollection({ permissions: { read: "ADMIN", insert: "PRIVILEGED", update: "CMS_EDITOR", remove: "ADMIN" } })
      const member = yield* memberToken
      refused(yield* data("POST", "/items/query", { dataCollectionId: c }, member.token))
      refused(yield* data("POST", "/items", { dataCollectionId: c, dataItem: { data: {} } }, member.token))
      yield* ok("POST", "/items", { dataCollectionId: c, dataItem: { id: "k", data: {} } })
      assert.strictEqual(yield* count(c), 1)
    }))

  it.effect("ANYONE writes record the visitor as owner", () =>
    Effect.gen(function*() {
      const c = yield* freshCollection({ permissions: OPEN })
      const guest = yield* visitorToken
      const inserted = yield* ok("POST", "/items", { dataCollectionId: c, dataItem: { data: { _owner: "someone-else" } } }, guest)
      const me = yield* ok("GET", "/_sitefx/whoami", undefined, guest)
      assert.strictEqual(inserted.dataItem.data._owner, me.id)
    }))

  it.effect("SITE_MEMBER_AUTHOR: members see and change only their own items; API keys see all; refusals change nothing", () =>
    Effect.gen(function*() {
      const c = yield* freshCollection({ permissions: AUTHOR })
      const alice = yield* memberToken
      const bob = yield* memberToken
      const guest = yield* visitorToken
      yield* ok("POST", "/bulk/items/insert", { dataCollectionId: c, dataItems: [{ id: "a1", data: { n: 1 } }, { id: "a2", data: { n: 2 } }] }, alice.token)
      yield* ok("POST", "/items", { dataCollectionId: c, dataItem: { id: "b1", data: { n: 3 } } }, bob.token)
      yield* ok("POST", "/items", { dataCollectionId: c, dataItem: { id: "k1", data: { n: 4, _owner: bob.id } } })
      refused(yield* data("POST", "/items/query", { dataCollectionId: c }, guest))
      assert.deepStrictEqual(ids(yield* query(c, {}, {}, alice.token)), ["a1", "a2"])
      assert.deepStrictEqual(ids(yield* query(c, {}, {}, bob.token)), ["b1", "k1"])
      assert.deepStrictEqual(ids(yield* query(c, {})), ["a1", "a2", "b1", "k1"])
      assert.strictEqual(yield* count(c, undefined, bob.token), 2)
      const distinct = yield* ok("POST", "/items/query-distinct-values", { dataCollectionId: c, fieldName: "n" }, alice.token)
      assert.deepStrictEqual(distinct.distinctValues, [1, 2])
      const summed = yield* ok("POST", "/items/aggregate", { dataCollectionId: c, aggregation: { operations: [{ resultFieldName: "s", sum: { itemFieldName: "n" } }] } }, bob.token)
      assert.deepStrictEqual(summed.results, [{ _id: null, s: 7 }])
      refused(yield* data("GET", `/items/a1?dataCollectionId=${c}&dataItemId=a1`, undefined, bob.token))
      refused(yield* data("POST", "/items/update", { dataCollectionId: c, dataItem: { id: "a1", data: { n: 100 } } }, bob.token))
      refused(yield* data("POST", "/items/save", { dataCollectionId: c, dataItem: { id: "a1", data: { n: 100 } } }, bob.token))
      refused(yield* data("POST", "/items/remove", { dataCollectionId: c, dataItemId: "a1" }, bob.token))
      refused(yield* data("POST", "/items/patch", { dataCollectionId: c, patch: { dataItemId: "a1", fieldModifications: [{ fieldPath: "n", action: "REMOVE_FIELD" }] } }, bob.token))
      const bulk = yield* ok("POST", "/bulk/items/remove", { dataCollectionId: c, dataItemIds: ["a1", "b1"] }, bob.token)
      assert.deepStrictEqual(bulk.results.map((r: any) => [r.itemMetadata.success, r.itemMetadata.error?.code]), [[false, "WDE0027"], [true, undefined]])
      assert.deepStrictEqual(ids(yield* query(c, {})), ["a1", "a2", "k1"])
      assert.strictEqual((yield* query(c, { filter: { _id: "a1" } })).dataItems[0].data.n, 1)
      yield* ok("POST", "/items/truncate", { dataCollectionId: c }, alice.token)
      assert.deepStrictEqual(ids(yield* query(c, {})), ["k1"])
      const job = yield* ok("POST", "/bulk/items/async-patch-by-filter", { dataCollectionId: c, filter: {}, fieldModifications: [{ fieldPath: "seen", action: "SET_FIELD", setFieldOptions: { value: 1 } }] }, alice.token)
      let status = yield* ok("GET", `/async-jobs/${job.jobId}/status`)
      for (let i = 0; i < 100 && status.status !== "SUCCEEDED"; i++) {
        yield* Effect.sleep("10 millis")
        status = yield* ok("GET", `/async-jobs/${job.jobId}/status`)
      }
      // the job only ever saw Alice's items, and none are left
      assert.deepStrictEqual(status, { status: "SUCCEEDED", successCount: 0 })
      assert.strictEqual(yield* count(c, { seen: 1 }), 0)
    }))

  it.effect("the seeded Notes belong to the demo member", () =>
    Effect.gen(function*() {
      const platform = yield* LocalPlatform
      const demo = platform.demoMember!
      const tokens = yield* login(demo.email, Redacted.value(demo.password))
      assert.deepStrictEqual(ids(yield* query("Notes", {}, {}, tokens.access_token)), ["demo-note"])
      const stranger = yield* memberToken
      assert.deepStrictEqual(ids(yield* query("Notes", {}, {}, stranger.token)), [])
    }))

  it.effect("GET /wix-data/v1/permissions/current answers what the caller may do with a collection's items, by the rules the calls follow", () =>
    Effect.gen(function*() {
      const guest = yield* visitorToken
      const member = yield* memberToken
      // read ANYONE, write ADMIN
      assert.deepStrictEqual(allowed(yield* mine("Posts", guest)), [true, false, false, false])
      assert.deepStrictEqual(allowed(yield* mine("Posts", "")), [true, false, false, false])
      assert.deepStrictEqual(allowed(yield* mine("Posts", member.token)), [true, false, false, false])
      assert.deepStrictEqual(allowed(yield* mine("Posts")), [true, true, true, true])
      // an author's role: a member may, on the items it writes; a visitor may not
      const c = yield* freshCollection({ permissions: AUTHOR })
      assert.deepStrictEqual(allowed(yield* mine(c, member.token)), [true, true, true, true])
      assert.deepStrictEqual(allowed(yield* mine(c, guest)), [false, false, false, false])
      const mixed = yield* freshCollection({ permissions: { read: "ANYONE", insert: "SITE_MEMBER", update: "CMS_EDITOR", remove: "ADMIN" } })
      assert.deepStrictEqual(allowed(yield* mine(mixed, member.token)), [true, true, false, false])
      assert.deepStrictEqual(allowed(yield* mine(mixed, guest)), [true, false, false, false])
      // what it answers is what the calls do
      refused(yield* data("POST", "/items", { dataCollectionId: mixed, dataItem: { data: {} } }, guest))
      yield* ok("POST", "/items", { dataCollectionId: mixed, dataItem: { id: "m", data: {} } }, member.token)
      refused(yield* data("POST", "/items/remove", { dataCollectionId: mixed, dataItemId: "m" }, member.token))

      const missing = yield* mine("NoSuchCollection", guest)
      assert.strictEqual(missing.status, 404)
      assert.strictEqual(codeOf(missing as never), "WDE0025")
      const unnamed = yield* call("GET", PermissionPaths.mine, { auth: guest })
      assert.strictEqual(unnamed.status, 400)
      assert.strictEqual((yield* mine("Posts", "not-a-token")).status, 401)
    }))
})
