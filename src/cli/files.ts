/**
 * JSONL in and out for the catalog jobs: lines read one at a time from a file or standard input (the
 * reader pauses while the job is busy, so memory stays flat however long the file), and an output that
 * waits when the file or the pipe is full. An output file is written beside its name and takes it only
 * when the job succeeds, so a failed export never leaves a truncated file that looks whole.
 */
import * as Effect from "effect/Effect"
import type * as Scope from "effect/Scope"
import * as Stream from "effect/Stream"
import { closeSync, createReadStream, createWriteStream, openSync, readSync } from "node:fs"
import { rename, stat, unlink, writeFile } from "node:fs/promises"
import { createInterface } from "node:readline"
import type { Writable } from "node:stream"
import { type CliFailure, failed, usage } from "./output.ts"

const why = (error: unknown): string => {
  const e = error as { code?: unknown; message?: unknown }
  return typeof e.code === "string" ? e.code : typeof e.message === "string" ? e.message : String(error)
}

/** A file to read: a usage error when it is not there (`-` is standard input). */
export const checkReadable = (file: string): Effect.Effect<void, CliFailure> =>
  file === "-"
    ? Effect.void
    : Effect.tryPromise({ try: () => stat(file), catch: (e) => usage(`cannot read ${file} (${why(e)})`) }).pipe(
      Effect.flatMap((s) => (s.isFile() ? Effect.void : Effect.fail(usage(`${file} is not a file`))))
    )

/** One line of a file, numbered from 1. */
export interface NumberedLine {
  readonly n: number
  readonly text: string
}

/** The lines of a file (or of standard input for `-`), numbered. */
export const readLines = (file: string): Stream.Stream<NumberedLine, CliFailure> =>
  Stream.suspend(() => {
    const input = file === "-" ? process.stdin : createReadStream(file)
    const lines = createInterface({ input, crlfDelay: Infinity })
    let n = 0
    return Stream.fromAsyncIterable(lines, (e) => failed(`reading ${file === "-" ? "standard input" : file} failed (${why(e)})`)).pipe(
      Stream.map((text) => ({ n: ++n, text })),
      Stream.ensuring(Effect.sync(() => lines.close()))
    )
  })

const LF = 10
const CR = 13
const QUOTE = 34
const COMMA = 44
const BETWEEN = 0
const FIELD_START = 1
const UNQUOTED = 2
const QUOTED = 3
const QUOTE_IN_QUOTED = 4

/**
 * The records of a file, for a progress bar's total: unknown for standard input. `lines` counts the
 * lines that hold more than blanks (a JSONL reader passes the others over); `csv` counts CSV records,
 * header included, as the CSV reader finds them: a line break inside quotes does not end one, and
 * blank lines are none. Large binary reads; lines are found by the engine's own search for line
 * breaks, and a line's bytes are looked at only until one is not blank (its first, in a JSONL file).
 */
export const countRecords = (file: string, kind: "lines" | "csv"): number | undefined => {
  if (file === "-") return undefined
  const fd = openSync(file, "r")
  try {
    const buffer = Buffer.allocUnsafe(1 << 20)
    return kind === "lines" ? countLines(fd, buffer) : countCsv(fd, buffer)
  } finally {
    closeSync(fd)
  }
}

const isBlank = (c: number): boolean => c === 32 || c === 9 || c === CR

const countLines = (fd: number, buffer: Buffer): number => {
  let records = 0
  // the line being read holds a non-blank (it may have begun in an earlier read)
  let filled = false
  for (;;) {
    const n = readSync(fd, buffer, 0, buffer.length, null)
    if (n === 0) break
    const bytes = n === buffer.length ? buffer : buffer.subarray(0, n)
    let from = 0
    while (from < n) {
      const lf = bytes.indexOf(LF, from)
      const end = lf < 0 ? n : lf
      for (let i = from; !filled && i < end; i++) if (!isBlank(bytes[i]!)) filled = true
      if (lf < 0) break
      if (filled) records++
      filled = false
      from = lf + 1
    }
  }
  return records + (filled ? 1 : 0)
}

