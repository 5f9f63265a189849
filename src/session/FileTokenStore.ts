/**
 * A TokenStore in a JSON file (mode 0600), for CLIs and batch jobs that keep a member session between
 * runs. Node only: import it from `sitefx/session/file`, never from browser code.
 */
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import { mkdir, readFile, rename, writeFile } from "node:fs/promises"
import { dirname } from "node:path"
import { parseStored, serializeStored, TokenStore } from "./TokenStore.ts"

// Each save writes its own temp file: two saves sharing one would interleave their bytes.
let saves = 0

/**
 * A TokenStore in the JSON file at `path` (its folder made when missing), so a CLI keeps its member
 * session between runs.
 *
 * @example
 * import { siteSession } from "sitefx/session"
 * import * as FileTokenStore from "sitefx/session/file"
 * const SessionLive = siteSession({ tokens: FileTokenStore.layer(".sitefx/session.json") })
 */
export const layer = (path: string): Layer.Layer<TokenStore> =>
  Layer.succeed(TokenStore, TokenStore.of({
    load: Effect.promise(() => readFile(path, "utf8").then(parseStored, () => parseStored(undefined))),
    // write-then-rename so a crash never leaves a half-written file behind
    save: (session) =>
      Effect.promise(async () => {
        await mkdir(dirname(path), { recursive: true })
        const tmp = `${path}.${process.pid}.${++saves}.tmp`
        await writeFile(tmp, serializeStored(session), { mode: 0o600 })
        await rename(tmp, path)
      }).pipe(Effect.catchDefect((cause) => Effect.logWarning("sitefx: could not save the session file", String(cause))))
  }))
