/**
 * How the batch commands talk to the person or the script that runs them.
 *
 * - stdout carries results (and an export's items when it has no `--out`); stderr carries progress and
 *   errors, so `sitefx data export Posts > posts.jsonl` still shows progress on the terminal.
 * - Progress: a live bar on a terminal; plain lines every few seconds when stderr is not one (CI logs);
 *   JSON lines with `--json`; nothing with `--quiet`.
 * - Failures are one line (what, why, what to do) and an exit code: 0 all done, 1 some items failed,
 *   2 usage or configuration, 130 interrupted.
 */
import * as Context from "effect/Context"
import * as Data from "effect/Data"
import type { PacingStats } from "../http/RateLimit.ts"
import * as Effect from "effect/Effect"
import * as Runtime from "effect/Runtime"
import { Flag } from "effect/cli"

export const ExitCode = { ok: 0, itemsFailed: 1, usage: 2, interrupted: 130 } as const

/**
 * A command that ends with a message and an exit code. It is printed once by the command runner (not
 * logged with a stack trace), and the runtime exits with its code.
 */
export class CliFailure extends Data.TaggedError("CliFailure")<{
  readonly message: string
  readonly exitCode: number
}> {
  override readonly [Runtime.errorReported] = false
  override get [Runtime.errorExitCode](): number {
    return this.exitCode
  }
}

let signalIsTheEnd = false

/**
 * For commands that run until they are told to stop (a server, a tail): Ctrl-C or SIGTERM is then their
 * normal end and exits 0. Any other command stopped by a signal exits 130.
 */
export const stopsBySignal = (): void => {
  signalIsTheEnd = true
}

export const signalEndsNormally = (): boolean => signalIsTheEnd

export const usage = (message: string) => new CliFailure({ message, exitCode: ExitCode.usage })
export const failed = (message: string) => new CliFailure({ message, exitCode: ExitCode.itemsFailed })

export type OutputMode = "tty" | "plain" | "json" | "quiet"

/** The flags every batch command takes for its output. */
export const outputFlags = {
  quiet: Flag.Boolean("quiet").pipe(Flag.withAlias("q"), Flag.withDescription("Print no progress, only errors and the result"), Flag.withDefault(false)),
  json: Flag.Boolean("json").pipe(Flag.withDescription("Machine-readable output: the result as JSON on stdout, progress as JSON lines on stderr"), Flag.withDefault(false))
}

export interface OutputFlags {
  readonly quiet: boolean
  readonly json: boolean
}

/** Plain progress lines come this often (SITEFX_PROGRESS_SECONDS sets it, for logs that want more or fewer). */
const plainEverySeconds = (): number => {
  const given = Number(process.env["SITEFX_PROGRESS_SECONDS"])
  return Number.isFinite(given) && given > 0 ? given : 5
}

export const modeOf = (flags: OutputFlags): OutputMode =>
  flags.json ? "json" : flags.quiet ? "quiet" : process.stderr.isTTY === true ? "tty" : "plain"

const grouped = (n: number): string => Math.round(n).toString().replace(/\B(?=(\d{3})+(?!\d))/g, " ")

const clock = (seconds: number): string => {
  if (!Number.isFinite(seconds) || seconds < 0) return "--:--"
  const s = Math.round(seconds)
  const h = Math.floor(s / 3600)
  const m = Math.floor((s % 3600) / 60)
  const rest = String(s % 60).padStart(2, "0")
  return h > 0 ? `${h}:${String(m).padStart(2, "0")}:${rest}` : `${m}:${rest}`
}

export interface ProgressSnapshot {
  readonly label: string
  readonly done: number
  readonly total: number | undefined
  readonly perSecond: number
  readonly etaSeconds: number | undefined
  readonly elapsedSeconds: number
  /** The rate limit the calls are paced to, and how long they wait for it now: `paced 200/min, waiting 0:42`. */
  readonly pace?: string | undefined
}

