/**
 * The `sitefx` command. Each command lives in its own module; add it to {@link commands}.
 */
import * as NodeRuntime from "@effect/platform-node/NodeRuntime"
import * as NodeServices from "@effect/platform-node/NodeServices"
import * as Cause from "effect/Cause"
import * as Effect from "effect/Effect"
import * as Exit from "effect/Exit"
import * as Runtime from "effect/Runtime"
import * as Layer from "effect/Layer"
import { CliOutput, Command } from "effect/cli"
import { readFileSync } from "node:fs"
import { catalog } from "./catalog.ts"
import { data } from "./data/command.ts"
import { events } from "./events.ts"
import { logs } from "./logs.ts"
import { members } from "./members.ts"
import { orders } from "./orders.ts"
import { CliFailure, ExitCode, signalEndsNormally } from "./output.ts"
import { serve } from "./serve.ts"

const commands = [serve, data, catalog, orders, events, members, logs] as const

const { version } = JSON.parse(readFileSync(new URL("../../package.json", import.meta.url), "utf8")) as {
  readonly version: string
}

export const sitefx = Command.make("sitefx").pipe(
  Command.withDescription("sitefx: the local platform, and batch jobs for a site's data, store, events and members"),
  Command.withSubcommands(commands)
)

/** An exit code a command set on its way out (an interrupted import says so with 130). */
const presetCode = (): number | undefined => (typeof process.exitCode === "number" ? process.exitCode : undefined)

/**
 * Exit codes: 0 done; 1 some items failed; 2 usage or configuration (a bad flag says what is wrong and
 * exits 2); 130 a batch job stopped by Ctrl-C. SIGINT and SIGTERM are how a server or a tail is asked
 * to stop: after a clean shutdown that is success (they say so with `stopsBySignal`).
 */
const teardown: Runtime.Teardown = (exit, onExit) => {
  if (Exit.isSuccess(exit)) return onExit(presetCode() ?? 0)
  if (Cause.hasInterruptsOnly(exit.cause)) return onExit(presetCode() ?? (signalEndsNormally() ? 0 : ExitCode.interrupted))
  const error = Cause.squash(exit.cause)
  if (error instanceof CliFailure) return onExit(error.exitCode)
  if ((error as { _tag?: unknown })._tag === "ShowHelp") {
    return onExit((error as { errors: ReadonlyArray<unknown> }).errors.length > 0 ? ExitCode.usage : 0)
  }
  return Runtime.defaultTeardown(exit, onExit)
}

/**
 * A usage error reads as every other failure does: what is wrong first, on stderr, then where the help
 * is. The whole help before the error pushed the error off the screen, and onto stdout, where a script
 * reads results.
 */
const presenter = CliOutput.layerPresenter({
  present: (event) =>
    event._tag === "InvalidInvocation"
      ? Effect.sync(() => {
        const lines = event.errors.map((error) => `sitefx: ${error.message}`)
        process.stderr.write(`${lines.join("\n")}\nRun \`${event.commandPath.join(" ")} --help\` for its arguments and flags.\n`)
      })
      : CliOutput.defaultPresenter.present(event)
})

/** A command's failure is one line on stderr, printed here once. */
const program = Command.run(sitefx, { version }).pipe(
  Effect.tapError((error) => (error instanceof CliFailure ? Effect.sync(() => process.stderr.write(`sitefx: ${error.message}\n`)) : Effect.void))
)

// Results piped into a reader that stops early (`sitefx events tail | head -3`): the closed pipe ends
// the command as the reader meant, quietly, instead of an unhandled EPIPE with a stack trace.
process.stdout.on("error", (error: NodeJS.ErrnoException) => {
  if (error.code === "EPIPE") process.exit(presetCode() ?? 0)
  throw error
})

program.pipe(Effect.provide(Layer.merge(NodeServices.layer, presenter)), NodeRuntime.runMain({ teardown }))
