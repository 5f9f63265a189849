/**
 * Backups on the local platform (`/wix-data/v2/backups`): taken in the background while writers go
 * on, restored exactly (items with ids, dates, owners and order, references, sandbox copies), partly
 * (only the named collections, into themselves or elsewhere), refused when they should be, deleted
 * with their file, and kept across a restart (one cut off in the middle ends FAILED).
 */
import { assert, describe, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import { existsSync, readdirSync } from "node:fs"
import { join } from "node:path"
import { DatabaseSync } from "node:sqlite"
import { domainOf, logMark, loggedSince } from "../../support/eventLog.ts"
import { onPlatform, tempDir } from "../../support/platform.ts"
import { bulkInsert, codeOf, createCollection, data, memberToken, ok, query, uniqueId, visitorToken } from "./support.ts"
import { layerWithCore } from "../../../src/server/LocalPlatform.ts"

const sandboxes = "/_sitefx/data/sandboxes"

/** Waits until the backup (or restoration) is no longer PENDING; its final state. */
const settled = (kind: "backup" | "restoration", id: string) =>
  Effect.gen(function*() {
    for (let i = 0; i < 1000; i++) {
      const list = kind === "backup"
        ? (yield* ok("GET", "/wix-data/v2/backups?paging.limit=100")).backups
        : (yield* ok("GET", "/wix-data/v2/backups/restorations?paging.limit=100")).restorations
      const found = (list as Array<any>).find((x) => x.id === id)
      if (found !== undefined && found.status !== "PENDING") return found
      yield* Effect.sleep("5 millis")
    }
    return yield* Effect.die(new Error(`${kind} ${id} is still PENDING`))
  })

const takeBackup = Effect.gen(function*() {
  const created = yield* ok("POST", "/wix-data/v2/backups", {})
  assert.strictEqual(created.backup.status, "PENDING")
  return yield* settled("backup", created.backup.id)
})

/** Everything a collection holds, system fields included, in the platform's default order. */
const everything = (collection: string, extra: Record<string, unknown> = {}) =>
  Effect.map(query(collection, { paging: { limit: 1000 } }, extra), (r) => r.dataItems)
const references = (collection: string, id: string, field: string) =>
  Effect.map(
    ok("POST", "/items/query-referenced", { dataCollectionId: collection, referringItemId: id, referringItemFieldName: field }),
    (r) => (r.results as Array<any>).map((x) => x.dataItem?.id ?? `unresolved:${x.unresolvedReference?.referencedItemId}`)
  )

const library = Effect.gen(function*() {
  const authors = uniqueId("Authors")
  const books = uniqueId("Books")
  yield* createCollection({ id: authors, fields: [{ key: "name", type: "TEXT" }] })
  yield* createCollection({
    id: books,
    fields: [
      { key: "title", type: "TEXT" },
      { key: "reviewers", type: "MULTI_REFERENCE", typeMetadata: { multiReference: { referencedCollectionId: authors } } }
    ]
  })
  yield* bulkInsert(authors, [{ _id: "ann", name: "Ann" }, { _id: "bo", name: "Bo" }])
  yield* bulkInsert(books, Array.from({ length: 30 }, (_, i) => ({ _id: `b${String(i).padStart(2, "0")}`, title: `Book ${i}`, when: { $date: new Date(Date.UTC(2026, 0, i + 1)).toISOString() } })))
  yield* ok("POST", "/bulk/items/insert-references", {
    dataCollectionId: books,
    dataItemReferences: ["ann", "bo"].map((a) => ({ referringItemFieldName: "reviewers", referringItemId: "b01", referencedItemId: a }))
  })
  yield* ok("POST", sandboxes, { dataCollectionId: books })
  yield* ok("POST", "/items", { dataCollectionId: books, dataItem: { id: "draft", data: { title: "Sandbox draft" } }, environment: "SANDBOX" })
  return { authors, books }
})

it.layer(layerWithCore({}), { excludeTestServices: true })("data backups", (it) => {
  it.effect("every state of a backup, a restoration and an index is logged as the site's event, with who asked", () =>
    Effect.gen(function*() {
      const c = uniqueId("Logged")
      yield* createCollection({ id: c })
      const mark = yield* logMark
      yield* ok("POST", "/indexes", { dataCollectionId: c, index: { name: "byN", fields: [{ path: "n" }] } })
      for (let i = 0; i < 200 && (yield* ok("GET", `/wix-data/v2/indexes?dataCollectionId=${c}`)).indexes[0].status === "BUILDING"; i++) yield* Effect.sleep("5 millis")
      yield* ok("DELETE", `/wix-data/v2/indexes?dataCollectionId=${c}&indexName=byN`)
      const backup = yield* takeBackup
      const restoring = yield* ok("POST", `/wix-data/v2/backups/${backup.id}/partial-restore`, { restorationCollections: [{ dataCollectionId: c }] })
      yield* settled("restoration", restoring.restoration.id)
      const logged = (yield* loggedSince(mark)).filter((e) => e.type.startsWith("wix.data.v2.index") || e.type.startsWith("wix.data.v2.backup"))
      const seen = logged.map((e) => {
        const d = domainOf(e)
        if (d.actionEvent != null) {
          const body = d.actionEvent.body as any
          return `${e.type} ${(body.backup ?? body.restoration).status}`
        }
        const entity = (d.createdEvent?.entity ?? d.updatedEvent?.currentEntity ?? d.deletedEvent?.deletedEntity) as any
        return `${e.type} ${entity.name} ${entity.status} ${entity.dataCollectionId}`
      })
      assert.deepStrictEqual(seen, [
        `wix.data.v2.index_created byN BUILDING ${c}`,
        `wix.data.v2.index_updated byN ACTIVE ${c}`,
        `wix.data.v2.index_deleted byN DROPPED ${c}`,
        "wix.data.v2.backup_backup_state_changed PENDING",
        "wix.data.v2.backup_backup_state_changed PENDING",
        "wix.data.v2.backup_backup_state_changed READY",
        "wix.data.v2.backup_restoration_state_changed PENDING",
        "wix.data.v2.backup_restoration_state_changed PENDING",
        "wix.data.v2.backup_restoration_state_changed COMPLETED"
      ])
      assert.isTrue(logged.every((e) => e.identity.identityType === "WIX_USER"), "the API key that asked")
    }))

  it.effect("a backup restores every collection exactly: items, system fields, order, references, sandbox copies, a deleted collection", () =>
    Effect.gen(function*() {
      const { authors, books } = yield* library
      const before = { books: yield* everything(books), authors: yield* everything(authors), sandbox: yield* everything(books, { environment: "SANDBOX" }), refs: yield* references(books, "b01", "reviewers") }
      const backup = yield* takeBackup
      assert.strictEqual(backup.status, "READY")
      assert.isAbove(Number(backup.sizeInBytes), 0)
      assert.includeMembers(backup.collections.map((c: any) => c.id), [authors, books])
      for (const key of ["requestedDate", "startedDate", "finishedDate"]) assert.isFalse(Number.isNaN(Date.parse(backup[key])), key)

      // everything changes after the backup
      yield* ok("POST", "/items/update", { dataCollectionId: books, dataItem: { id: "b00", data: { title: "Changed" } } })
      yield* ok("POST", "/items/remove", { dataCollectionId: books, dataItemId: "b02" })
      yield* ok("POST", "/items", { dataCollectionId: books, dataItem: { id: "new", data: { title: "After" } } })
      yield* ok("POST", "/bulk/items/remove-references", {
        dataCollectionId: books,
        dataItemReferences: [{ referringItemFieldName: "reviewers", referringItemId: "b01", referencedItemId: "ann" }]
      })
      yield* ok("POST", "/items/truncate", { dataCollectionId: books, environment: "SANDBOX" })
      yield* ok("DELETE", `/wix-data/v2/collections/${authors}`)

      const restoration = yield* ok("POST", `/wix-data/v2/backups/${backup.id}/restore`, { backupId: backup.id })
      assert.strictEqual(restoration.restoration.status, "PENDING")
      assert.strictEqual(restoration.restoration.backup.id, backup.id)
      const done = yield* settled("restoration", restoration.restoration.id)
      assert.strictEqual(done.status, "COMPLETED")

      assert.deepStrictEqual(yield* everything(books), before.books)
      assert.deepStrictEqual(yield* everything(authors), before.authors, "the deleted collection is back, its items too")
      assert.deepStrictEqual(yield* everything(books, { environment: "SANDBOX" }), before.sandbox)
      assert.deepStrictEqual(yield* references(books, "b01", "reviewers"), before.refs)
      // items written after a restoration come after the restored ones
      yield* ok("POST", "/items", { dataCollectionId: books, dataItem: { id: "zz-after", data: {} } })
      const ids = (yield* everything(books)).map((d: any) => d.id)
      assert.strictEqual(ids[ids.length - 1], "zz-after")
    }))

  it.effect("a partial restoration touches only the collections it names, into themselves or into a new collection", () =>
    Effect.gen(function*() {
      const { authors, books } = yield* library
      const backup = yield* takeBackup
      const booksBefore = yield* everything(books)
      yield* ok("POST", "/items/truncate", { dataCollectionId: books })
      yield* ok("POST", "/items/truncate", { dataCollectionId: authors })
      const copy = uniqueId("BooksCopy")
      const partial = yield* ok("POST", `/wix-data/v2/backups/${backup.id}/partial-restore`, {
        backupId: backup.id,
        restorationCollections: [{ dataCollectionId: books }, { dataCollectionId: books, restoreDestination: { dataCollectionId: copy, displayName: "Copy" } }]
      })
      assert.strictEqual((yield* settled("restoration", partial.restoration.id)).status, "COMPLETED")
      assert.deepStrictEqual(yield* everything(books), booksBefore)
      assert.deepStrictEqual((yield* everything(authors)).length, 0, "authors were not named: left as they were")
      const copied = yield* everything(copy)
      assert.deepStrictEqual(copied.map((d: any) => d.data), booksBefore.map((d: any) => d.data))
      assert.strictEqual((yield* ok("GET", `/wix-data/v2/collections/${copy}`)).collection.displayName, "Copy")

      const refused = yield* data("POST", `/wix-data/v2/backups/${backup.id}/partial-restore`, { restorationCollections: [{ dataCollectionId: "NotInTheBackup" }] })
      assert.deepStrictEqual([refused.status, codeOf(refused)], [400, "WDE0025"])
      const none = yield* data("POST", `/wix-data/v2/backups/${backup.id}/partial-restore`, { restorationCollections: [] })
      assert.strictEqual(none.status, 400)
    }))

  it.effect("a restoration that would break a unique index fails and changes nothing", () =>
    Effect.gen(function*() {
      const people = uniqueId("People")
      yield* createCollection({ id: people, fields: [{ key: "email", type: "TEXT" }] })
      yield* bulkInsert(people, [{ _id: "a", email: "same@example.com" }, { _id: "b", email: "same@example.com" }])
      const backup = yield* takeBackup
      yield* ok("POST", "/items/remove", { dataCollectionId: people, dataItemId: "b" })
      yield* ok("POST", "/items", { dataCollectionId: people, dataItem: { id: "c", data: { email: "c@example.com" } } })
      yield* ok("POST", "/indexes", { dataCollectionId: people, index: { name: "byEmail", fields: [{ path: "email" }], unique: true } })
      for (let i = 0; i < 200 && (yield* ok("GET", `/wix-data/v2/indexes?dataCollectionId=${people}`)).indexes[0].status === "BUILDING"; i++) yield* Effect.sleep("5 millis")
      const now = yield* everything(people)
      const restoring = yield* ok("POST", `/wix-data/v2/backups/${backup.id}/partial-restore`, { restorationCollections: [{ dataCollectionId: people }] })
      const done = yield* settled("restoration", restoring.restoration.id)
      assert.strictEqual(done.status, "FAILED")
      assert.deepStrictEqual(yield* everything(people), now, "the failed restoration changed nothing")
    }))

  it.effect("delete frees the backup's file; a deleted, unknown or unfinished backup is refused as it should be; callers other than the API key are refused", () =>
    Effect.gen(function*() {
      yield* library
      const backup = yield* takeBackup
      assert.strictEqual((yield* data("DELETE", `/wix-data/v2/backups/${backup.id}`)).status, 200)
      const listed = (yield* ok("GET", "/wix-data/v2/backups?status=DELETED")).backups.find((b: any) => b.id === backup.id)
      assert.strictEqual(listed.status, "DELETED")
      assert.isString(listed.deletedDate)
      const restoreDeleted = yield* data("POST", `/wix-data/v2/backups/${backup.id}/restore`, {})
      assert.deepStrictEqual([restoreDeleted.status, codeOf(restoreDeleted)], [400, "BACKUP_NOT_READY"])
      assert.strictEqual((yield* data("POST", "/wix-data/v2/backups/nope/restore", {})).status, 404)
      assert.strictEqual((yield* data("DELETE", "/wix-data/v2/backups/nope")).status, 404)
      assert.strictEqual((yield* data("GET", "/wix-data/v2/backups?status=NOPE")).status, 400)
      assert.strictEqual((yield* data("GET", "/wix-data/v2/backups?paging.limit=-1")).status, 400)

      const visitor = yield* visitorToken
      const member = yield* memberToken
      for (const auth of ["", visitor, member.token]) {
        for (const [method, path] of [["POST", "/wix-data/v2/backups"], ["GET", "/wix-data/v2/backups"], ["GET", "/wix-data/v2/backups/restorations"], ["DELETE", `/wix-data/v2/backups/${backup.id}`]] as const) {
          const answer = yield* data(method, path, method === "POST" ? {} : undefined, auth)
          assert.include([401, 403], answer.status, `${method} ${path} as ${auth === "" ? "nobody" : "a visitor or member"}`)
        }
      }
    }))

  it.effect("writes made while a backup is taken all succeed, and the backup ends READY", () =>
    Effect.gen(function*() {
      const busy = uniqueId("Busy")
      yield* createCollection({ id: busy })
      for (const from of [0, 1000]) yield* bulkInsert(busy, Array.from({ length: 1000 }, (_, i) => ({ n: from + i, text: "x".repeat(200) })))
      const created = yield* ok("POST", "/wix-data/v2/backups", {})
      const written = yield* Effect.forEach(Array.from({ length: 20 }, (_, i) => i), (i) => ok("POST", "/items", { dataCollectionId: busy, dataItem: { id: `w${i}`, data: { n: -i } } }))
      assert.strictEqual(written.length, 20)
      const backup = yield* settled("backup", created.backup.id)
      assert.strictEqual(backup.status, "READY")
    }))
})

describe("data backups across a restart", () => {
  it.live("backups and restorations are kept; one cut off in the middle ends FAILED and its file goes", () =>
    Effect.scoped(Effect.gen(function*() {
      const folder = yield* tempDir("sitefx-backups-")
      const file = join(folder, "site.db")
      const first = yield* onPlatform({ db: file }, Effect.gen(function*() {
        const { books } = yield* library
        const backup = yield* takeBackup
        const restoring = yield* ok("POST", `/wix-data/v2/backups/${backup.id}/restore`, {})
        yield* settled("restoration", restoring.restoration.id)
        return { books, backup: backup.id, restoration: restoring.restoration.id }
      }))
      assert.isTrue(existsSync(join(`${file}.backups`, `${first.backup}.db`)))
      // as if the platform had stopped while a second backup was being taken
      const raw = new DatabaseSync(file)
      raw.prepare("INSERT INTO data_backups (id, status, type, requested_at, actor) VALUES ('cut-off', 'PENDING', 'ON_DEMAND', 0, '{\"kind\":\"none\"}')").run()
      raw.close()
      yield* onPlatform({ db: file }, Effect.gen(function*() {
        const backups = (yield* ok("GET", "/wix-data/v2/backups")).backups as Array<any>
        assert.deepStrictEqual(backups.map((b) => [b.id, b.status]).sort(), [[first.backup, "READY"], ["cut-off", "FAILED"]].sort())
        const restorations = (yield* ok("GET", "/wix-data/v2/backups/restorations")).restorations as Array<any>
        assert.deepStrictEqual(restorations.map((r) => [r.id, r.status]), [[first.restoration, "COMPLETED"]])
        // and the kept backup still restores
        const again = yield* ok("POST", `/wix-data/v2/backups/${first.backup}/partial-restore`, { restorationCollections: [{ dataCollectionId: first.books }] })
        assert.strictEqual((yield* settled("restoration", again.restoration.id)).status, "COMPLETED")
      }))
      assert.deepStrictEqual(readdirSync(`${file}.backups`), [`${first.backup}.db`])
    })))
})
