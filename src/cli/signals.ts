/**
 * How a long job of the command takes over Ctrl-C and SIGTERM: the first signal asks the job to stop
 * where it can (it reads `stop.requested` between steps) and says what happens now; a second one
 * says what is left and quits at once with the interrupted exit code. The listeners the process had
 * before come back when the job's scope ends.
 */
import * as Effect from "effect/Effect"
import { ExitCode } from "./output.ts"

/** What a job says on each signal: `stopping` on the first, `quitting` (after `beforeQuit` runs) on the second. */
export interface SignalWords {
  readonly stopping: () => string
  readonly quitting: () => string
  readonly beforeQuit?: () => void
}

/** Takes over Ctrl-C and SIGTERM for the scope; `stop.requested` turns true at the first one. */
export const stopOnSignals = (words: SignalWords) =>
  Effect.acquireRelease(
    Effect.sync(() => {
      const saved = { int: process.listeners("SIGINT"), term: process.listeners("SIGTERM") }
      process.removeAllListeners("SIGINT")
      process.removeAllListeners("SIGTERM")
      const stop = { requested: false }
      const onSignal = () => {
        if (stop.requested) {
          words.beforeQuit?.()
          process.stderr.write(`\nsitefx: stopped at once; ${words.quitting()}\n`)
          process.exit(ExitCode.interrupted)
        }
        stop.requested = true
        process.stderr.write(`\nsitefx: stopping: ${words.stopping()}\n`)
      }
      process.on("SIGINT", onSignal)
      process.on("SIGTERM", onSignal)
      const restore = () => {
        process.removeListener("SIGINT", onSignal)
        process.removeListener("SIGTERM", onSignal)
        for (const l of saved.int) process.on("SIGINT", l as () => void)
        for (const l of saved.term) process.on("SIGTERM", l as () => void)
      }
      return { stop, restore }
    }),
    ({ restore }) => Effect.sync(restore)
  )
