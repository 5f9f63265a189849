/**
 * The platform's official `permissions` module (`@wix/data`) asks the local platform what its caller may do
 * with a collection's items, unchanged: an API key everything, a visitor what anyone may; and sitefx's
 * `DataItems.myPermissions` sends what the official module sends.
 */
import { assert, describe, it } from "@effect/vitest"
import { permissions } from "@wix/data"
import { ApiKeyStrategy, createClient, OAuthStrategy } from "@wix/sdk"
import * as Redacted from "effect/Redacted"
import * as DataItems from "../../src/data/DataItems.ts"
import { freshCollection } from "../data/support.ts"
import { wireRecorder } from "../support/official.ts"

// the official client's hosts go to a local platform for this file; both sides' calls are recorded
const { onLocal, sitefx, sent } = wireRecorder()

const asAdmin = () =>
  createClient({ modules: { permissions }, auth: ApiKeyStrategy({ apiKey: Redacted.value(onLocal.platform.apiKey), siteId: onLocal.platform.siteId }) })
const asVisitor = () => createClient({ modules: { permissions }, auth: OAuthStrategy({ clientId: onLocal.platform.clientId }) })

const mine = (answer: { readonly itemRead?: boolean; readonly itemInsert?: boolean; readonly itemUpdate?: boolean; readonly itemRemove?: boolean }) =>
  [answer.itemRead, answer.itemInsert, answer.itemUpdate, answer.itemRemove]

describe("the official permissions module on the local platform", () => {
  it("getMyPermissions: an API key may do everything, a visitor what anyone may; a missing collection is refused", async () => {
    const c = await onLocal.run(freshCollection("Compat", { permissions: { read: "ANYONE", insert: "SITE_MEMBER", update: "SITE_MEMBER_AUTHOR", remove: "ADMIN" } }))
    assert.deepStrictEqual(mine(await asAdmin().permissions.getMyPermissions(c)), [true, true, true, true])
    assert.deepStrictEqual(mine(await asVisitor().permissions.getMyPermissions(c)), [true, false, false, false])
    const refused = await asVisitor().permissions.getMyPermissions("NoSuchCollection").then(() => undefined, (e: Error) => e)
    assert.match(String(refused), /WDE0025/)
  })
})

describe("DataItems.myPermissions sends what the official module sends", () => {
  it("getMyPermissions", async () => {
    const o = await sent(() => asAdmin().permissions.getMyPermissions("Posts"))
    const s = await sent(() => sitefx(DataItems.myPermissions("Posts")))
    assert.deepStrictEqual(s, o)
    assert.deepStrictEqual(o.map((r) => [r.method, r.path, r.query]), [["GET", "/wix-data/v1/permissions/current", { dataCollectionId: "Posts" }]])
  })
})
