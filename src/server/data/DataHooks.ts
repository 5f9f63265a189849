/**
 * Data hooks for tests: a hook registered through the dev endpoint makes the matching calls on one
 * collection fail as if the site's hook code had thrown, with application error WDE0078 whose
 * `data.jsErrorValue` is the thrown `{name, message, code}` (where clients read a hook's error).
 */
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import type { HookError } from "../../data/DataError.ts"
import { Database } from "../platform/Database.ts"
import type { DataHookName } from "../../dev/wire/data.ts"
import { hookFailed } from "./dataFailures.ts"
import { publicId } from "./environments.ts"

export interface DataHooksShape {
  readonly register: (collectionId: string, hook: DataHookName, error: HookError) => void
  /** Removes every hook, or those of one collection. */
  readonly clear: (collectionId?: string) => void
  /** Throws the hook's failure when one is registered (and hooks are not suppressed). */
  readonly run: (collectionId: string, hook: DataHookName, suppressed?: boolean) => void
  /** The hook's failure, if one would fire. */
  readonly find: (collectionId: string, hook: DataHookName) => HookError | undefined
}

export class DataHooks extends Context.Service<DataHooks, DataHooksShape>()("sitefx/server/data/DataHooks") {
  static readonly layer: Layer.Layer<DataHooks, never, Database> = Layer.effect(
    DataHooks,
    Effect.gen(function*() {
      const db = yield* Database
      const hooks = new Map<string, HookError>()
      const keyOf = (collectionId: string, hook: string) => `${collectionId}\u0000${hook}`
      db.onReset(() => hooks.clear())
      // a collection's hooks hold in both its environments
      const find = (collectionId: string, hook: DataHookName) => hooks.get(keyOf(publicId(collectionId), hook))
      return DataHooks.of({
        register: (collectionId, hook, error) => {
          hooks.set(keyOf(collectionId, hook), error)
        },
        clear: (collectionId) => {
          if (collectionId === undefined) return hooks.clear()
          for (const key of [...hooks.keys()]) if (key.startsWith(`${collectionId}\u0000`)) hooks.delete(key)
        },
        run: (collectionId, hook, suppressed = false) => {
          if (suppressed) return
          const error = find(collectionId, hook)
          if (error !== undefined) throw hookFailed(error)
        },
        find
      })
    })
  )
}
