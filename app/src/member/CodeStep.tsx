/** The step a login or registration left pending: the email verification code, or an MFA factor's code. */
import { Atom } from "effect/reactivity"
import type { PendingStep } from "sitefx/session"
import { useAtomSet, useAtomValue } from "sitefx/react"
import { type FormEvent, useEffect, useId, useState } from "react"
import { session } from "./atoms.ts"
import { Outcome } from "./messages.tsx"

const factorHint = (factor: string | undefined): string =>
  factor === "TOTP"
    ? "Enter the 6-digit code your authenticator app shows for this site."
    : factor === "EMAIL"
    ? "Enter the code we just emailed you."
    : factor === "SMS" || factor === "CALL"
    ? "Enter the code we sent to your phone."
    : "Enter the code of your second factor."

export function CodeStep(props: { readonly step: PendingStep }) {
  const { step } = props
  const email = step.kind === "EMAIL_VERIFICATION"
  const verifyEmail = useAtomSet(session.verify)
  const verifyFactor = useAtomSet(session.verifyFactor)
  const emailResult = useAtomValue(session.verify)
  const factorResult = useAtomValue(session.verifyFactor)
  const result = email ? emailResult : factorResult
  const setPending = useAtomSet(session.pending)
  const [code, setCode] = useState("")
  const id = useId()
  useEffect(() => () => {
    verifyEmail(Atom.Reset)
    verifyFactor(Atom.Reset)
  }, [verifyEmail, verifyFactor])
  const submit = (e: FormEvent) => {
    e.preventDefault()
    if (email) verifyEmail({ code })
    else verifyFactor({ code })
  }
  const factor = step.kind === "MFA" ? step.factors[0] : undefined
  return (
    <form className="form" onSubmit={submit} aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>{email ? "Verify your email" : "Two-step verification"}</h2>
      <p id={`${id}-hint`}>
        {email ? "We emailed you a verification code. Enter it to finish signing in." : factorHint(factor)}
      </p>
      {email ? <p className="hint">On the local platform, emails land in its outbox: <a href="/_sitefx/outbox" target="_blank" rel="noreferrer">/_sitefx/outbox</a>.</p> : null}
      <label htmlFor={id}>{email ? "Verification code" : "Authentication code"}</label>
      <input
        id={id}
        name="code"
        inputMode="numeric"
        autoComplete="one-time-code"
        autoFocus
        required
        value={code}
        onChange={(e) => setCode(e.target.value)}
        aria-describedby={`${id}-hint`}
      />
      <Outcome result={result} title="Not verified." />
      <div className="actions">
        <button type="submit" disabled={result.waiting}>Verify</button>
        <button type="button" className="secondary" onClick={() => setPending(undefined)}>Start over</button>
      </div>
    </form>
  )
}