/** One long piece of work's progress. `update` is cheap: drawing happens on a timer. */
export interface Progress {
  readonly update: (done: number) => void
  readonly setTotal: (total: number | undefined) => void
  /** Stops drawing and leaves a final line (not in quiet mode). */
  readonly finish: (suffix?: string) => void
}

const BAR = 24

/** The text of a progress line: `12 000/100 000 items (12%)  3 400/s  ETA 0:26`. */
export const describeProgress = (p: ProgressSnapshot, unit: string): string => {
  const count = p.total === undefined ? `${grouped(p.done)} ${unit}` : `${grouped(p.done)}/${grouped(p.total)} ${unit}`
  const percent = p.total === undefined || p.total === 0 ? "" : ` (${Math.floor((100 * p.done) / p.total)}%)`
  const eta = p.etaSeconds === undefined ? "" : `  ETA ${clock(p.etaSeconds)}`
  return `${p.label}: ${count}${percent}  ${grouped(p.perSecond)}/s${eta}${p.pace === undefined ? "" : `  (${p.pace})`}`
}

/**
 * What pacing adds to a progress line: the limit and any wait, and the least time the rest can take at
 * that limit (the calls still to make, at the items a call has carried so far, spread over the windows
 * they need), so the time left is not read off a burst that the limit is about to stop.
 */
export const pacedProgress = (stats: PacingStats, done: number, total: number | undefined, nowMillis: number): { readonly pace: string; readonly floorSeconds: number | undefined } | undefined => {
  const limit = stats.limit
  if (limit === undefined) return undefined
  const per = limit.windowMillis === 60_000 ? "min" : `${limit.windowMillis / 1000}s`
  const waiting = stats.waitingUntil > nowMillis ? `, waiting ${clock((stats.waitingUntil - nowMillis) / 1000)}` : ""
  const throttled = stats.throttled > 0 ? `, ${grouped(stats.throttled)} × 429` : ""
  const pace = `paced ${grouped(limit.requests)}/${per}${waiting}${throttled}`
  if (total === undefined || done <= 0 || stats.calls <= 0) return { pace, floorSeconds: undefined }
  const callsLeft = Math.ceil(Math.max(0, total - done) / (done / stats.calls))
  return { pace, floorSeconds: (callsLeft * limit.windowMillis) / limit.requests / 1000 }
}

const bar = (p: ProgressSnapshot): string => {
  if (p.total === undefined || p.total === 0) return ""
  const filled = Math.min(BAR, Math.round((BAR * p.done) / p.total))
  return `[${"#".repeat(filled)}${".".repeat(BAR - filled)}] `
}

/**
 * Starts reporting progress. Rates are over the last few seconds (a window), so a stall shows at once
 * and the ETA follows the current pace rather than the average since the start.
 */
