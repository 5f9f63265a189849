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

/** Adds a fault, or clears them all. */
export const faultAction = runtime.fn(
  (action: { readonly kind: "add"; readonly fault: Faults.FaultRequest } | { readonly kind: "clear" }) =>
    action.kind === "add"
      ? Effect.as(Faults.add(action.fault), { message: `The next ${action.fault.count} request${action.fault.count === 1 ? "" : "s"} under ${action.fault.path} answer ${action.fault.status}.` } satisfies Outcome)
      : Effect.as(Faults.clear, { message: "Every fault is cleared." } satisfies Outcome),
  { reactivityKeys: ["faults"] }
)
