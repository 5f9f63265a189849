/**
 * How every screen shows an atom's result: a labelled loading state, the error said plainly (with a way
 * to try again), or the value; while a refresh runs the old value stays and says it is updating.
 */
import * as Cause from "effect/Cause"
import { AsyncResult } from "effect/reactivity"
import type { ReactNode } from "react"
import { ErrorBox, Loading } from "./Loading.tsx"

export { ErrorBox, Loading }

/** The message of a failure: the typed error's own message, or what went wrong. */
export const messageOf = (cause: Cause.Cause<unknown>): string => {
  const error = Cause.squash(cause)
  return error instanceof Error ? error.message : typeof error === "object" && error !== null && "message" in error ? String(error.message) : String(error)
}

export function ResultView<A, E>(props: {
  readonly result: AsyncResult.AsyncResult<A, E>
  readonly loading: string
  readonly failed: string
  readonly retry?: () => void
  readonly children: (value: A, waiting: boolean) => ReactNode
}) {
  const r = props.result
  if (r._tag === "Initial") return <Loading label={props.loading} />
  if (r._tag === "Failure") {
    const previous = r.previousSuccess
    const box = <ErrorBox title={props.failed} message={messageOf(r.cause)} {...(props.retry === undefined ? {} : { retry: props.retry })} />
    return previous._tag === "Some" ? <>{box}{props.children(previous.value.value, false)}</> : box
  }
  return <>{props.children(r.value, AsyncResult.isWaiting(r))}</>
}
