import { assert, describe, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Redacted from "effect/Redacted"
import { copyFileSync, existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs"
import { DatabaseSync } from "node:sqlite"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { LocalPlatform } from "../../src/server/index.ts"
import { authRequestOf, call, get, login, pkce, post, uniqueEmail, visitor, snapshotTables } from "./support.ts"

const tempDb = () => {
  const dir = mkdtempSync(join(tmpdir(), "sitefx-db-"))
  return { file: join(dir, "platform.db"), cleanup: () => rmSync(dir, { recursive: true, force: true }) }
}

const snapshot = (file: string) => snapshotTables(file)

/** Runs `effect` against a platform on `file`, stopping it afterwards. */
const onPlatform = <A, E>(file: string, effect: Effect.Effect<A, E, LocalPlatform>) =>
  Effect.scoped(Effect.gen(function*() {
    const context = yield* Layer.build(LocalPlatform.layer({ db: file }))
    return yield* Effect.provideContext(effect, context)
  }))

describe("storage", () => {
  it.live("a database file keeps no password, token or API key in plain text", () => {
    const { file, cleanup } = tempDb()
    const password = "correct horse battery staple"
    return onPlatform(file, Effect.gen(function*() {
      const platform = yield* LocalPlatform
      const email = uniqueEmail()
      const guest = yield* visitor
      const registered = yield* post("/_api/iam/authentication/v2/register", { loginId: { email }, password }, guest.access_token)
      const tokens = yield* login(email, password)
      const bytes = [file, `${file}-wal`].filter(existsSync).map((f) => readFileSync(f).toString("latin1")).join("")
      assert.include(bytes, email)
      for (const secret of [password, tokens.refresh_token, guest.refresh_token, registered.body.sessionToken, Redacted.value(platform.apiKey)]) {
        assert.notInclude(bytes, secret)
      }
      const rows = snapshot(file).members as Array<{ email: string; password_hash: string }>
      const row = rows.find((r) => r.email === email)!
      assert.match(row.password_hash, /^scrypt\$16384\$8\$1\$/)
    })).pipe(Effect.ensuring(Effect.sync(cleanup)))
  })

  it.live("a database file survives a restart: same API key, tokens and members; items keep their order", () => {
    const { file, cleanup } = tempDb()
    const insert = (key: string, collection: string, ids: ReadonlyArray<string>) =>
      post("/wix-data/v2/bulk/items/insert", { dataCollectionId: collection, dataItems: ids.map((id) => ({ id, data: {} })) }, key)
    const order = (key: string, collection: string) =>
      Effect.map(post("/wix-data/v2/items/query", { dataCollectionId: collection }, key), (r) => (r.body.dataItems as Array<{ id: string }>).map((d) => d.id))
    return Effect.gen(function*() {
      const first = yield* onPlatform(file, Effect.gen(function*() {
        const platform = yield* LocalPlatform
        const demo = yield* login(platform.demoMember!.email, Redacted.value(platform.demoMember!.password))
        const key = Redacted.value(platform.apiKey)
        for (const id of ["Early", "Late"]) yield* post("/wix-data/v2/collections", { collection: { id } }, key)
        yield* insert(key, "Early", ["a", "b"])
        yield* insert(key, "Late", ["p", "q", "r"])
        return { apiKey: Redacted.value(platform.apiKey), demo }
      }))
      yield* onPlatform(file, Effect.gen(function*() {
        const platform = yield* LocalPlatform
        assert.strictEqual(Redacted.value(platform.apiKey), first.apiKey)
        assert.strictEqual((yield* get("/members/v1/members/my", first.demo.access_token)).status, 200)
        const renewed = yield* post("/oauth2/token", { clientId: platform.clientId, grantType: "refresh_token", refreshToken: first.demo.refresh_token })
        assert.strictEqual(renewed.status, 200)
        assert.strictEqual((yield* get("/_sitefx/whoami", first.apiKey)).body.kind, "admin")
        assert.strictEqual((yield* get("/_sitefx/members")).body.identities.length, 1)
        // items inserted after the restart come after those before it, in every collection (default order: insertion)
        yield* insert(first.apiKey, "Late", ["s"])
        yield* insert(first.apiKey, "Early", ["c"])
        assert.deepStrictEqual(yield* order(first.apiKey, "Late"), ["p", "q", "r", "s"])
        assert.deepStrictEqual(yield* order(first.apiKey, "Early"), ["a", "b", "c"])
      }))
    }).pipe(Effect.ensuring(Effect.sync(cleanup)))
  })

  it.live("committed writes reach the database file itself while the platform runs, not only its write-ahead log", () => {
    const { file, cleanup } = tempDb()
    const alone = join(file, "..", "alone.db")
    /** The items a copy of the database file alone holds: what a checkpoint has copied out of the log. */
    const itemsInFile = () => {
      copyFileSync(file, alone)
      const db = new DatabaseSync(alone, { readOnly: true })
      try {
        return Number(db.prepare("SELECT COUNT(*) AS n FROM data_items WHERE collection_id = 'Checkpointed'").get()?.n ?? 0)
      } catch {
        return 0 // the table itself may not be in the file yet
      } finally {
        db.close()
      }
    }
    return onPlatform(file, Effect.gen(function*() {
      const platform = yield* LocalPlatform
      const key = Redacted.value(platform.apiKey)
      assert.strictEqual((yield* post("/wix-data/v2/collections", { collection: { id: "Checkpointed" } }, key)).status, 200)
      // a few hundred pages: far fewer than SQLite's own automatic checkpoint waits for
      for (let chunk = 0; chunk < 3; chunk++) {
        const dataItems = Array.from({ length: 500 }, (_, i) => ({ data: { n: chunk * 500 + i, text: "x".repeat(200) } }))
        assert.strictEqual((yield* post("/wix-data/v2/bulk/items/insert", { dataCollectionId: "Checkpointed", dataItems }, key)).status, 200)
      }
      let copied = 0
      for (let i = 0; i < 200 && copied < 1500; i++) {
        yield* Effect.sleep("10 millis")
        copied = itemsInFile()
      }
      assert.strictEqual(copied, 1500)
    })).pipe(Effect.ensuring(Effect.sync(cleanup)))
  })

  it.live("bad input changes nothing: a battery of refused requests leaves every table as it was", () => {
    const { file, cleanup } = tempDb()
    return onPlatform(file, Effect.gen(function*() {
      const platform = yield* LocalPlatform
      const guest = yield* visitor
      const member = yield* login(platform.demoMember!.email, Redacted.value(platform.demoMember!.password))
      const key = Redacted.value(platform.apiKey)
      const before = snapshot(file)
      const refused: ReadonlyArray<readonly [string, string, unknown, string | undefined]> = [
        ["POST", "/oauth2/token", "{not json", undefined],
        ["POST", "/oauth2/token", { grantType: "anonymous" }, undefined],
        ["POST", "/oauth2/token", { clientId: "nobody", grantType: "anonymous" }, undefined],
        ["POST", "/oauth2/token", { clientId: platform.clientId, grantType: "refresh_token", refreshToken: "sfxrt_x" }, undefined],
        ["POST", "/oauth2/token", { clientId: platform.clientId, grantType: "authorization_code", code: "sfxcode_x", codeVerifier: pkce().verifier }, undefined],
        ["POST", "/oauth2/token", { grant_type: "authorized_client", member_id: "nobody" }, `,${key}`],
        ["POST", "/oauth2/token", { grant_type: "authorized_client", member_id: member.identity.id, session_token: "sfxsess_x" }, `,${key}`],
        ["POST", "/oauth2/token", { clientId: platform.clientId, grantType: 42 }, undefined],
        ["POST", "/_api/redirects-api/v1/redirect-session", { auth: { authRequest: { clientId: platform.clientId } } }, guest.access_token],
        ["POST", "/_api/redirects-api/v1/redirect-session", {
          auth: { authRequest: authRequestOf(platform.clientId, { redirectUri: "https://evil.example/" }) }
        }, guest.access_token],
        ["POST", "/_api/redirects-api/v1/redirect-session", { logout: { clientId: "nobody" } }, guest.access_token],
        ["POST", "/_api/iam/authentication/v2/register", { loginId: { email: "nope" }, password: "long-enough" }, guest.access_token],
        ["POST", "/_api/iam/authentication/v2/register", { loginId: { email: uniqueEmail() }, password: "123" }, guest.access_token],
        ["POST", "/_api/iam/authentication/v2/register", { loginId: { email: "demo@sitefx.dev" }, password: "long-enough" }, guest.access_token],
        ["POST", "/_api/iam/authentication/v2/register", { loginId: [], password: 7 }, guest.access_token],
        ["POST", "/_api/iam/authentication/v2/register", { loginId: { email: uniqueEmail() }, password: "long-enough" }, undefined],
        ["POST", "/_api/iam/authentication/v2/login", { loginId: { email: uniqueEmail() }, password: "whatever" }, guest.access_token],
        ["POST", "/_api/iam/authentication/v2/login", { loginId: { email: "demo@sitefx.dev" } }, guest.access_token],
        ["POST", "/_api/iam/authentication/v2/sign-on", { loginId: { email: uniqueEmail() } }, guest.access_token],
        ["POST", "/_api/iam/authentication/v2/sign-on", { loginId: { email: "bad" } }, key],
        ["POST", "/_api/iam/authentication/v2/change-password", { newPassword: "x" }, member.access_token],
        ["POST", "/_api/iam/authentication/v2/change-password", { newPassword: "long-enough" }, guest.access_token],
        ["POST", "/_api/iam/authentication/v2/totp/verify", { stateToken: "sfxstate_x", totpData: { code: "123456" } }, guest.access_token],
        ["POST", "/_api/iam/authentication/v2/nonsense/verify", { stateToken: "sfxstate_x" }, guest.access_token],
        ["POST", "/_api/iam/verification/v1/auth/verify", { code: "123456", stateToken: "sfxstate_x" }, guest.access_token],
        ["POST", "/_api/iam/verification/v1/start", { target: "EMAIL" }, guest.access_token],
        ["POST", "/_api/iam/recovery/v1/send-email", { email: "demo@sitefx.dev", redirect: { url: "https://evil.example/" } }, guest.access_token],
        ["POST", "/_api/iam/recovery/v1/send-email", { email: "not-an-email" }, guest.access_token],
        ["POST", "/_api/iam/recovery/v1/activation-email", { identityId: "nobody" }, guest.access_token],
        ["POST", "/_api/iam/recovery/v1/recover", { recoveryToken: "sfxrec_x", password: "long-enough" }, guest.access_token],
        ["POST", "/_sitefx/seed", { seed: "lots" }, undefined],
        ["PATCH", "/_sitefx/settings", { captcha: "yes" }, undefined],
        ["POST", "/_sitefx/members/nobody/block", {}, undefined],
        ["POST", `/_sitefx/members/${member.identity.id}/factors`, { type: "PUSH" }, undefined]
      ]
      for (const [method, path, body, auth] of refused) {
        const res = yield* call(method, path, { body, ...(auth === undefined ? {} : { auth }) })
        assert.isAtLeast(res.status, 400, `${path} ${JSON.stringify(body)}: ${res.text}`)
        assert.isAtMost(res.status, 499, `${path}: ${res.text}`)
        assert.isString(res.body?.message, `${path}: ${res.text}`)
      }
      const form = yield* call("POST", "/oauth2/authorize?redirectSession=nope", { form: { email: "demo@sitefx.dev", password: "x" } })
      assert.strictEqual(form.status, 400)
      assert.deepStrictEqual(snapshot(file), before)
    })).pipe(Effect.ensuring(Effect.sync(cleanup)))
  })
})