const countCsv = (fd: number, buffer: Buffer): number => {
  let records = 0
  // the CSV reader's states, BETWEEN between records
  let state: number = BETWEEN
  for (;;) {
    const n = readSync(fd, buffer, 0, buffer.length, null)
    if (n === 0) break
    for (let i = 0; i < n; i++) {
      const c = buffer[i]!
      if (state === QUOTED) {
        if (c === QUOTE) state = QUOTE_IN_QUOTED
      } else if (c === LF || c === CR) {
        if (state !== BETWEEN) records++
        state = BETWEEN
      } else if (c === COMMA) {
        state = FIELD_START
      } else if (c === QUOTE) {
        // opens a field, or is the second of a `""`; inside an unquoted field it is text
        if (state !== UNQUOTED) state = QUOTED
      } else state = UNQUOTED
    }
  }
  return records + (state === BETWEEN ? 0 : 1)
}

/** Where a job writes lines; `finish` makes a file whole (nothing for standard output). */
export interface Output {
  readonly write: (text: string) => Effect.Effect<void, CliFailure>
  readonly finish: Effect.Effect<void, CliFailure>
}

const writeTo = (stream: Writable, name: string, problem: () => unknown) => (text: string): Effect.Effect<void, CliFailure> =>
  Effect.callback<void, CliFailure>((resume) => {
    const broken = problem()
    if (broken !== undefined) return resume(Effect.fail(failed(`writing ${name} failed (${why(broken)})`)))
    if (stream.write(text)) return resume(Effect.void)
    const onDrain = () => {
      stream.off("error", onError)
      resume(Effect.void)
    }
    const onError = (e: unknown) => {
      stream.off("drain", onDrain)
      resume(Effect.fail(failed(`writing ${name} failed (${why(e)})`)))
    }
    stream.once("drain", onDrain)
    stream.once("error", onError)
  })

const end = (stream: Writable) => new Promise<void>((resolve) => stream.end(() => resolve()))

/**
 * Standard output, or a file written as `<file>.partial` that `finish` renames to `<file>`; when the
 * scope closes without `finish` (a failure, Ctrl-C) the partial file is removed.
 */
export const openOutput = (file: string | undefined): Effect.Effect<Output, CliFailure, Scope.Scope> => {
  if (file === undefined) {
    let problem: unknown
    process.stdout.on("error", (e) => {
      problem = e
    })
    return Effect.succeed({ write: writeTo(process.stdout, "standard output", () => problem), finish: Effect.void })
  }
  const partial = `${file}.partial`
  let finished = false
  return Effect.acquireRelease(
    Effect.tryPromise({
      try: () =>
        new Promise<{ stream: Writable; problem: () => unknown }>((resolve, reject) => {
          const stream = createWriteStream(partial)
          let problem: unknown
          stream.once("error", reject)
          stream.once("open", () => {
            stream.off("error", reject)
            stream.on("error", (e) => {
              problem = e
            })
            resolve({ stream, problem: () => problem })
          })
        }),
      catch: (e) => usage(`cannot write ${file} (${why(e)})`)
    }),
    ({ stream }) => (finished ? Effect.void : Effect.promise(() => end(stream).then(() => unlink(partial)).catch(() => undefined)))
  ).pipe(Effect.map(({ problem, stream }) => ({
    write: writeTo(stream, file, problem),
    finish: Effect.tryPromise({
      try: async () => {
        await end(stream)
        const broken = problem()
        if (broken !== undefined) throw broken
        await rename(partial, file)
        finished = true
      },
      catch: (e) => failed(`writing ${file} failed (${why(e)})`)
    })
  })))
}

/** Writes a JSON report file. */
export const writeJsonFile = (file: string, value: unknown): Effect.Effect<void, CliFailure> =>
  Effect.tryPromise({ try: () => writeFile(file, `${JSON.stringify(value, null, 2)}\n`), catch: (e) => failed(`writing ${file} failed (${why(e)})`) })
