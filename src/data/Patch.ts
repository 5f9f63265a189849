/**
 * Immutable patches: field modifications applied on the platform without reading the item first.
 *
 * @example
 * declare const id: string
 * yield* DataItems.patch("Posts", id).incrementField("likes", 1).appendToArray("tags", "hot").run
 */
import * as Effect from "effect/Effect"
import type { PlatformError } from "../http/PlatformError.ts"
import { type DataError, invalid, WDE } from "./DataError.ts"
import type { FieldModification } from "./wire/index.ts"

/** Immutable field modifications (`DataItems.patch`, `bulkPatch`, `patchByFilter`); `run` sends them. */
export class Patch<A, R = never> {
  readonly modifications: ReadonlyArray<FieldModification>
  readonly error: DataError | undefined
  readonly runner: (modifications: ReadonlyArray<FieldModification>) => Effect.Effect<A, DataError | PlatformError, R>

  constructor(
    runner: (modifications: ReadonlyArray<FieldModification>) => Effect.Effect<A, DataError | PlatformError, R>,
    modifications: ReadonlyArray<FieldModification> = [],
    error?: DataError
  ) {
    this.runner = runner
    this.modifications = modifications
    this.error = error
  }

  private add(op: string, fieldPath: string, modification: Omit<FieldModification, "fieldPath">): Patch<A, R> {
    if (typeof fieldPath !== "string" || fieldPath === "") {
      return new Patch(this.runner, this.modifications, this.error ?? invalid(WDE.emptyString, `Invalid ${op} parameter. ${op} field must be a non-empty string.`, op))
    }
    return new Patch(this.runner, [...this.modifications, { fieldPath, ...modification }], this.error)
  }

  setField(fieldPath: string, value: unknown): Patch<A, R> {
    return this.add(".setField", fieldPath, { action: "SET_FIELD", setFieldOptions: { value } })
  }
  removeField(fieldPath: string): Patch<A, R> {
    return this.add(".removeField", fieldPath, { action: "REMOVE_FIELD" })
  }
  /** Adds `by` (a number) to a numeric field. */
  incrementField(fieldPath: string, by: number): Patch<A, R> {
    if (typeof by !== "number" || !Number.isFinite(by)) {
      return new Patch(this.runner, this.modifications, this.error ?? invalid(WDE.notANumber, `Invalid .incrementField parameter [${typeof by}]. .incrementField parameter must be a number.`, ".incrementField"))
    }
    return this.add(".incrementField", fieldPath, { action: "INCREMENT_FIELD", incrementFieldOptions: { value: by } })
  }
  appendToArray(fieldPath: string, value: unknown): Patch<A, R> {
    return this.add(".appendToArray", fieldPath, { action: "APPEND_TO_ARRAY", appendToArrayOptions: { value } })
  }
  removeFromArray(fieldPath: string, value: unknown): Patch<A, R> {
    return this.add(".removeFromArray", fieldPath, { action: "REMOVE_FROM_ARRAY", removeFromArrayOptions: { value } })
  }

  get run(): Effect.Effect<A, DataError | PlatformError, R> {
    return Effect.suspend(() => (this.error === undefined ? this.runner(this.modifications) : Effect.fail(this.error)))
  }
}
