/**
 * `expectRefused`: the assertion of a permissions or validation test. The effect must fail with a
 * platform refusal of the expected status, code and rule; its error is the result, for more checks.
 */
import * as Data from "effect/Data"
import * as Effect from "effect/Effect"

/** What the refusal must be; what is left out is not checked. */
export interface ExpectedRefusal {
  /** The HTTP status, e.g. 403. */
  readonly status?: number
  /** The application code, e.g. `WDE0027`. */
  readonly code?: string
  /** The id of the platform rule that refused, as the refusal's `rule.id` names it (e.g. `data.permission`). */
  readonly rule?: string
}

/** The effect did not end in the refusal expected: it succeeded, or failed otherwise. */
export class UnexpectedOutcome extends Data.TaggedError("UnexpectedOutcome")<{ readonly message: string }> {}

/** What a sitefx error says of a refusal, whichever module's error it is. */
interface Refusal {
  readonly status?: number | undefined
  readonly code?: string | undefined
  readonly rule?: { readonly id?: string } | undefined
}

const readings = (error: unknown): ExpectedRefusal => {
  if (typeof error !== "object" || error === null) return {}
  const { status, code, rule } = error as Refusal
  return { ...(status === undefined ? {} : { status }), ...(code === undefined ? {} : { code }), ...(rule?.id === undefined ? {} : { rule: rule.id }) }
}

const describe = (refusal: ExpectedRefusal) =>
  [`status ${refusal.status ?? "none"}`, `code ${refusal.code ?? "none"}`, `rule ${refusal.rule ?? "none"}`].join(", ")

/**
 * Runs `effect`, which must fail with the refusal `expected` describes; answers its error.
 *
 * @example
 * import { DataItems } from "sitefx"
 * const error = yield* expectRefused(DataItems.insert("Posts", { title: "Hi" }).pipe(asVisitor), { status: 403, rule: "data.permission" })
 */
export const expectRefused = <A, E, R>(effect: Effect.Effect<A, E, R>, expected: ExpectedRefusal): Effect.Effect<E, UnexpectedOutcome, R> =>
  Effect.matchEffect(effect, {
    onSuccess: (value) =>
      Effect.fail(new UnexpectedOutcome({ message: `expected a refusal (${describe(expected)}), but the call succeeded with ${JSON.stringify(value) ?? String(value)}` })),
    onFailure: (error) => {
      const got = readings(error)
      const wrong = (expected.status !== undefined && got.status !== expected.status) ||
        (expected.code !== undefined && got.code !== expected.code) ||
        (expected.rule !== undefined && got.rule !== expected.rule)
      return wrong
        ? Effect.fail(new UnexpectedOutcome({ message: `expected a refusal with ${describe(expected)}; got ${describe(got)}: ${String((error as { message?: unknown })?.message ?? error)}` }))
        : Effect.succeed(error)
    }
  })
