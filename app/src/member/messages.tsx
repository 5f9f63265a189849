/** What a member flow's outcome says to the member: refusals in plain words, and errors that stopped the flow. */
import * as Cause from "effect/Cause"
import { AsyncResult } from "effect/reactivity"
import type { LoginResult } from "sitefx/session"
import { ErrorBox, messageOf } from "../shell/Result.tsx"

type Failure = Extract<LoginResult, { loginState: "FAILURE" }>

/** A refusal's message for the member. */
export const refusalText = (failure: Failure): string => {
  switch (failure.errorCode) {
    case "invalidEmail":
    case "invalidPassword":
      return "Wrong email or password."
    case "resetPassword":
      return "This account's password must be reset first: use “Forgot your password?”."
    case "missingCaptchaToken":
      return "This site asks for a captcha: fill in the captcha token, then try again."
    case "invalidCaptchaToken":
      return "The captcha token was not accepted (each token works once): get a new one."
    case "emailAlreadyExists":
      return "An account with this email exists already: sign in instead."
    default:
      return failure.error
  }
}

/** True when the outcome says the site wants a captcha token. */
export const asksForCaptcha = (result: AsyncResult.AsyncResult<LoginResult, unknown>): boolean =>
  AsyncResult.isSuccess(result) && result.value.loginState === "FAILURE" &&
  (result.value.errorCode === "missingCaptchaToken" || result.value.errorCode === "invalidCaptchaToken")

/**
 * The outcome of a flow that did not sign the member in: a refusal, a wait for the owner's approval, or
 * an error (the platform unreachable, the login not completed). Nothing while it runs or once it succeeded.
 */
export function Outcome(props: { readonly result: AsyncResult.AsyncResult<LoginResult, unknown>; readonly title: string }) {
  const r = props.result
  if (r.waiting || r._tag === "Initial") return null
  if (r._tag === "Failure") {
    if (Cause.hasInterruptsOnly(r.cause)) return null
    return <ErrorBox title={props.title} message={messageOf(r.cause)} />
  }
  if (r.value.loginState === "FAILURE") return <ErrorBox title={props.title} message={refusalText(r.value)} />
  if (r.value.loginState === "OWNER_APPROVAL_REQUIRED") {
    return <p className="notice" role="status">Your account is waiting for the site owner's approval. You can sign in once they approve it.</p>
  }
  return null
}
