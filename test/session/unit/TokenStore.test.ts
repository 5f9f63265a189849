/**
 * Token stores: memory, a localStorage-shaped Storage (injected), and the 0600 JSON file.
 */
import { afterAll, assert, beforeAll, describe, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as Logger from "effect/Logger"
import { mkdir, mkdtemp, readdir, readFile, rm, stat, writeFile } from "node:fs/promises"
import { join, resolve } from "node:path"
import * as FileTokenStore from "../../../src/session/FileTokenStore.ts"
import { EMPTY_TOKENS, parseStored, serializeStored, type StoredSession, TokenStore } from "../../../src/session/TokenStore.ts"
import type { Tokens } from "../../../src/session/wire/index.ts"

const member: Tokens = {
  accessToken: { value: "OauthNG.JWS.access", expiresAt: 1_900_000_000 },
  refreshToken: { value: "JWS.refresh", role: "member" }
}
const withLogin: StoredSession = {
  tokens: { accessToken: { value: "a", expiresAt: 1 }, refreshToken: { value: "r", role: "visitor" } },
  oauthData: { state: "s", codeVerifier: "v".repeat(43), codeChallenge: "c", redirectUri: "https://app/cb", originalUri: "https://app/page" }
}

const load = TokenStore.use((s) => s.load)
const save = (session: StoredSession) => TokenStore.use((s) => s.save(session))

/** An in-memory `Storage`, as a browser's localStorage behaves. */
class MemoryStorage implements Storage {
  readonly items = new Map<string, string>()
  get length() {
    return this.items.size
  }
  clear() {
    this.items.clear()
  }
  getItem(key: string) {
    return this.items.get(key) ?? null
  }
  key(index: number) {
    return [...this.items.keys()][index] ?? null
  }
  removeItem(key: string) {
    this.items.delete(key)
  }
  setItem(key: string, value: string) {
    this.items.set(key, String(value))
  }
}

describe("memory", () => {
  it.effect("starts empty by default", () =>
    Effect.gen(function*() {
      assert.deepStrictEqual(yield* load, { tokens: EMPTY_TOKENS })
    }).pipe(Effect.provide(TokenStore.memory())))

  it.effect("starts from the given tokens and round trips a save", () =>
    Effect.gen(function*() {
      assert.deepStrictEqual(yield* load, { tokens: member })
      yield* save(withLogin)
      assert.deepStrictEqual(yield* load, withLogin)
    }).pipe(Effect.provide(TokenStore.memory(member))))

  it.effect("each built layer has its own state", () =>
    Effect.gen(function*() {
      const layer = TokenStore.memory()
      yield* save(withLogin).pipe(Effect.provide(layer, { local: true }))
      assert.deepStrictEqual(yield* load.pipe(Effect.provide(layer, { local: true })), { tokens: EMPTY_TOKENS })
    }))
})

describe("localStorage", () => {
  it.effect("saves JSON under the default key and reads it back", () => {
    const storage = new MemoryStorage()
    return Effect.gen(function*() {
      assert.deepStrictEqual(yield* load, { tokens: EMPTY_TOKENS })
      yield* save(withLogin)
      assert.deepStrictEqual([...storage.items.keys()], ["sitefx.session"])
      assert.deepStrictEqual(JSON.parse(storage.getItem("sitefx.session") ?? ""), withLogin)
      assert.deepStrictEqual(yield* load, withLogin)
    }).pipe(Effect.provide(TokenStore.localStorage({ storage })))
  })

  it.effect("uses the given key, and a second store over the same storage sees the data (survives a redirect)", () => {
    const storage = new MemoryStorage()
    return Effect.gen(function*() {
      yield* save({ tokens: member }).pipe(Effect.provide(TokenStore.localStorage({ storage, key: "my-app" }), { local: true }))
      assert.isNotNull(storage.getItem("my-app"))
      assert.isNull(storage.getItem("sitefx.session"))
      const again = yield* load.pipe(Effect.provide(TokenStore.localStorage({ storage, key: "my-app" }), { local: true }))
      assert.deepStrictEqual(again, { tokens: member })
    })
  })

  it.effect("corrupt JSON or a document of the wrong shape reads as empty tokens", () => {
    const storage = new MemoryStorage()
    return Effect.gen(function*() {
      for (const text of ["{not json", "null", "[]", "42", JSON.stringify({ tokens: { accessToken: "x" } }), JSON.stringify({ tokens: { ...member, refreshToken: { value: "r", role: "admin" } } })]) {
        storage.setItem("sitefx.session", text)
        assert.deepStrictEqual(yield* load, { tokens: EMPTY_TOKENS }, text)
      }
    }).pipe(Effect.provide(TokenStore.localStorage({ storage })))
  })

  it("parseStored / serializeStored round trip and treat null/undefined as empty", () => {
    assert.deepStrictEqual(parseStored(serializeStored(withLogin)), withLogin)
    assert.deepStrictEqual(parseStored(null), { tokens: EMPTY_TOKENS })
    assert.deepStrictEqual(parseStored(undefined), { tokens: EMPTY_TOKENS })
  })
})

describe("FileTokenStore", () => {
  let dir = ""
  beforeAll(async () => {
    const root = resolve(import.meta.dirname, "../../../.tmp")
    await mkdir(root, { recursive: true })
    dir = await mkdtemp(join(root, "token-store-"))
  })
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true })
  })

  it.live("a missing file reads as empty tokens", () =>
    load.pipe(
      Effect.provide(FileTokenStore.layer(join(dir, "missing", "session.json"))),
      Effect.map((s) => assert.deepStrictEqual(s, { tokens: EMPTY_TOKENS }))
    ))

  it.live("writes a 0600 JSON file (creating the folder), leaves no temp file, and reads it back", () =>
    Effect.gen(function*() {
      const path = join(dir, "nested", "deeper", "session.json")
      const layer = FileTokenStore.layer(path)
      yield* save(withLogin).pipe(Effect.provide(layer))
      const info = yield* Effect.promise(() => stat(path))
      assert.strictEqual(info.mode & 0o777, 0o600)
      assert.deepStrictEqual(JSON.parse(yield* Effect.promise(() => readFile(path, "utf8"))), withLogin)
      assert.deepStrictEqual(yield* Effect.promise(() => readdir(join(dir, "nested", "deeper"))), ["session.json"])
      // a new store over the same file (the next run of a CLI) sees the session
      assert.deepStrictEqual(yield* load.pipe(Effect.provide(FileTokenStore.layer(path))), withLogin)
    }))

  it.live("overwriting replaces the whole document and keeps the mode", () =>
    Effect.gen(function*() {
      const path = join(dir, "overwrite.json")
      const layer = FileTokenStore.layer(path)
      yield* save(withLogin).pipe(Effect.provide(layer))
      yield* save({ tokens: member }).pipe(Effect.provide(layer))
      assert.deepStrictEqual(yield* load.pipe(Effect.provide(layer)), { tokens: member })
      assert.strictEqual((yield* Effect.promise(() => stat(path))).mode & 0o777, 0o600)
    }))

  it.live("a corrupt file reads as empty tokens", () =>
    Effect.gen(function*() {
      const path = join(dir, "corrupt.json")
      yield* Effect.promise(() => writeFile(path, "{\"tokens\": {\"accessToken\""))
      assert.deepStrictEqual(yield* load.pipe(Effect.provide(FileTokenStore.layer(path))), { tokens: EMPTY_TOKENS })
    }))

  it.live("concurrent saves never leave a corrupt file: the result is one of the saved documents", () =>
    Effect.gen(function*() {
      const path = join(dir, "concurrent.json")
      const layer = FileTokenStore.layer(path)
      // documents of very different sizes, so interleaved writes to one temp file would show
      const sessions: Array<StoredSession> = Array.from({ length: 20 }, (_, i) => ({
        tokens: { accessToken: { value: "x".repeat(i % 2 === 0 ? 5000 : 10), expiresAt: i }, refreshToken: { value: `r${i}`, role: "member" } }
      }))
      yield* Effect.forEach(sessions, save, { concurrency: "unbounded", discard: true }).pipe(Effect.provide(layer))
      const text = yield* Effect.promise(() => readFile(path, "utf8"))
      const stored = JSON.parse(text) as StoredSession
      assert.isTrue(sessions.some((s) => JSON.stringify(s) === JSON.stringify(stored)), "the file holds one saved document")
      assert.deepStrictEqual(yield* Effect.promise(() => readdir(dir)).pipe(Effect.map((f) => f.filter((n) => n.startsWith("concurrent")))), ["concurrent.json"])
    }))

  it.live("a save that cannot write is logged as a warning, not raised", () =>
    Effect.gen(function*() {
      // the parent "folder" is a file, so mkdir fails
      const blocker = join(dir, "blocker")
      yield* Effect.promise(() => writeFile(blocker, "x"))
      const logged: Array<{ level: string; message: unknown }> = []
      const capture = Logger.layer([Logger.make((o) => logged.push({ level: o.logLevel, message: o.message }))])
      yield* save(withLogin).pipe(Effect.provide(FileTokenStore.layer(join(blocker, "session.json"))), Effect.provide(capture))
      assert.strictEqual(logged.length, 1)
      assert.strictEqual(logged[0]!.level, "Warn")
      assert.include(JSON.stringify(logged[0]!.message), "could not save the session file")
    }))
})

