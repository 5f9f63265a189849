/**
 * Password recovery: the member asks for a reset link by email; the link opens this app with its
 * `recoveryToken` in the query (`/?recoveryToken=…#/member/reset`), where a new password signs them in.
 */
import { AsyncResult, Atom } from "effect/reactivity"
import { useAtomSet, useAtomValue } from "sitefx/react"
import { type FormEvent, useEffect, useId, useState } from "react"
import { href } from "../shell/router.ts"
import { ErrorBox, messageOf } from "../shell/Result.tsx"
import { appUrl, session } from "./atoms.ts"
import { Outcome } from "./messages.tsx"

export function ForgotForm() {
  const send = useAtomSet(session.sendRecovery)
  const sent = useAtomValue(session.sendRecovery)
  const [email, setEmail] = useState("")
  const id = useId()
  useEffect(() => () => send(Atom.Reset), [send])
  const submit = (e: FormEvent) => {
    e.preventDefault()
    send({ email, redirectUri: appUrl("/reset") })
  }
  return (
    <form className="form" onSubmit={submit} aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>Reset your password</h2>
      <p>We will email you a link to choose a new password.</p>
      <label htmlFor={`${id}-email`}>Email</label>
      <input id={`${id}-email`} name="email" type="email" autoComplete="username" required value={email} onChange={(e) => setEmail(e.target.value)} />
      {AsyncResult.isSuccess(sent) && !sent.waiting
        ? (
          <p className="notice" role="status">
            If an account uses this address, a reset link is on its way. On the local platform, emails land in its outbox:{" "}
            <a href={`/_sitefx/outbox?to=${encodeURIComponent(email)}`} target="_blank" rel="noreferrer">/_sitefx/outbox</a>.
          </p>
        )
        : null}
      {AsyncResult.isFailure(sent) ? <ErrorBox title="No link sent." message={messageOf(sent.cause)} /> : null}
      <div className="actions">
        <button type="submit" disabled={sent.waiting}>Send reset link</button>
      </div>
      <p className="links">
        <a href={href("member")}>Back to sign in</a>
      </p>
    </form>
  )
}

/** The token of the recovery link this page was opened with. */
const recoveryToken = (): string | undefined => new URLSearchParams(window.location.search).get("recoveryToken") ?? undefined

/** Leaves the link's token out of the address (and the history), then shows `route`. */
export const leaveLink = (route: string) => {
  window.history.replaceState(null, "", `${window.location.pathname}${route}`)
  window.dispatchEvent(new HashChangeEvent("hashchange"))
}

export function ResetForm() {
  const recover = useAtomSet(session.recover)
  const result = useAtomValue(session.recover)
  const [token] = useState(recoveryToken)
  const [password, setPassword] = useState("")
  const id = useId()
  useEffect(() => () => recover(Atom.Reset), [recover])
  const done = AsyncResult.isSuccess(result) && result.value.loginState === "SUCCESS"
  useEffect(() => {
    if (done) leaveLink(href("member"))
  }, [done])
  if (token === undefined) {
    return (
      <div className="form">
        <h2>Reset your password</h2>
        <ErrorBox title="This page needs the link from the reset email." message="Open the link in the email, or ask for a new one." />
        <p className="links"><a href={href("member", "forgot")}>Ask for a reset link</a></p>
      </div>
    )
  }
  const submit = (e: FormEvent) => {
    e.preventDefault()
    recover({ token, password })
  }
  return (
    <form className="form" onSubmit={submit} aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>Choose a new password</h2>
      <label htmlFor={`${id}-password`}>New password</label>
      <input
        id={`${id}-password`}
        name="new-password"
        type="password"
        autoComplete="new-password"
        required
        minLength={6}
        value={password}
        onChange={(e) => setPassword(e.target.value)}
      />
      <Outcome result={result} title="Password not changed." />
      <div className="actions">
        <button type="submit" disabled={result.waiting}>Set new password</button>
      </div>
      <p className="links"><a href={href("member", "forgot")}>Ask for a new link</a></p>
    </form>
  )
}
