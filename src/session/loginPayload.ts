/**
 * The bodies of the login and register calls, as plain functions: the member flows' captcha answers, and
 * the login's body as a page's first script sends it (`signIn` of `sitefx/first-screen`). The member
 * flows write that body inline (a call here costs their pages a few bytes); test/firstScreen/signIn.test.ts
 * holds the two to the same bytes on the wire.
 */
import type { CaptchaToken } from "./wire/identity.ts"

/** A captcha answer to send with a register or login, when the site asks for one. */
export interface CaptchaTokens {
  /** The answer of a reCAPTCHA checkbox. */
  readonly recaptchaToken?: string | undefined
  /** The answer of an invisible reCAPTCHA. */
  readonly invisibleRecaptchaToken?: string | undefined
}

/** The `captchaTokens` of a register or login body: one token holding the answers given, or nothing. */
export const captchaPayload = (tokens: CaptchaTokens | undefined): { captchaTokens?: ReadonlyArray<CaptchaToken> } => {
  if (tokens === undefined) return {}
  const token: { Recaptcha?: string; InvisibleRecaptcha?: string } = {}
  if (tokens.recaptchaToken !== undefined) token.Recaptcha = tokens.recaptchaToken
  if (tokens.invisibleRecaptchaToken !== undefined) token.InvisibleRecaptcha = tokens.invisibleRecaptchaToken
  return { captchaTokens: [token] }
}

/** The login call's body: the email as the login id, the password, and the captcha answers if any. */
export const loginPayload = (email: string, password: string, captchaTokens: CaptchaTokens | undefined): Record<string, unknown> => ({
  loginId: { email },
  password,
  ...captchaPayload(captchaTokens)
})
