/** The member area: sign-up, login, verification, MFA, recovery and logout. */
export function MemberArea(_props: { readonly path: ReadonlyArray<string> }) {
  return (
    <section aria-labelledby="member-title">
      <h1 id="member-title">Your account</h1>
      <p>Sign in to see your account.</p>
    </section>
  )
}
