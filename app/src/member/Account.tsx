/** The signed-in member's account: who they are (their own record on the platform) and signing out. */
import { AsyncResult } from "effect/reactivity"
import { useAtomRefresh, useAtomSet, useAtomValue } from "sitefx/react"
import { useId } from "react"
import { ErrorBox, messageOf, ResultView } from "../shell/Result.tsx"
import { appUrl, session, signOutAtom } from "./atoms.ts"

const day = (iso: string | undefined): string | undefined => {
  if (iso === undefined) return undefined
  const date = new Date(iso)
  return Number.isNaN(date.getTime()) ? undefined : date.toLocaleDateString(undefined, { year: "numeric", month: "long", day: "numeric" })
}

export function Account() {
  const member = useAtomValue(session.member)
  const reload = useAtomRefresh(session.member)
  const signOut = useAtomSet(signOutAtom)
  const out = useAtomValue(signOutAtom)
  const id = useId()
  const leaving = out.waiting || AsyncResult.isSuccess(out)
  return (
    <section className="form account" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>Profile</h2>
      <ResultView result={member} loading="Loading your profile" failed="Your profile could not be loaded." retry={reload}>
        {(m, waiting) =>
          m === undefined ? null : (
            <>
              <p className="signed-in" role="status">Signed in as <strong>{m.loginEmail ?? m.profile?.nickname ?? "a member"}</strong></p>
              <dl className="facts" aria-busy={waiting}>
                {m.profile?.nickname ? <><dt>Nickname</dt><dd>{m.profile.nickname}</dd></> : null}
                <dt>Email</dt>
                <dd>{m.loginEmail ?? "—"} {m.loginEmailVerified === true ? <span className="badge">verified</span> : m.loginEmailVerified === false ? <span className="badge">not verified</span> : null}</dd>
                {m.status !== undefined ? <><dt>Status</dt><dd>{m.status.toLowerCase()}</dd></> : null}
                {day(m.createdDate) !== undefined ? <><dt>Member since</dt><dd>{day(m.createdDate)}</dd></> : null}
              </dl>
            </>
          )}
      </ResultView>
      <p className="hint">This session is kept in this browser and shared by its tabs; it renews itself while you stay.</p>
      {AsyncResult.isFailure(out) ? <ErrorBox title="Not signed out." message={messageOf(out.cause)} /> : null}
      <div className="actions">
        <button type="button" onClick={() => signOut(appUrl(""))} disabled={leaving}>Sign out</button>
      </div>
    </section>
  )
}
