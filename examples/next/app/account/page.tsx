import { Suspense } from "react"
import { site } from "../../lib/site"
import { Providers, SignOut } from "../client"

// Rendered on the server as the request's member: it reads the session's cookies, so it streams in
// behind <Suspense> (Cache Components keeps the rest of the page in the static shell).
async function Member() {
  const member = await site.member()
  if (member === undefined) return <p>You are browsing as a visitor. <a href="/sign-in">Sign in</a></p>
  return (
    <section>
      <p>Signed in as <strong>{member.loginEmail}</strong></p>
      <Providers><SignOut /></Providers>
    </section>
  )
}

export default function AccountPage() {
  return (
    <main>
      <h1>Your account</h1>
      <Suspense fallback={<p>Loading your account…</p>}>
        <Member />
      </Suspense>
    </main>
  )
}
