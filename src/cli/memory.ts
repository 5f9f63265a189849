/**
 * Flat memory for long batch jobs. Streaming a million items through one process allocates gigabytes
 * of short-lived garbage (answers, items, lines), and V8 lets its heap grow far past what is live
 * before it collects: an export whose live data is one page of items reached 280 MB of resident memory
 * at 200 000 items. A job that asks for a full collection every few dozen pages stays near its live size
 * instead, at a cost of a few milliseconds a time. The collector is reached through V8's own flag, set
 * at run time, so the command needs no Node option.
 *
 * The young generation is held at the size it has when the job starts (a few MB). V8 grows it, for a
 * process that allocates as fast as an import, to 64 MB semi-spaces (128 MB of resident memory on their
 * own): a million-row import reached 265 MB with no collection asked for, and a full collection then
 * also has the large young generation to go through.
 */
import { setFlagsFromString } from "node:v8"
import { runInNewContext } from "node:vm"

let collect: (() => void) | undefined | null = null

const collector = (): (() => void) | undefined => {
  if (collect !== null) return collect
  try {
    setFlagsFromString("--expose-gc")
    // read by V8 each time it would grow the young generation, so it holds from here on
    setFlagsFromString("--semi-space-growth-factor=1")
    const gc: unknown = runInNewContext("gc")
    collect = typeof gc === "function" ? (gc as () => void) : undefined
  } catch {
    collect = undefined
  }
  return collect
}

/** Call once per unit of work (a page); every `every` calls, the heap is collected. */
export const collectEvery = (every: number): (() => void) => {
  let count = 0
  const gc = collector()
  return () => {
    if (gc !== undefined && ++count % every === 0) gc()
  }
}