export const startProgress = (mode: OutputMode, label: string, unit: string, total?: number, pacing?: () => PacingStats | undefined): Progress => {
  const started = performance.now()
  let done = 0
  let totalNow = total
  const window: Array<{ at: number; done: number }> = [{ at: started, done: 0 }]
  let lastWidth = 0

  const snapshot = (): ProgressSnapshot => {
    const now = performance.now()
    window.push({ at: now, done })
    while (window.length > 2 && now - window[0]!.at > 5000) window.shift()
    const first = window[0]!
    const span = (now - first.at) / 1000
    const perSecond = span > 0.2 ? (done - first.done) / span : done / Math.max((now - started) / 1000, 0.001)
    const byRate = totalNow === undefined || perSecond <= 0 ? undefined : Math.max(0, (totalNow - done) / perSecond)
    const stats = pacing?.()
    const paced = stats === undefined ? undefined : pacedProgress(stats, done, totalNow, Date.now())
    const floor = paced?.floorSeconds
    const etaSeconds = floor === undefined ? byRate : Math.max(floor, byRate ?? 0)
    return { label, done, total: totalNow, perSecond, etaSeconds, elapsedSeconds: (now - started) / 1000, pace: paced?.pace }
  }

  const draw = (final: boolean, suffix = "") => {
    const p = snapshot()
    switch (mode) {
      case "quiet":
        return
      case "json":
        process.stderr.write(`${JSON.stringify({ progress: label, done: p.done, total: p.total ?? null, perSecond: Math.round(p.perSecond), ...(p.pace === undefined ? {} : { pace: p.pace }), final })}\n`)
        return
      case "plain":
        process.stderr.write(`${describeProgress(p, unit)}${suffix}\n`)
        return
      case "tty": {
        const width = process.stderr.columns > 0 ? process.stderr.columns : 100
        const text = `${bar(p)}${describeProgress(p, unit)}${suffix}`.slice(0, Math.max(20, width - 1))
        process.stderr.write(`\r${text}${" ".repeat(Math.max(0, lastWidth - text.length))}${final ? "\n" : ""}`)
        lastWidth = text.length
      }
    }
  }

  const every = mode === "tty" ? 100 : plainEverySeconds() * 1000
  const timer = mode === "quiet" ? undefined : setInterval(() => draw(false), every)
  timer?.unref()
  let finished = false
  return {
    update: (n) => {
      done = n
    },
    setTotal: (n) => {
      totalNow = n
    },
    finish: (suffix) => {
      if (finished) return
      finished = true
      if (timer !== undefined) clearInterval(timer)
      draw(true, suffix)
    }
  }
}

/** The pacing of the site a command works on (`withSite` gives it), for its progress line; none elsewhere. */
export const SitePacing = Context.Reference<(() => PacingStats) | undefined>("sitefx/cli/SitePacing", { defaultValue: () => undefined })

/** What pacing did over a command's run, for its report: the limit in force (`400/60s`, null when none), the calls it let through, the 429s met. */
export interface PacingReport {
  readonly limit: string | null
  readonly calls: number
  readonly throttled: number
}

/** The site's pacing so far as a report (null when the command's site has no pacer). */
export const pacingReport: Effect.Effect<PacingReport | null> = Effect.map(SitePacing, (pacing) => {
  const stats = pacing?.()
  if (stats === undefined) return null
  return { limit: stats.limit === undefined ? null : `${stats.limit.requests}/${stats.limit.windowMillis / 1000}s`, calls: stats.calls, throttled: stats.throttled }
})

/** A summary's words for its pacing: nothing when no limit held it and no 429 met it. */
export const pacingText = (pacing: PacingReport | null): string =>
  pacing === null || (pacing.limit === null && pacing.throttled === 0)
    ? ""
    : `; paced${pacing.limit === null ? "" : ` at ${pacing.limit}`}, ${grouped(pacing.calls)} calls, ${grouped(pacing.throttled)} × 429`

/** Progress as a scoped resource: it stops drawing however the work ends; on a paced site it shows the pace. */
export const withProgress = <A, E, R>(
  mode: OutputMode,
  label: string,
  unit: string,
  total: number | undefined,
  use: (progress: Progress) => Effect.Effect<A, E, R>
): Effect.Effect<A, E, R> =>
  Effect.acquireUseRelease(
    Effect.flatMap(SitePacing, (pacing) => Effect.sync(() => startProgress(mode, label, unit, total, pacing))),
    use,
    (progress) => Effect.sync(() => progress.finish())
  )

/** Prints a command's result: JSON on stdout with `--json`, else the text (unless it is empty). */
export const printResult = (mode: OutputMode, json: unknown, text: string): Effect.Effect<void> =>
  Effect.sync(() => {
    if (mode === "json") process.stdout.write(`${JSON.stringify(json)}\n`)
    else if (text !== "") process.stdout.write(text.endsWith("\n") ? text : `${text}\n`)
  })

/** A note for the person at the terminal (stderr; not with `--json` or `--quiet`). */
export const note = (mode: OutputMode, text: string): Effect.Effect<void> =>
  Effect.sync(() => {
    if (mode === "tty" || mode === "plain") process.stderr.write(`${text}\n`)
  })
