/**
 * The header's session part: the signed-in member's name or email and a sign-out, or a sign-in link, on
 * one line within the header's place for it (Layout), so a sign-in or a sign-out moves nothing else.
 * Signing out needs the member area's flow, which is loaded on the click, so the first screen carries
 * none of the member area's code.
 */
import { AsyncResult, useAtomValue, useRegistry } from "sitefx/react"
import { useState } from "react"
import { href } from "./router.ts"
import { who } from "./who.ts"

/** Where the platform's logout page sends the browser back to: the page the member was on. */
const here = (): string => window.location.href

export function SessionBar() {
  const state = useAtomValue(who.state)
  const member = useAtomValue(who.member)
  const registry = useRegistry()
  const [leaving, setLeaving] = useState(false)
  const [refused, setRefused] = useState(false)
  const signedIn = AsyncResult.isSuccess(state) && state.value.loggedIn
  const record = AsyncResult.isSuccess(member) ? member.value : undefined
  const name = record?.loginEmail ?? record?.profile?.nickname
  const signOut = async () => {
    setLeaving(true)
    setRefused(false)
    try {
      const { signOutAtom } = await import("../member/atoms.ts")
      // success leaves the page for the platform's logout page; a failure leaves the member signed in here
      const stop = registry.subscribe(signOutAtom, (result) => {
        if (AsyncResult.isInitial(result) || result.waiting) return
        stop()
        if (AsyncResult.isFailure(result)) {
          setLeaving(false)
          setRefused(true)
        }
      })
      registry.set(signOutAtom, here())
    } catch {
      setLeaving(false)
      setRefused(true)
    }
  }
  return (
    <div className="session-bar" aria-label="Your session" role="group">
      {signedIn
        ? (
          <>
            {/* one line: a long name is cut short (whole in its title), a refusal takes its place */}
            {refused
              ? <span role="alert" className="who refused">Not signed out: try again.</span>
              : (
                <span className="who" title={name ?? undefined}>
                  <span className="who-label">Signed in as </span><strong data-testid="session-name">{name ?? "a member"}</strong>
                </span>
              )}
            <button type="button" className="secondary" onClick={() => void signOut()} disabled={leaving}>Sign out</button>
          </>
        )
        : AsyncResult.isInitial(state)
        ? null
        : <a href={href("member")}>Sign in</a>}
    </div>
  )
}
