/**
 * sitefx/dev's snapshots against a real platform: saved (a taken name is refused unless overwritten),
 * listed, restored (what changed since is gone), downloaded as a file, and deleted.
 */
import { assert, describe, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import { Members, Snapshots } from "../../src/dev/index.ts"
import { LocalPlatform } from "../../src/server/index.ts"
import { get, registerMember } from "../server/support.ts"
import { onDev } from "./support.ts"

describe("sitefx/dev Snapshots", () => {
  it.layer(LocalPlatform.layer({ seed: "demo" }), { excludeTestServices: true })((it) => {
    it.effect("a snapshot is saved, listed, restored, downloaded and deleted", () =>
      onDev(Effect.gen(function*() {
        const name = `dev-test-${process.pid}`
        const saved = yield* Snapshots.save(name)
        assert.strictEqual(saved.name, name)
        assert.isAtLeast(saved.counts.members, 1)
        assert.isAbove(saved.sizeBytes, 0)
        assert.isFalse(Number.isNaN(Date.parse(saved.createdDate)))
        assert.isTrue((yield* Snapshots.list).some((s) => s.name === name))

        const taken = yield* Effect.flip(Snapshots.save(name))
        assert.strictEqual(taken.status, 409)
        const member = yield* registerMember()
        const again = yield* Snapshots.save(`${name}-later`)
        assert.strictEqual(again.counts.members, saved.counts.members + 1)

        const restored = yield* Snapshots.restore(name)
        assert.strictEqual(restored.snapshot.name, name)
        assert.isAtLeast(restored.tookMs, 0)
        assert.deepStrictEqual(yield* Members.list({ email: member.email }), [])
        yield* Snapshots.restore(`${name}-later`)
        assert.strictEqual((yield* Members.list({ email: member.email })).length, 1)

        assert.strictEqual((yield* Snapshots.save(name, { overwrite: true })).counts.members, saved.counts.members + 1)
        const file = yield* get(Snapshots.filePath(name))
        assert.strictEqual(file.status, 200)
        assert.match(file.headers.get("content-disposition") ?? "", /^attachment/)

        yield* Snapshots.remove(name)
        yield* Snapshots.remove(`${name}-later`)
        assert.isFalse((yield* Snapshots.list).some((s) => s.name.startsWith(name)))
        assert.strictEqual((yield* Effect.flip(Snapshots.restore(name))).status, 404)
      })))
  })
})
