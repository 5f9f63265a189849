/**
 * The `sitefx` command. Each command lives in its own module; add it to {@link commands}.
 */
import { NodeRuntime, NodeServices } from "@effect/platform-node"
import * as Cause from "effect/Cause"
import * as Effect from "effect/Effect"
import * as Exit from "effect/Exit"
import * as Runtime from "effect/Runtime"
import { Command } from "effect/cli"
import { readFileSync } from "node:fs"
import { serve } from "./serve.ts"

const commands = [serve] as const

const { version } = JSON.parse(readFileSync(new URL("../../package.json", import.meta.url), "utf8")) as {
  readonly version: string
}

export const sitefx = Command.make("sitefx").pipe(
  Command.withDescription("sitefx: the local platform and tools for a site's headless APIs"),
  Command.withSubcommands(commands)
)

/** SIGINT and SIGTERM are how a server is asked to stop: after a clean shutdown that is success. */
const teardown: Runtime.Teardown = (exit, onExit) =>
  Exit.isFailure(exit) && Cause.hasInterruptsOnly(exit.cause) ? onExit(0) : Runtime.defaultTeardown(exit, onExit)

Command.run(sitefx, { version }).pipe(Effect.provide(NodeServices.layer), NodeRuntime.runMain({ teardown }))
