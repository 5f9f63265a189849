/**
 * The rule a refusal names (`details.rule` of the local platform's error bodies), as the client reads
 * it: a check of the `Rule` Schema's shape (wire.ts), written as a table of plain tests because every
 * browser page carries it (test/http/errorBody.property.test.ts holds it to the Schema). A rule of a
 * kind this client does not know, or whose specifics are not its kind's, is left out rather than misread.
 */
import type { Guard } from "./guard.ts"
import { isRecord } from "./isRecord.ts"
import type { Rule as RuleShape } from "./wire.ts"

/** A rule as the `Rule` Schema of wire.ts types it: its kind, id, message and its kind's specifics. */
export type Rule = RuleShape

type Test = (u: unknown) => boolean

const string: Test = (u) => typeof u === "string"
const number: Test = (u) => typeof u === "number"
const optional = (test: Test): Test => (u) => u === undefined || test(u)
const strings: Test = (u) => Array.isArray(u) && u.every(string)
const callerRole = optional((u) => u === "none" || u === "visitor" || u === "member" || u === "admin")
const optionalString = optional(string)

// each kind's specifics, beside the `id` and `message` every rule has
const SPECIFICS: Readonly<Record<string, Readonly<Record<string, Test>>>> = {
  permission: { collection: optionalString, operation: optionalString, required: optionalString, caller: callerRole },
  authentication: { required: optionalString, caller: callerRole },
  validation: { fields: strings },
  bound: { fields: strings, limit: optional(number) },
  throttle: { retryAfterSeconds: number },
  fault: { path: string, status: number },
  "dev-access": {},
  "not-found": {},
  conflict: {},
  precondition: {}
}

/** Checks a rule: its kind picks the specifics it must have. */
export const Rule: Guard<Rule> = (u) => {
  if (!isRecord(u)) return ": expected an object"
  const kind = u["kind"]
  const specifics = typeof kind === "string" && Object.hasOwn(SPECIFICS, kind) ? SPECIFICS[kind]! : undefined
  if (specifics === undefined) return ".kind: expected a rule's kind"
  for (const [key, test] of Object.entries({ id: string, message: string, ...specifics })) {
    if (!test(u[key])) return `.${key}: not what a ${kind} rule holds`
  }
  return undefined
}
