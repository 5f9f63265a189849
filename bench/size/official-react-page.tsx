// The official client doing the same in React: latest posts from a data collection, a product grid and a member's sign-in
// form, with state and effects, on one client whose tokens are kept in localStorage across reloads.
import { items } from "@wix/data"
import { createClient, OAuthStrategy, type Tokens } from "@wix/sdk"
import { products } from "@wix/stores"
import { type FormEvent, useEffect, useState } from "react"
import { createRoot } from "react-dom/client"

const saved = localStorage.getItem("session")
const client = createClient({
  modules: { items, products },
  auth: OAuthStrategy({ clientId: "my-client-id", ...(saved === null ? {} : { tokens: JSON.parse(saved) as Tokens }) })
})
const save = () => localStorage.setItem("session", JSON.stringify(client.auth.getTokens()))

/** A query's pages: the items so far, the last page (for the next one), loading and failure. */
function usePages<P extends { items: Array<unknown>; hasNext(): boolean; next(): Promise<P> }>(first: () => Promise<P>) {
  const [page, setPage] = useState<P>()
  const [shown, setShown] = useState<Array<P["items"][number]>>([])
  const [loading, setLoading] = useState(true)
  const [error, setError] = useState<unknown>()
  const load = (next: () => Promise<P>, more: boolean) => {
    setLoading(true)
    next().then((p) => {
      setPage(p)
      setShown((before) => (more ? [...before, ...p.items] : p.items))
      setError(undefined)
    }, setError).finally(() => {
      setLoading(false)
      save()
    })
  }
  useEffect(() => load(first, false), [])
  return { page, items: shown, loading, error, loadMore: () => page !== undefined && load(() => page.next(), true) }
}

function Posts() {
  const posts = usePages(() => client.items.query("Posts").descending("_createdDate").limit(10).find({ returnTotalCount: true }))
  if (posts.error !== undefined && posts.page === undefined) return <p role="alert">The posts could not be read: {String(posts.error)}</p>
  if (posts.page === undefined) return <p>Loading…</p>
  return (
    <section aria-busy={posts.loading}>
      <ul>{posts.items.map((post) => <li key={post._id}>{String(post["title"])}</li>)}</ul>
      {posts.page.hasNext() && <button onClick={posts.loadMore}>Load more ({posts.items.length} of {posts.page.totalCount})</button>}
    </section>
  )
}

function Grid() {
  const grid = usePages(() => client.products.queryProducts().ascending("name").limit(12).find())
  if (grid.error !== undefined && grid.page === undefined) return <p role="alert">The products could not be read.</p>
  if (grid.page === undefined) return <p>Loading…</p>
  return (
    <section aria-busy={grid.loading}>
      <ul>{grid.items.map((p) => <li key={p._id}>{p.name} {p.priceData?.formatted?.price}</li>)}</ul>
      {grid.page.hasNext() && <button onClick={grid.loadMore}>More</button>}
    </section>
  )
}

function SignIn() {
  const [busy, setBusy] = useState(false)
  const [message, setMessage] = useState<string>()
  const submit = async (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault()
    const form = new FormData(e.currentTarget)
    setBusy(true)
    try {
      const result = await client.auth.login({ email: String(form.get("email")), password: String(form.get("password")) })
      if (result.loginState === "SUCCESS") {
        client.auth.setTokens(await client.auth.getMemberTokensForDirectLogin(result.data.sessionToken))
        save()
        setMessage("Signed in.")
      } else if (result.loginState === "FAILURE") setMessage(result.errorCode)
      else if (result.loginState === "EMAIL_VERIFICATION_REQUIRED") setMessage("Enter the code we emailed you.")
    } catch {
      setMessage("The sign-in could not be sent.")
    } finally {
      setBusy(false)
    }
  }
  return (
    <form onSubmit={submit}>
      <input name="email" type="email" aria-label="Email" />
      <input name="password" type="password" aria-label="Password" />
      <button disabled={busy}>Sign in</button>
      {message !== undefined && <p role="status">{message}</p>}
    </form>
  )
}

createRoot(document.getElementById("root")!).render(
  <>
    <Posts />
    <Grid />
    <SignIn />
  </>
)
