/**
 * The captcha token field, shown once the site asks for one. On a real site a captcha widget fills it;
 * the local platform mints test tokens at `POST /_sitefx/captcha`, and the button here asks it for one.
 */
import { AsyncResult } from "effect/reactivity"
import type { LoginResult } from "sitefx/session"
import { useAtomSet, useAtomValue } from "sitefx/react"
import { type ReactNode, useEffect, useId, useState } from "react"
import { messageOf } from "../shell/Result.tsx"
import { devCaptchaAtom } from "./atoms.ts"
import { asksForCaptcha } from "./messages.tsx"

/**
 * A form's captcha: none until an outcome says the site wants one, then the field for as long as the
 * form lives. `take` gives what the next call sends and clears the token (a token works once).
 */
export function useCaptcha(result: AsyncResult.AsyncResult<LoginResult, unknown>): {
  readonly field: ReactNode
  readonly take: () => { readonly captchaToken?: string }
} {
  const [token, setToken] = useState("")
  const [asked, setAsked] = useState(false)
  const asksNow = asksForCaptcha(result)
  useEffect(() => {
    if (asksNow) setAsked(true)
  }, [asksNow])
  return {
    field: asked ? <CaptchaField value={token} onChange={setToken} /> : null,
    take: () => {
      setToken("")
      return asked ? { captchaToken: token } : {}
    }
  }
}

export function CaptchaField(props: { readonly value: string; readonly onChange: (token: string) => void }) {
  const id = useId()
  const mint = useAtomSet(devCaptchaAtom)
  const minted = useAtomValue(devCaptchaAtom)
  const { onChange } = props
  const token = AsyncResult.isSuccess(minted) && !minted.waiting ? minted.value : undefined
  useEffect(() => {
    if (token !== undefined) onChange(token)
  }, [token, onChange])
  return (
    <div className="captcha">
      <label htmlFor={id}>Captcha token</label>
      <input id={id} name="captcha" autoComplete="off" spellCheck={false} value={props.value} onChange={(e) => props.onChange(e.target.value)} aria-describedby={`${id}-hint`} />
      <p id={`${id}-hint`} className="hint">
        On this local platform a test token comes from <code>POST /_sitefx/captcha</code>; a real site's captcha widget fills this in.
      </p>
      <button type="button" className="secondary" onClick={() => mint()} disabled={minted.waiting}>Get a test token</button>
      {AsyncResult.isFailure(minted) ? <p className="field-error" role="alert">{messageOf(minted.cause)}</p> : null}
    </div>
  )
}
