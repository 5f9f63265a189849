/**
 * The exact requests of the hostile-input review, each answered as it must be: a 4xx in the platform's
 * shape, nothing stored, nothing changed for anyone else. (Dev endpoints and foreign origins, malformed
 * path escapes: devAccess.test.ts; the login throttle: loginThrottle.test.ts.)
 */
import { assert, describe, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import { base64url } from "../../../src/http/codec.ts"
import { LocalPlatform } from "../../../src/server/index.ts"
import { apiKey, login, registerMember, uniqueEmail, visitor } from "../support.ts"

interface Sent {
  readonly status: number
  readonly headers: Headers
  readonly body: any
}

/** One request with a body sent as given (text or raw bytes). */
const send = (method: string, path: string, body?: string | Uint8Array, auth?: string) =>
  Effect.gen(function*() {
    const platform = yield* LocalPlatform
    return yield* Effect.promise(async (): Promise<Sent> => {
      const res = await fetch(`${platform.url}${path}`, {
        method,
        headers: { "content-type": "application/json", ...(auth === undefined ? {} : { authorization: auth }) },
        ...(body === undefined ? {} : { body: body as BodyInit })
      })
      const text = await res.text()
      return { status: res.status, headers: res.headers, body: text === "" ? undefined : JSON.parse(text) }
    })
  })

const post = (path: string, body: unknown, auth?: string) => send("POST", path, typeof body === "string" ? body : JSON.stringify(body), auth)
const admin = <A, E, R>(f: (key: string) => Effect.Effect<A, E, R>) => Effect.flatMap(apiKey, f)
const V2 = "/wix-data/v2"

const violation = (answer: Sent) => answer.body?.details?.validationError?.fieldViolations?.[0]
const codeOf = (answer: Sent) => answer.body?.details?.applicationError?.code

/** `depth` nested objects around `inner`, as JSON text (built as text: some are deeper than JSON.stringify goes). */
const deepText = (depth: number, inner = "1") => "{\"a\":".repeat(depth) + inner + "}".repeat(depth)
const deepValue = (depth: number): unknown => JSON.parse(deepText(depth))

const BAD_UTF8 = (json: string, marker = "@@") => {
  const at = json.indexOf(marker)
  return Buffer.concat([Buffer.from(json.slice(0, at)), Buffer.from([0xff, 0xfe]), Buffer.from(json.slice(at + marker.length))])
}

it.layer(LocalPlatform.layer({}), { excludeTestServices: true })("the hostile-input findings", (it) => {
  it.effect("1. flattened GET parameters cannot reach a prototype, nor what other clients see", () =>
    admin((key) =>
      Effect.gen(function*() {
        const polluting = yield* send("GET", `${V2}/items/query?__proto__.dataCollectionId=Authors&dataCollectionId=Posts`)
        assert.strictEqual(polluting.status, 400)
        assert.strictEqual(violation(polluting).field, "__proto__.dataCollectionId")
        for (const name of ["constructor.prototype.dataCollectionId", "prototype.x", "query.__proto__.x"]) {
          assert.strictEqual((yield* send("GET", `${V2}/items/query?${name}=Authors&dataCollectionId=Posts`)).status, 400, name)
        }
        const headers = yield* send("GET", `${V2}/items/query?__proto__.headers.x-any=value`)
        assert.strictEqual(headers.status, 400)
        // another client, afterwards: its query still needs a collection, its errors carry no planted header
        const other = yield* post(`${V2}/items/query`, {}, key)
        assert.strictEqual(other.status, 400)
        assert.strictEqual(violation(other).field, "dataCollectionId")
        assert.isNull((yield* send("GET", "/no/such/route")).headers.get("x-any"))
        assert.isUndefined(({} as Record<string, unknown>)["dataCollectionId"])
        assert.isUndefined(({} as Record<string, unknown>)["headers"])
      })
    ))

  it.effect("2. an item nested too deep is refused, so no collection can be poisoned", () =>
    admin((key) =>
      Effect.gen(function*() {
        const id = `Open_${process.pid}`
        const anyone = { read: "ANYONE", insert: "ANYONE", update: "ANYONE", remove: "ANYONE" }
        assert.strictEqual((yield* post(`${V2}/collections`, { collection: { id, permissions: anyone } }, key)).status, 200)
        const guest = (yield* visitor).access_token
        const tooDeep = yield* post(`${V2}/items`, `{"dataCollectionId":"${id}","dataItem":{"id":"deep","data":{"x":${deepText(150)}}}}`, guest)
        assert.strictEqual(tooDeep.status, 400)
        assert.deepInclude(violation(tooDeep), { violatedRule: "MAX_DEPTH", data: { maxDepth: 100 } })
        // the deepest item allowed: 100 levels with the item itself
        assert.strictEqual((yield* post(`${V2}/items`, { dataCollectionId: id, dataItem: { id: "ok", data: { x: deepValue(99) } } }, guest)).status, 200)
        // a patch cannot make it deeper, and leaves it as it was
        const patched = yield* post(`${V2}/items/patch`, {
          dataCollectionId: id,
          patch: { dataItemId: "ok", fieldModifications: [{ fieldPath: "y.z", action: "SET_FIELD", setFieldOptions: { value: deepValue(99) } }] }
        }, guest)
        assert.strictEqual(patched.status, 400)
        assert.notProperty((yield* send("GET", `${V2}/items/ok?dataCollectionId=${id}`, undefined, guest)).body.dataItem.data, "y")
        // in a bulk insert the deep item gets its own error and the others are written
        const bulk = yield* post(`${V2}/bulk/items/insert`, { dataCollectionId: id, dataItems: [{ id: "b1", data: { x: deepValue(120) } }, { id: "b2", data: { n: 1 } }] }, guest)
        assert.strictEqual(bulk.status, 200)
        assert.deepStrictEqual(bulk.body.results.map((r: any) => r.itemMetadata.success), [false, true])
        assert.strictEqual(bulk.body.results[0].itemMetadata.error.code, "VALIDATION_ERROR")
        // every kind of read works on the collection, for a visitor and for the admin
        for (const auth of [guest, key]) {
          const reads = [
            yield* post(`${V2}/items/query`, { dataCollectionId: id, query: { filter: { "x.a.a": { $exists: true } }, sort: [{ fieldName: "x" }], fields: ["x"] } }, auth),
            yield* post(`${V2}/items/count`, { dataCollectionId: id, filter: { n: { $gt: 0 } } }, auth),
            yield* post(`${V2}/items/query-distinct-values`, { dataCollectionId: id, fieldName: "x", filter: { n: { $exists: false } } }, auth)
          ]
          assert.deepStrictEqual(reads.map((r) => r.status), [200, 200, 200])
        }
      })
    ))

  describe("3. what a client can send never reaches the 500 guard", () => {
    it.effect("JSON nested 10 000 deep in item data, patch values, filters and pipeline expressions", () =>
      admin((key) =>
        Effect.gen(function*() {
          const deep = deepText(10_000)
          const bodies: ReadonlyArray<readonly [string, string]> = [
            [`${V2}/items`, `{"dataCollectionId":"Posts","dataItem":{"data":${deep}}}`],
            [`${V2}/items/patch`, `{"dataCollectionId":"Posts","patch":{"dataItemId":"welcome","fieldModifications":[{"fieldPath":"a","action":"SET_FIELD","setFieldOptions":{"value":${deep}}}]}}`],
            [`${V2}/items/query`, `{"dataCollectionId":"Posts","query":{"filter":${deep}}}`],
            [`${V2}/items/count`, `{"dataCollectionId":"Posts","filter":{"$not":${"[".repeat(5000)}${"]".repeat(5000)}}}`],
            [`${V2}/items/aggregate-pipeline`, `{"dataCollectionId":"Posts","pipeline":{"stages":[{"projection":{"fields":[{"reshape":{"resultFieldName":"x","expression":${"{\"abs\":{\"expression\":".repeat(5000)}{"numeric":1}${"}}".repeat(5000)}}}]}}]}}`]
          ]
          for (const [path, body] of bodies) {
            const answer = yield* post(path, body, key)
            assert.strictEqual(answer.status, 400, path)
            assert.deepInclude(violation(answer), { violatedRule: "MAX_DEPTH", data: { maxDepth: 256 } }, path)
          }
          // a bulk write reads its items one by one: the deep one is refused on its own, by the item bound
          const bulk = yield* post(`${V2}/bulk/items/insert`, `{"dataCollectionId":"Posts","dataItems":[{"data":${deep}},{"data":{"title":"kept"}}]}`, key)
          assert.strictEqual(bulk.status, 200)
          assert.deepStrictEqual(bulk.body.results.map((r: any) => r.itemMetadata.success), [false, true])
          assert.strictEqual(bulk.body.results[0].itemMetadata.error.data.fieldViolations[0].violatedRule, "MAX_DEPTH")
        })
      ))

    it.effect("filters SQLite could not compile: long $or chains run, bigger ones and deep $not are refused by their bound", () =>
      admin((key) =>
        Effect.gen(function*() {
          const or = (n: number) => ({ $or: Array.from({ length: n }, (_, i) => ({ likes: i })) })
          for (const n of [994, 1000]) {
            const answer = yield* post(`${V2}/items/query`, { dataCollectionId: "Posts", query: { filter: or(n) } }, key)
            assert.strictEqual(answer.status, 200, `$or of ${n}`)
          }
          const tooBig = yield* post(`${V2}/items/query`, { dataCollectionId: "Posts", query: { filter: or(1001) } }, key)
          assert.strictEqual(tooBig.status, 400)
          assert.deepInclude(violation(tooBig), { violatedRule: "MAX_SIZE", data: { maxConditions: 1000 } })
          let not: unknown = { likes: 1 }
          for (let i = 0; i < 1200; i++) not = { $not: not }
          const deepNot = yield* post(`${V2}/items/count`, `{"dataCollectionId":"Posts","filter":${JSON.stringify(not)}}`, key)
          assert.strictEqual(deepNot.status, 400)
          let shallowerNot: unknown = { likes: 1 }
          for (let i = 0; i < 60; i++) shallowerNot = { $not: shallowerNot }
          const filterDepth = yield* post(`${V2}/items/count`, { dataCollectionId: "Posts", filter: shallowerNot }, key)
          assert.deepInclude(violation(filterDepth), { violatedRule: "MAX_DEPTH", data: { maxDepth: 50 } })
        })
      ))

    it.effect("skips and offsets beyond what SQLite holds, on every call that takes one", () =>
      admin((key) =>
        Effect.gen(function*() {
          for (const skip of [1e20, 2 ** 63]) {
            const paging = { limit: 10, offset: skip }
            const calls: ReadonlyArray<readonly [string, unknown]> = [
              [`${V2}/items/query`, { dataCollectionId: "Posts", query: { paging } }],
              [`${V2}/items/query-distinct-values`, { dataCollectionId: "Posts", fieldName: "title", paging }],
              [`${V2}/items/aggregate`, { dataCollectionId: "Posts", aggregation: { groupingFields: ["title"], operations: [] }, paging }],
              [`${V2}/items/aggregate-pipeline`, { dataCollectionId: "Posts", pipeline: { stages: [{ skip }], paging: { limit: 10 } } }],
              [`${V2}/items/aggregate-pipeline`, { dataCollectionId: "Posts", pipeline: { stages: [{ limit: skip }] } }],
              [`${V2}/items/search`, { dataCollectionId: "Posts", search: { paging, search: { expression: "hello" } } }],
              [`${V2}/items/query-referenced`, { dataCollectionId: "Posts", referringItemFieldName: "author", referringItemIds: ["welcome"], paging }]
            ]
            for (const [path, body] of calls) {
              const answer = yield* post(path, body, key)
              assert.strictEqual(answer.status, 400, `${path} ${skip}`)
              assert.strictEqual(codeOf(answer), "WDE0036", path)
            }
          }
        })
      ))
  })

  it.effect("4. every route reads at most its body limit: 20 MB to the OAuth, identity and redirect-session routes is a 413", () =>
    Effect.gen(function*() {
      const platform = yield* LocalPlatform
      const guest = (yield* visitor).access_token
      const pad = "x".repeat(20 * 1024 * 1024)
      const calls: ReadonlyArray<readonly [string, unknown, string | undefined]> = [
        ["/oauth2/token", { grantType: "anonymous", clientId: platform.clientId, pad }, undefined],
        ["/_api/iam/authentication/v2/register", { loginId: { email: uniqueEmail() }, password: "secret-pass", pad }, guest],
        ["/_api/iam/authentication/v2/login", { loginId: { email: "demo@sitefx.dev" }, password: pad }, guest],
        ["/_api/redirects-api/v1/redirect-session", { login: {}, pad }, guest]
      ]
      for (const [path, body, auth] of calls) {
        const answer = yield* post(path, body, auth)
        assert.strictEqual(answer.status, 413, path)
        assert.strictEqual(codeOf(answer), "PAYLOAD_TOO_LARGE", path)
      }
    }))

  it.effect("5. strings that are not UTF-8 are refused, not stored as U+FFFD", () =>
    admin((key) =>
      Effect.gen(function*() {
        const guest = (yield* visitor).access_token
        const member = yield* registerMember()
        const memberToken = (yield* login(member.email, member.password)).access_token
        const email = uniqueEmail()
        const calls: ReadonlyArray<readonly [string, string, string]> = [
          [`${V2}/items`, `{"dataCollectionId":"Posts","dataItem":{"id":"utf","data":{"title":"a@@"}}}`, key],
          [`${V2}/bulk/items/insert`, `{"dataCollectionId":"Posts","dataItems":[{"id":"utf-bulk","data":{"title":"a@@"}}]}`, key],
          [`${V2}/bulk/items/insert-references`, `{"dataCollectionId":"Posts","dataItemReferences":[{"referringItemFieldName":"author","referringItemId":"welcome","referencedItemId":"a@@"}]}`, key],
          ["/_api/iam/authentication/v2/register", `{"loginId":{"email":"${email}"},"password":"secret-pass","profile":{"nickname":"a@@"}}`, guest],
          ["/_api/iam/authentication/v2/sign-on", `{"loginId":{"email":"${email}"},"profile":{"nickname":"a@@"}}`, key],
          ["/_api/iam/authentication/v2/change-password", `{"newPassword":"secret-@@"}`, memberToken]
        ]
        for (const [path, text, auth] of calls) {
          const answer = yield* send("POST", path, BAD_UTF8(text), auth)
          assert.strictEqual(answer.status, 400, path)
          assert.deepInclude(violation(answer), { violatedRule: "FORMAT" }, path)
        }
        assert.strictEqual((yield* send("GET", `${V2}/items/utf?dataCollectionId=Posts`, undefined, key)).status, 404)
        assert.strictEqual((yield* send("GET", `${V2}/items/utf-bulk?dataCollectionId=Posts`, undefined, key)).status, 404)
        const never = yield* post("/_api/iam/authentication/v2/login", { loginId: { email }, password: "secret-pass" }, guest)
        assert.strictEqual(never.status, 404, "the member was never registered")
        const unchanged = yield* post("/_api/iam/authentication/v2/login", { loginId: { email: member.email }, password: member.password }, guest)
        assert.strictEqual(unchanged.body.state, "SUCCESS", "the password did not change")
      })
    ))

  it.effect("6. an async job refuses at once the filters the query route refuses", () =>
    admin((key) =>
      Effect.gen(function*() {
        const filter = { "a\"b": 1 }
        const queried = yield* post(`${V2}/items/query`, { dataCollectionId: "Posts", query: { filter } }, key)
        for (const [path, extra] of [["remove-by-filter", {}], ["patch-by-filter", { fieldModifications: [] }]] as const) {
          const job = yield* post(`${V2}/bulk/items/async-${path}`, { dataCollectionId: "Posts", filter, ...extra }, key)
          assert.strictEqual(job.status, queried.status, path)
          assert.strictEqual(codeOf(job), "WDE0048", path)
          assert.strictEqual(codeOf(job), codeOf(queried))
        }
        const badPath = yield* post(`${V2}/bulk/items/async-patch-by-filter`, {
          dataCollectionId: "Posts",
          filter: {},
          fieldModifications: [{ fieldPath: "_id", action: "SET_FIELD", setFieldOptions: { value: 1 } }]
        }, key)
        assert.strictEqual(badPath.status, 400)
      })
    ))

  it.effect("7. .r must hold a JSON object", () =>
    admin((key) =>
      Effect.gen(function*() {
        const r = (json: string) => `${V2}/items/query?.r=${base64url(json)}`
        for (const json of ["[{\"dataCollectionId\":\"Posts\"}]", `${"[".repeat(3000)}${"]".repeat(3000)}`, "7", "\"Posts\"", "null", "{"]) {
          const answer = yield* send("GET", r(json), undefined, key)
          assert.strictEqual(answer.status, 400, json.slice(0, 20))
          assert.strictEqual(violation(answer).field, ".r")
        }
        assert.strictEqual((yield* send("GET", r("{\"dataCollectionId\":\"Posts\"}"), undefined, key)).status, 200)
      })
    ))

  it.effect("8. a pipeline group stage with neither group ids nor accumulators is one group (the fuzzer found a 500)", () =>
    admin((key) =>
      Effect.gen(function*() {
        const pipeline = (stages: unknown) => post(`${V2}/items/aggregate-pipeline`, { dataCollectionId: "Posts", pipeline: { stages, paging: { limit: 5 } } }, key)
        const bare = yield* pipeline([{ group: {} }])
        assert.strictEqual(bare.status, 200)
        assert.deepStrictEqual(bare.body.results, [{ _id: null }])
        const none = yield* pipeline([{ filter: { title: "no such post" } }, { group: { groupIds: [] } }])
        assert.strictEqual(none.status, 200)
        assert.deepStrictEqual(none.body.results, [])
      })
    ))

  it.effect("9. a field name holding NUL, where SQLite's JSON path ends, is refused in sorts and filters (the fuzzer found a 500)", () =>
    Effect.gen(function*() {
      const guest = (yield* visitor).access_token
      const products = (query: unknown) => post("/stores-reader/v1/products/query-platformized", { query }, guest)
      for (const query of [{ sort: [{ fieldName: "\u0000", order: "ASC" }] }, { sort: [{ fieldName: "name.a\u0000b" }] }, { filter: { "\u0000": 1 } }, { filter: "{\"a\\u0000\":{\"$gt\":1}}" }]) {
        const answer = yield* products(query)
        assert.strictEqual(answer.status, 400, JSON.stringify(query))
      }
      assert.strictEqual((yield* products({ sort: [{ fieldName: "name", order: "ASC" }] })).status, 200)
      const items = yield* admin((key) => post(`${V2}/items/query`, { dataCollectionId: "Posts", query: { filter: { "a\u0000": "x" } } }, key))
      assert.strictEqual(items.status, 400)
    }))
})
