/**
 * Where the platform's login page sends the browser back (`/?code=…&state=…#/member/callback`): the
 * login completes here (state checked, code exchanged), then the member goes where they were.
 */
import { AsyncResult } from "effect/reactivity"
import { useAtomSet, useAtomValue } from "sitefx/react"
import { useEffect } from "react"
import { href } from "../shell/router.ts"
import { ErrorBox, Loading, messageOf } from "../shell/Result.tsx"
import { session } from "./atoms.ts"
import { leaveLink } from "./Recovery.tsx"

/** Callback URLs already handed to the session (a code works once, and React may run an effect twice). */
const handled = new Set<string>()

export function Callback() {
  const complete = useAtomSet(session.completeRedirect)
  const result = useAtomValue(session.completeRedirect)
  useEffect(() => {
    const url = window.location.href
    if (handled.has(url) || !window.location.search.includes("state=")) return
    handled.add(url)
    complete(url)
  }, [complete])
  const back = AsyncResult.isSuccess(result) && !result.waiting ? result.value.originalUri : undefined
  useEffect(() => {
    if (back === undefined) return
    const target = back === "" ? undefined : new URL(back, window.location.href)
    leaveLink(target !== undefined && target.origin === window.location.origin && target.hash !== "" ? target.hash : href("member"))
  }, [back])
  if (AsyncResult.isFailure(result)) {
    return (
      <div className="form">
        <h2>Signing in</h2>
        <ErrorBox title="The sign-in did not complete." message={messageOf(result.cause)} />
        <div className="actions">
          <button type="button" className="secondary" onClick={() => leaveLink(href("member"))}>Back to sign in</button>
        </div>
      </div>
    )
  }
  if (!window.location.search.includes("state=") && result._tag === "Initial") {
    return (
      <div className="form">
        <h2>Signing in</h2>
        <ErrorBox title="Nothing to complete." message="This page is where the platform's login page sends you back to." />
        <p className="links"><a href={href("member")}>Back to sign in</a></p>
      </div>
    )
  }
  return <Loading label="Completing your sign-in" />
}
