/**
 * Signing in: the direct form (email and password, a captcha token when the site asks), the platform's
 * own login page (a redirect with PKCE), and a silent login where the browser still has a session with
 * the platform.
 */
import { AsyncResult, Atom } from "effect/reactivity"
import { useAtomSet, useAtomValue } from "sitefx/react"
import { OAuthError } from "sitefx/session"
import { type FormEvent, useEffect, useId, useState } from "react"
import { href } from "../shell/router.ts"
import { ErrorBox, messageOf } from "../shell/Result.tsx"
import { appUrl, session } from "./atoms.ts"
import { useCaptcha } from "./CaptchaField.tsx"
import { Outcome } from "./messages.tsx"

/** The platform answered that it has no session for this browser. */
const isLoginRequired = (result: AsyncResult.AsyncResult<unknown, unknown>): boolean => {
  const error = AsyncResult.error(result)
  return error._tag === "Some" && error.value instanceof OAuthError && error.value.error === "login_required"
}

export function SignInForm() {
  const signIn = useAtomSet(session.signIn)
  const result = useAtomValue(session.signIn)
  const [email, setEmail] = useState("")
  const [password, setPassword] = useState("")
  const captcha = useCaptcha(result)
  const id = useId()
  useEffect(() => () => signIn(Atom.Reset), [signIn])
  const submit = (e: FormEvent) => {
    e.preventDefault()
    signIn({ email, password, ...captcha.take() })
  }
  return (
    <form className="form" onSubmit={submit} aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>Sign in</h2>
      <label htmlFor={`${id}-email`}>Email</label>
      <input id={`${id}-email`} name="email" type="email" autoComplete="username" required value={email} onChange={(e) => setEmail(e.target.value)} />
      <label htmlFor={`${id}-password`}>Password</label>
      <input id={`${id}-password`} name="password" type="password" autoComplete="current-password" required value={password} onChange={(e) => setPassword(e.target.value)} />
      {captcha.field}
      <Outcome result={result} title="Not signed in." />
      <div className="actions">
        <button type="submit" disabled={result.waiting}>Sign in</button>
      </div>
      <p className="links">
        <a href={href("member", "register")}>Create an account</a>
        <a href={href("member", "forgot")}>Forgot your password?</a>
      </p>
    </form>
  )
}

/** Signing in on the platform's own page, or silently with the session the browser has there. */
export function OtherWays() {
  const redirect = useAtomSet(session.redirectLogin)
  const redirected = useAtomValue(session.redirectLogin)
  const silent = useAtomSet(session.silentLogin)
  const silently = useAtomValue(session.silentLogin)
  const id = useId()
  const url = AsyncResult.isSuccess(redirected) && !redirected.waiting ? redirected.value.url : undefined
  useEffect(() => {
    if (url !== undefined) window.location.assign(url)
  }, [url])
  useEffect(() => () => silent(Atom.Reset), [silent])
  const silentError = AsyncResult.isFailure(silently) && !silently.waiting ? silently : undefined
  const notKnown = silentError !== undefined && isLoginRequired(silentError)
  return (
    <section className="form other-ways" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>Other ways to sign in</h2>
      <p>Sign in on the platform's own page and come back here, or continue with the session this browser already has with the platform.</p>
      <div className="actions">
        <button type="button" className="secondary" disabled={redirected.waiting || url !== undefined} onClick={() => redirect({ redirectUri: appUrl("/callback"), originalUri: appUrl("") })}>
          Sign in on the platform's page
        </button>
        <button type="button" className="secondary" disabled={silently.waiting} onClick={() => silent()}>
          Continue with your platform session
        </button>
      </div>
      {silently.waiting ? <p className="loading" role="status">Asking the platform…</p> : null}
      {notKnown
        ? <p className="notice" role="status">The platform has no session for this browser: sign in with your email and password, or on the platform's page.</p>
        : silentError !== undefined
        ? <ErrorBox title="No silent sign-in." message={messageOf(silentError.cause)} />
        : null}
      {AsyncResult.isFailure(redirected) ? <ErrorBox title="The platform's page could not be opened." message={messageOf(redirected.cause)} /> : null}
    </section>
  )
}
