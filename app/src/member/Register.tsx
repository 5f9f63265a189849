/** Creating an account: email, password and a nickname; a captcha token when the site asks. */
import { Atom } from "effect/reactivity"
import { useAtomSet, useAtomValue } from "sitefx/react"
import { type FormEvent, useEffect, useId, useState } from "react"
import { href } from "../shell/router.ts"
import { session } from "./atoms.ts"
import { useCaptcha } from "./CaptchaField.tsx"
import { Outcome } from "./messages.tsx"

export function RegisterForm() {
  const register = useAtomSet(session.register)
  const result = useAtomValue(session.register)
  const [email, setEmail] = useState("")
  const [password, setPassword] = useState("")
  const [nickname, setNickname] = useState("")
  const captcha = useCaptcha(result)
  const id = useId()
  useEffect(() => () => register(Atom.Reset), [register])
  const submit = (e: FormEvent) => {
    e.preventDefault()
    register({
      email,
      password,
      ...(nickname.trim() === "" ? {} : { profile: { nickname: nickname.trim() } }),
      ...captcha.take()
    })
  }
  return (
    <form className="form" onSubmit={submit} aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>Create an account</h2>
      <label htmlFor={`${id}-email`}>Email</label>
      <input id={`${id}-email`} name="email" type="email" autoComplete="email" required value={email} onChange={(e) => setEmail(e.target.value)} />
      <label htmlFor={`${id}-password`}>Password</label>
      <input
        id={`${id}-password`}
        name="new-password"
        type="password"
        autoComplete="new-password"
        required
        minLength={6}
        value={password}
        onChange={(e) => setPassword(e.target.value)}
        aria-describedby={`${id}-password-hint`}
      />
      <p id={`${id}-password-hint`} className="hint">At least 6 characters.</p>
      <label htmlFor={`${id}-nickname`}>Nickname (optional)</label>
      <input id={`${id}-nickname`} name="nickname" autoComplete="nickname" value={nickname} onChange={(e) => setNickname(e.target.value)} />
      {captcha.field}
      <Outcome result={result} title="No account created." />
      <div className="actions">
        <button type="submit" disabled={result.waiting}>Create account</button>
      </div>
      <p className="links">
        <a href={href("member")}>I have an account: sign in</a>
      </p>
    </form>
  )
}
