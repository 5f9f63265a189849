/**
 * How every panel shows an atom's result: a labelled loading state, the error said plainly (with a way
 * to try again), a "not available" state when the platform has no such endpoint (404), or the value;
 * while a refresh runs the old value stays.
 */
import * as Cause from "effect/Cause"
import { AsyncResult } from "effect/reactivity"
import type { ReactNode } from "react"
import { Copyable } from "./Copy.tsx"

/** The message of a failure: the typed error's own message, or what went wrong. */
export const messageOf = (cause: Cause.Cause<unknown>): string => {
  const error = Cause.squash(cause)
  return error instanceof Error ? error.message : typeof error === "object" && error !== null && "message" in error ? String(error.message) : String(error)
}

/** The platform has no route for the call (an endpoint this version of the platform does not have). */
export const isUnavailable = (cause: Cause.Cause<unknown>): boolean => {
  const error = Cause.squash(cause) as { readonly _tag?: unknown; readonly status?: unknown; readonly code?: unknown }
  return error?._tag === "PlatformError" && error.status === 404 && error.code === "NOT_FOUND"
}

export function Loading(props: { readonly label: string }) {
  return <p className="loading" role="status">{props.label}…</p>
}

export function ErrorBox(props: { readonly title: string; readonly message: string; readonly retry?: (() => void) | undefined }) {
  return (
    <div className="error" role="alert">
      <p><strong>{props.title}</strong> {props.message}</p>
      {props.retry === undefined ? null : <button type="button" className="secondary" onClick={props.retry}>Try again</button>}
    </div>
  )
}

/** What a panel says when its endpoint is missing: what is missing, and that nothing else is wrong. */
export function Unavailable(props: { readonly what: string; readonly endpoint: string }) {
  return (
    <div className="unavailable" role="status">
      <p><strong>{props.what} is not available</strong> on this platform: <code>{props.endpoint}</code> answered 404. A newer sitefx has it.</p>
    </div>
  )
}

export function ResultView<A, E>(props: {
  readonly result: AsyncResult.AsyncResult<A, E>
  readonly loading: string
  readonly failed: string
  readonly retry?: (() => void) | undefined
  /** Shown instead of the error when the endpoint answered 404. */
  readonly unavailable?: { readonly what: string; readonly endpoint: string } | undefined
  readonly children: (value: A, waiting: boolean) => ReactNode
}) {
  const r = props.result
  if (r._tag === "Initial") return <Loading label={props.loading} />
  if (r._tag === "Failure") {
    if (props.unavailable !== undefined && isUnavailable(r.cause)) return <Unavailable {...props.unavailable} />
    const previous = r.previousSuccess
    const box = <ErrorBox title={props.failed} message={messageOf(r.cause)} retry={props.retry} />
    return previous._tag === "Some" ? <>{box}{props.children(previous.value.value, false)}</> : box
  }
  return <>{props.children(r.value, AsyncResult.isWaiting(r))}</>
}

/** What an action did, in a sentence, and a value to copy when it made one (a TOTP secret). */
export interface Outcome {
  readonly message: string
  readonly copy?: { readonly label: string; readonly value: string } | undefined
}

/** The outcome of the last action of a panel: working, done (what it did), or failed (why). */
export function ActionStatus(props: { readonly result: AsyncResult.AsyncResult<Outcome, unknown> }) {
  const r = props.result
  if (r._tag === "Initial") return <p className="action-status" role="status" aria-live="polite"></p>
  if (r.waiting) return <p className="action-status" role="status" aria-live="polite">Working…</p>
  if (r._tag === "Failure") return <p className="action-status failed" role="alert">{messageOf(r.cause)}</p>
  return (
    <p className="action-status done" role="status" aria-live="polite">
      {r.value.message}
      {r.value.copy === undefined ? null : <> <Copyable label={r.value.copy.label} value={r.value.copy.value} /></>}
    </p>
  )
}
