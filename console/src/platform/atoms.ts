/** The clock and faults panel's atoms: the platform's clock and its pending faults, and changes to them. */
import * as Effect from "effect/Effect"
import { Atom } from "effect/reactivity"
import { Clock, Faults } from "sitefx/dev"
import { runtime } from "../runtime.ts"
import type { Outcome } from "../shell/Result.tsx"

export const clockAtom = runtime.atom(Clock.get).pipe(Atom.withReactivity(["clock"]))

/** Sets the clock's skew in seconds. */
export const setSkew = runtime.fn(
  (seconds: number) => Effect.map(Clock.setSkew(seconds), (c): Outcome => ({ message: `The platform's clock now runs ${describeSkew(c.skewSeconds)}.` })),
  { reactivityKeys: ["clock"] }
)

/** A skew in words: "2 hours ahead", "in step". */
export const describeSkew = (seconds: number): string => {
  if (seconds === 0) return "in step with this machine"
  const abs = Math.abs(seconds)
  const [n, unit] = abs % 86400 === 0 ? [abs / 86400, "day"] : abs % 3600 === 0 ? [abs / 3600, "hour"] : abs % 60 === 0 ? [abs / 60, "minute"] : [abs, "second"]
  return `${n} ${unit}${n === 1 ? "" : "s"} ${seconds > 0 ? "ahead" : "behind"}`
}

export const faultsAtom = runtime.atom(Faults.list).pipe(Atom.withReactivity(["faults"]))

/** What a fault does to the requests it meets, in words: "answer 503", "reset after the route ran". */
export const describeFault = (f: Faults.FaultRequest): string => {
  switch (f.kind ?? "status") {
    case "status":
      return `answer ${f.status}${f.retryAfter === undefined ? "" : `, retry after ${f.retryAfter} s`}`
    case "latency":
      return `wait ${f.ms} ms`
    case "reset":
      return f.when === "after" ? "reset after the route ran" : "reset before the route runs"
    case "truncate":
      return "cut the answer short"
    case "slow":
      return `send the answer over ${f.ms} ms`
  }
}

/** Which requests a fault meets, in words: "the next 2 requests", "each request with probability 0.1". */
export const describeReach = (f: Faults.FaultRequest): string => {
  const method = f.method === undefined ? "" : `${f.method.toUpperCase()} `
  const counted = f.count === undefined ? "" : `the next ${f.count} ${method}request${f.count === 1 ? "" : "s"}`
  if (f.rate === undefined) return counted
  const drawn = `each ${method}request with probability ${f.rate} (seed ${f.seed ?? 1})`
  return counted === "" ? drawn : `${drawn}, at most ${f.count}`
}

/** Adds a fault, removes one, or clears them all. */
export const faultAction = runtime.fn(
  (action: { readonly kind: "add"; readonly fault: Faults.FaultRequest } | { readonly kind: "remove"; readonly id: string } | { readonly kind: "clear" }) => {
    switch (action.kind) {
      case "add":
        return Effect.as(Faults.add(action.fault), {
          message: `Under ${action.fault.path}, ${describeReach(action.fault)}: ${describeFault(action.fault)}.`
        } satisfies Outcome)
      case "remove":
        return Effect.as(Faults.remove(action.id), { message: `Fault ${action.id} is removed.` } satisfies Outcome)
      case "clear":
        return Effect.as(Faults.clear, { message: "Every fault is cleared." } satisfies Outcome)
    }
  },
  { reactivityKeys: ["faults"] }
)
