/**
 * Every refusal of the local platform names the rule that refused it (`details.rule`), over real HTTP:
 * one or more of each kind (permission, authentication, validation, bound, throttle, dev access,
 * injected fault, not found), beside the `applicationError` / `validationError` the official clients
 * read, which stay as they were.
 */
import { assert, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import { request } from "node:http"
import * as DataItems from "../../src/data/DataItems.ts"
import { MAX_FAILURES } from "../../src/server/accounts/LoginThrottle.ts"
import { LocalPlatform } from "../../src/server/index.ts"
import { call, dev, post, registerMember, visitor } from "./support.ts"
import { data, freshCollection, memberToken, OPEN, visitorToken } from "./data/support.ts"
import { asAdmin } from "../data/support.ts"

const MAX_DATA_BYTES = 4096

const MEMBERS_ONLY = { read: "ANYONE", insert: "SITE_MEMBER", update: "SITE_MEMBER_AUTHOR", remove: "ADMIN" }

const nested = (depth: number): unknown => (depth === 0 ? 1 : { a: nested(depth - 1) })

/** A request with a browser's headers, which `fetch` would not send. */
const fromPage = (path: string, origin: string) =>
  Effect.flatMap(LocalPlatform, (platform) =>
    Effect.promise(() =>
      new Promise<{ status: number; body: any }>((resolve, reject) => {
        const url = new URL(platform.url)
        const req = request({ host: url.hostname, port: url.port, path, headers: { origin } }, (res) => {
          let text = ""
          res.setEncoding("utf8")
          res.on("data", (chunk: string) => (text += chunk))
          res.on("end", () => resolve({ status: res.statusCode ?? 0, body: JSON.parse(text) }))
        })
        req.on("error", reject)
        req.end()
      })
    ))

it.layer(LocalPlatform.layer({ dataMaxPayloadBytes: MAX_DATA_BYTES }), { excludeTestServices: true })("refusals name their rule", (it) => {
  it.effect("permission: a visitor's insert into a members-only collection names the collection, the operation, the role it requires and the caller's", () =>
    Effect.gen(function*() {
      const c = yield* freshCollection({ permissions: MEMBERS_ONLY })
      const refused = yield* data("POST", "/items", { dataCollectionId: c, dataItem: { data: { title: "x" } } }, yield* visitorToken)
      assert.strictEqual(refused.status, 403)
      assert.strictEqual(refused.body.details.applicationError.code, "WDE0027")
      assert.deepStrictEqual(refused.body.details.rule, {
        kind: "permission",
        id: "data.permission",
        message: `insert on the ${c} collection requires SITE_MEMBER; the caller is a visitor`,
        collection: c,
        operation: "insert",
        required: "SITE_MEMBER",
        caller: "visitor"
      })
    }))

  it.effect("permission: an author's collection refuses a member another member's item, and an admin's calls refuse members", () =>
    Effect.gen(function*() {
      const c = yield* freshCollection({ permissions: MEMBERS_ONLY })
      const author = yield* memberToken
      const other = yield* memberToken
      const inserted = yield* data("POST", "/items", { dataCollectionId: c, dataItem: { id: "mine", data: { title: "x" } } }, author.token)
      assert.strictEqual(inserted.status, 200)
      const update = yield* data("POST", "/items/update", { dataCollectionId: c, dataItem: { id: "mine", data: { title: "y" } } }, other.token)
      assert.strictEqual(update.status, 403)
      assert.deepInclude(update.body.details.rule, { kind: "permission", collection: c, operation: "update", required: "SITE_MEMBER_AUTHOR", caller: "member" })
      const removal = yield* data("POST", "/items/remove", { dataCollectionId: c, dataItemId: "mine" }, author.token)
      assert.deepInclude(removal.body.details.rule, { kind: "permission", operation: "remove", required: "ADMIN", caller: "member" })

      const backups = yield* data("GET", "/wix-data/v2/backups", undefined, author.token)
      assert.strictEqual(backups.status, 403)
      assert.deepInclude(backups.body.details.rule, { kind: "permission", id: "auth.api-key.required", required: "ADMIN", caller: "member" })
    }))

  it.effect("authentication: no credentials, a token that is not one, a wrong password", () =>
    Effect.gen(function*() {
      const anonymous = yield* data("GET", "/wix-data/v2/backups", undefined, "")
      assert.strictEqual(anonymous.status, 401)
      assert.deepInclude(anonymous.body.details.rule, { kind: "authentication", id: "auth.api-key.required", required: "ADMIN", caller: "none" })
      const forged = yield* data("POST", "/items/query", { dataCollectionId: "Posts" }, "not-a-token")
      assert.strictEqual(forged.status, 401)
      assert.deepStrictEqual(forged.body.details.rule, { kind: "authentication", id: "auth.token.invalid", message: "The access token is not valid" })
      const member = yield* registerMember()
      const guest = yield* visitor
      const wrong = yield* post("/_api/iam/authentication/v2/login", { loginId: { email: member.email }, password: "not-it" }, guest.access_token)
      assert.strictEqual(wrong.status, 401)
      assert.strictEqual(wrong.body.details.applicationError.code, "-19976")
      assert.deepInclude(wrong.body.details.rule, { kind: "authentication", id: "identity.login.password" })
    }))

  it.effect("validation: a schema failure and a data engine code name the fields", () =>
    Effect.gen(function*() {
      const noCollection = yield* data("POST", "/items", { dataItem: { data: {} } })
      assert.strictEqual(noCollection.status, 400)
      assert.strictEqual(noCollection.body.details.validationError.fieldViolations[0].field, "dataCollectionId")
      assert.deepInclude(noCollection.body.details.rule, { kind: "validation", id: "validation.required-field", fields: ["dataCollectionId"] })

      const c = yield* freshCollection({ permissions: OPEN })
      const zero = yield* data("POST", "/items/query", { dataCollectionId: c, query: { paging: { limit: 0 } } })
      assert.strictEqual(zero.status, 400)
      assert.strictEqual(zero.body.details.applicationError.code, "WDE0033")
      assert.deepInclude(zero.body.details.rule, { kind: "validation", id: "data.wde0033", fields: ["paging.limit"] })
      assert.strictEqual(zero.body.details.rule.message, zero.body.message)
    }))

  it.effect("bound: a data body over its bytes, a page over its size, an item nested too deep", () =>
    Effect.gen(function*() {
      const c = yield* freshCollection({ permissions: OPEN })
      const big = yield* data("POST", "/items", { dataCollectionId: c, dataItem: { data: { blob: "x".repeat(MAX_DATA_BYTES) } } })
      assert.strictEqual(big.status, 413)
      assert.strictEqual(big.body.details.applicationError.code, "WDE0109")
      assert.deepStrictEqual(big.body.details.rule, {
        kind: "bound",
        id: "data.payload.max-bytes",
        message: `A data request's body is at most ${MAX_DATA_BYTES} bytes`,
        fields: [],
        limit: MAX_DATA_BYTES
      })

      const page = yield* data("POST", "/items/query", { dataCollectionId: c, query: { paging: { limit: 5000 } } })
      assert.strictEqual(page.body.details.applicationError.code, "WDE0036")
      assert.deepInclude(page.body.details.rule, { kind: "bound", id: "data.paging.max-limit", fields: ["paging.limit"], limit: 1000 })

      const deep = yield* data("POST", "/items", { dataCollectionId: c, dataItem: { data: nested(101) } })
      assert.strictEqual(deep.status, 400)
      assert.deepInclude(deep.body.details.rule, { kind: "bound", id: "bound.max-depth", limit: 100 })
      assert.deepStrictEqual(deep.body.details.rule.fields, deep.body.details.validationError.fieldViolations.map((v: any) => v.field))
    }))

  it.effect("throttle: the login after too many wrong passwords from one address says when to try again", () =>
    Effect.gen(function*() {
      const member = yield* registerMember()
      const guest = yield* visitor
      const attempt = () => post("/_api/iam/authentication/v2/login", { loginId: { email: member.email }, password: "guess" }, guest.access_token)
      for (let i = 0; i < MAX_FAILURES; i++) assert.strictEqual((yield* attempt()).status, 401)
      const throttled = yield* attempt()
      assert.strictEqual(throttled.status, 429)
      assert.strictEqual(throttled.body.details.applicationError.code, "TOO_MANY_REQUESTS")
      const rule = throttled.body.details.rule
      assert.strictEqual(rule.kind, "throttle")
      assert.strictEqual(rule.id, "identity.login.throttle")
      assert.strictEqual(String(rule.retryAfterSeconds), throttled.headers.get("retry-after"))
    }))

  it.effect("dev access: a page of another origin is refused by the guard's origin rule", () =>
    Effect.gen(function*() {
      const refused = yield* fromPage("/_sitefx/outbox", "http://evil.example")
      assert.strictEqual(refused.status, 403)
      assert.strictEqual(refused.body.details.applicationError.code, "DEV_ACCESS_DENIED")
      assert.deepStrictEqual(refused.body.details.rule, { kind: "dev-access", id: "dev.access.origin", message: refused.body.message })
    }))

  it.effect("fault: an injected 503 names its fault and stays a system error (no code); an injected 429 keeps its code", () =>
    Effect.gen(function*() {
      yield* dev("POST", "/faults", { path: "/wix-data/v2/items/query", status: 503, count: 1 })
      const unavailable = yield* data("POST", "/items/query", { dataCollectionId: "Posts" })
      assert.strictEqual(unavailable.status, 503)
      assert.deepStrictEqual(unavailable.body, {
        message: "The service is temporarily unavailable",
        details: {
          rule: {
            kind: "fault",
            id: "dev.fault",
            message: "A fault injected for /wix-data/v2/items/query answers 503",
            path: "/wix-data/v2/items/query",
            status: 503,
            fault: "status",
            faultId: unavailable.body.details.rule.faultId
          }
        }
      })
      yield* dev("POST", "/faults", { path: "/wix-data", status: 429, count: 1, retryAfter: 2 })
      const busy = yield* data("POST", "/items/query", { dataCollectionId: "Posts" })
      assert.strictEqual(busy.status, 429)
      assert.strictEqual(busy.headers.get("retry-after"), "2")
      assert.strictEqual(busy.body.details.applicationError.code, "TOO_MANY_REQUESTS")
      assert.deepInclude(busy.body.details.rule, { kind: "fault", path: "/wix-data", status: 429 })
    }))

  it.effect("not found: a missing item, a missing collection and a path no route serves", () =>
    Effect.gen(function*() {
      const c = yield* freshCollection({ permissions: OPEN })
      const item = yield* data("GET", `/items/ghost?dataCollectionId=${c}`)
      assert.strictEqual(item.status, 404)
      assert.deepInclude(item.body.details.rule, { kind: "not-found", id: "data.item.not-found" })
      const collection = yield* data("POST", "/items/query", { dataCollectionId: "NoSuchCollection" })
      assert.deepInclude(collection.body.details.rule, { kind: "not-found", id: "data.collection.not-found" })
      const nowhere = yield* call("GET", "/no/such/route")
      assert.strictEqual(nowhere.status, 404)
      assert.deepStrictEqual(nowhere.body.details.rule, { kind: "not-found", id: "not-found", message: "No route for GET /no/such/route" })
    }))

  it.effect("sitefx reads the rule: a PlatformError of an injected fault, a DataError of a bound", () =>
    Effect.gen(function*() {
      // more faults than the client's retries, so the fault is what it ends with
      yield* dev("POST", "/faults", { path: "/wix-data/v2/items/count", status: 503, count: 10 })
      const unavailable = yield* asAdmin(Effect.flip(DataItems.count("Posts")))
      yield* dev("DELETE", "/faults")
      assert.strictEqual(unavailable._tag, "PlatformError")
      assert.deepInclude(unavailable.rule, { kind: "fault", id: "dev.fault", path: "/wix-data/v2/items/count", status: 503 })

      const c = yield* freshCollection({ permissions: OPEN })
      const big = yield* asAdmin(Effect.flip(DataItems.insert(c, { blob: "x".repeat(MAX_DATA_BYTES) })))
      assert.strictEqual(big._tag, "DataError")
      assert.strictEqual(big.code, "WDE0109")
      assert.deepInclude(big.rule, { kind: "bound", id: "data.payload.max-bytes", limit: MAX_DATA_BYTES })
    }))
})
