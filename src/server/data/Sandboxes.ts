/**
 * Sandbox administration on the local platform (see environments.ts for how a sandbox is stored):
 * enabling a collection's sandbox (as a copy of its live items, or empty), disabling it (its items go),
 * and syncing one environment onto the other. A sync replaces the target's items, and the references
 * they hold, with the source's, ids, dates and owners kept; it is one transaction, so a reader sees the
 * target before or after it, never between. The site's event log records item changes of LIVE calls,
 * not a sync: a sync is an administrator's bulk replacement, like a restore.
 */
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import type { SandboxState, SyncDirection } from "../../data/wire/index.ts"
import { Database } from "../platform/Database.ts"
import { DataCollections } from "./DataCollections.ts"
import { EngineFailure } from "../store/engineFailures.ts"
import { isSandboxKey, publicId, sandboxKey } from "./environments.ts"
import { ItemStore } from "./ItemStore.ts"
import { References } from "./References.ts"
import { sql } from "../store/sql.ts"


export interface SandboxesShape {
  readonly list: () => ReadonlyArray<SandboxState>
  /** Enables the collection's sandbox, filled with a copy of its live items unless `empty`; 409 when enabled already. */
  readonly enable: (id: string, options: { readonly empty?: boolean | undefined }) => SandboxState
  /** Disables the sandbox and removes its items; 404 when none is enabled. */
  readonly disable: (id: string) => void
  /** Makes the target environment's items (and their references) those of the source; the count copied. */
  readonly sync: (id: string, direction: SyncDirection) => { readonly state: SandboxState; readonly itemsCopied: number }
}

/** Rows copied per statement batch. */
const CHUNK = 1000

export class Sandboxes extends Context.Service<Sandboxes, SandboxesShape>()("sitefx/server/data/Sandboxes") {
  static readonly layer: Layer.Layer<Sandboxes, never, Database | DataCollections | ItemStore | References> = Layer.effect(
    Sandboxes,
    Effect.gen(function*() {
      const db = yield* Database
      const collections = yield* DataCollections
      const items = yield* ItemStore
      const references = yield* References

      const stateOf = (id: string): SandboxState => ({
        dataCollectionId: id,
        liveItems: items.count(id, sql("1")),
        sandboxItems: items.count(sandboxKey(id), sql("1"))
      })

      const requireSandbox = (id: string) => {
        collections.require(id)
        if (!collections.hasSandbox(id)) {
          throw new EngineFailure({ status: 404, code: "SANDBOX_NOT_ENABLED", description: `The ${id} collection has no sandbox.` })
        }
      }

      /** The items of `from` replace those of `to`, in order of creation; the count copied. */
      const copyItems = (from: string, to: string): number => {
        items.truncate(to)
        let after = 0
        let copied = 0
        for (;;) {
          const rows = items.select(from, "seq, id, data, owner", sql("seq > ?", after), sql("ORDER BY seq LIMIT ?", CHUNK))
          if (rows.length === 0) return copied
          items.insertMany(to, rows.map((r) => {
            const text = String(r.data)
            return { id: String(r.id), text, data: JSON.parse(text), owner: typeof r.owner === "string" ? r.owner : undefined }
          }))
          copied += rows.length
          after = Number(rows[rows.length - 1]!.seq)
        }
      }

      /** A reference target as seen from the other environment: sandbox keys to live ids, live ids to sandboxes where enabled. */
      const toLive = (key: string) => publicId(key)
      const toSandbox = (key: string) => (!isSandboxKey(key) && collections.hasSandbox(key) ? sandboxKey(key) : key)

      const copy = (from: string, to: string, target: (key: string) => string) => {
        const copied = copyItems(from, to)
        references.copyReferences(from, to, target)
        return copied
      }

      return Sandboxes.of({
        list: () => collections.sandboxes().map(stateOf),
        enable: (id, options) =>
          db.transaction(() => {
            collections.require(id)
            if (collections.hasSandbox(id)) {
              throw new EngineFailure({ status: 409, code: "ALREADY_EXISTS", description: `The ${id} collection has a sandbox already.` })
            }
            collections.setSandbox(id, true)
            if (options.empty !== true) copy(id, sandboxKey(id), toSandbox)
            return stateOf(id)
          }),
        disable: (id) =>
          db.transaction(() => {
            requireSandbox(id)
            items.truncate(sandboxKey(id))
            references.forgetCollection(sandboxKey(id))
            collections.setSandbox(id, false)
          }),
        sync: (id, direction) =>
          db.transaction(() => {
            requireSandbox(id)
            const itemsCopied = direction === "SANDBOX_TO_LIVE"
              ? copy(sandboxKey(id), id, toLive)
              : copy(id, sandboxKey(id), toSandbox)
            return { state: stateOf(id), itemsCopied }
          })
      })
    })
  )
}

