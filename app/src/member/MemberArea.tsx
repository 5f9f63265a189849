/**
 * The member area: sign-in (direct, on the platform's page, or silent), registration, the email code and
 * MFA steps, password recovery, the redirect's callback, and the signed-in member's account with the orders
 * placed in this browser. Everything
 * reads the session through the atoms of `atoms.ts`.
 */
import { AsyncResult, useAtomValue } from "sitefx/react"
import { ErrorBox, Loading, messageOf } from "../shell/Result.tsx"
import { Account } from "./Account.tsx"
import { session } from "./atoms.ts"
import { Callback } from "./Callback.tsx"
import { CodeStep } from "./CodeStep.tsx"
import { ForgotForm, ResetForm } from "./Recovery.tsx"
import { RegisterForm } from "./Register.tsx"
import { PastOrders } from "./PastOrders.tsx"
import { OtherWays, SignInForm } from "./SignIn.tsx"

export function MemberArea(props: { readonly path: ReadonlyArray<string> }) {
  const [page = ""] = props.path
  // the platform's own pages share this browser's session (a hidden iframe, once a week)
  useAtomValue(session.prewarm)
  return (
    <section aria-labelledby="member-title" className="member">
      <h1 id="member-title">Your account</h1>
      {page === "callback" ? <Callback /> : page === "reset" ? <ResetForm /> : page === "forgot" ? <ForgotForm /> : <Signed register={page === "register"} />}
    </section>
  )
}

/** The account when signed in; otherwise the pending step, or the forms. */
function Signed(props: { readonly register: boolean }) {
  const state = useAtomValue(session.state)
  const pending = useAtomValue(session.pending)
  if (AsyncResult.isInitial(state)) return <Loading label="Checking your session" />
  if (AsyncResult.isFailure(state)) return <ErrorBox title="Your session could not be read." message={messageOf(state.cause)} />
  if (state.value.loggedIn) {
    return (
      <>
        <Account />
        <PastOrders />
      </>
    )
  }
  if (pending !== undefined) return <CodeStep step={pending} />
  if (props.register) return <RegisterForm />
  return (
    <div className="member-columns">
      <SignInForm />
      <OtherWays />
    </div>
  )
}
