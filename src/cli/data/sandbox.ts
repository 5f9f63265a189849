/**
 * `sitefx data sandbox [COLLECTION] [enable|disable|sync]`: collections' sandboxes on the local platform
 * (sitefx/data/sandbox). A sync replaces the target environment's items, so it asks first, as a
 * removal does (`--yes` when not on a terminal); so does disabling, which removes the sandbox's items.
 */
import * as Effect from "effect/Effect"
import type { DataFailure } from "../../data/calls.ts"
import * as Sandbox from "../../data/Sandbox.ts"
import { type OutputMode, printResult, usage } from "../output.ts"
import { confirm } from "./admin.ts"

const describeState = (s: Sandbox.SandboxState) => `${s.dataCollectionId.padEnd(24)} live ${String(s.liveItems).padStart(7)}  sandbox ${String(s.sandboxItems).padStart(7)}`

/** A real site has no such endpoint: say where sandboxes live there. */
const localOnly = <A, R>(effect: Effect.Effect<A, DataFailure, R>) =>
  effect.pipe(Effect.catchIf(
    (e: DataFailure) => e._tag === "DataError" && e.status === 404 && e.code !== "SANDBOX_NOT_ENABLED" && e.code !== "WDE0025",
    () => Effect.fail(usage("this platform has no sandbox endpoints: sandboxes are managed here on a sitefx local platform (`sitefx serve`), and in the dashboard on a real site"))
  ))

export const runSandboxList = (options: { readonly mode: OutputMode }) =>
  Effect.gen(function*() {
    const all = yield* localOnly(Sandbox.list)
    yield* printResult(options.mode, { sandboxes: all }, all.length === 0 ? "no collection has a sandbox" : all.map(describeState).join("\n"))
  })

export const runSandboxEnable = (options: { readonly collection: string; readonly empty: boolean; readonly mode: OutputMode }) =>
  Effect.gen(function*() {
    const state = yield* localOnly(Sandbox.enable(options.collection, { empty: options.empty }))
    yield* printResult(
      options.mode,
      { sandbox: state },
      `enabled the sandbox of ${options.collection}${options.empty ? ", empty" : `, a copy of its ${state.liveItems} live items`}`
    )
  })

export const runSandboxDisable = (options: { readonly collection: string; readonly yes: boolean; readonly mode: OutputMode }) =>
  Effect.gen(function*() {
    yield* confirm(options.yes, `disable the sandbox of ${options.collection} and remove its items`)
    yield* localOnly(Sandbox.disable(options.collection))
    yield* printResult(options.mode, { collection: options.collection, disabled: true }, `disabled the sandbox of ${options.collection}`)
  })

export const runSandboxSync = (options: { readonly collection: string; readonly to: "live" | "sandbox"; readonly yes: boolean; readonly mode: OutputMode }) =>
  Effect.gen(function*() {
    const from = options.to === "live" ? "sandbox" : "live"
    yield* confirm(options.yes, `replace the ${options.to} items of ${options.collection} with its ${from} items`)
    const synced = yield* localOnly(options.to === "live" ? Sandbox.syncToLive(options.collection) : Sandbox.syncFromLive(options.collection))
    yield* printResult(options.mode, synced, `copied ${synced.itemsCopied} ${from} items of ${options.collection} to ${options.to}`)
  })
