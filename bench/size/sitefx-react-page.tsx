// The React guide's app on sitefx's atoms: latest posts from a data collection, a product grid and a member's sign-in form,
// on one session the browser's tabs share (docs/guide/react.md).
import * as Products from "sitefx/catalog/products"
import * as DataItems from "sitefx/data/items"
import { AsyncResult, Atom, queryAtoms, RegistryProvider, sessionAtoms, tabTokenStore, useAtomSet, useAtomValue } from "sitefx/react"
import { siteSession } from "sitefx/session"
import { createRoot } from "react-dom/client"

const runtime = Atom.runtime(siteSession({ clientId: "my-client-id", tokens: tabTokenStore() }))
const session = sessionAtoms(runtime)
const queries = queryAtoms(runtime)
const latest = queries.items(DataItems.query("Posts").descending("_createdDate").limit(10).withTotalCount())
const grid = queries.products(Products.query().ascending("name").limit(12))

function Posts() {
  const result = useAtomValue(latest)
  const loadMore = useAtomSet(latest.loadMore)
  return AsyncResult.match(result, {
    onInitial: () => <p>Loading…</p>,
    onFailure: ({ cause }) => <p role="alert">The posts could not be read: {String(cause)}</p>,
    onSuccess: ({ value, waiting }) => (
      <section aria-busy={waiting}>
        <ul>{value.items.map((post) => <li key={post._id}>{String(post["title"])}</li>)}</ul>
        {value.hasMore && <button onClick={() => loadMore()}>Load more ({value.items.length} of {value.total})</button>}
      </section>
    )
  })
}

function Grid() {
  const result = useAtomValue(grid)
  const loadMore = useAtomSet(grid.loadMore)
  if (AsyncResult.isFailure(result)) return <p role="alert">The products could not be read.</p>
  if (!AsyncResult.isSuccess(result)) return <p>Loading…</p>
  return (
    <section aria-busy={result.waiting}>
      <ul>{result.value.items.map((p) => <li key={p.id}>{p.name} {p.priceData?.formatted?.price}</li>)}</ul>
      {result.value.hasMore && <button onClick={() => loadMore()}>More</button>}
    </section>
  )
}

function SignIn() {
  const signIn = useAtomSet(session.signIn)
  const outcome = useAtomValue(session.signIn)
  return (
    <form onSubmit={(e) => {
      e.preventDefault()
      const form = new FormData(e.currentTarget)
      signIn({ email: String(form.get("email")), password: String(form.get("password")) })
    }}>
      <input name="email" type="email" aria-label="Email" />
      <input name="password" type="password" aria-label="Password" />
      <button disabled={outcome.waiting}>Sign in</button>
      {AsyncResult.isSuccess(outcome) && outcome.value.loginState === "SUCCESS" && <p role="status">Signed in.</p>}
      {AsyncResult.isSuccess(outcome) && outcome.value.loginState === "FAILURE" && <p role="alert">{outcome.value.errorCode}</p>}
      {AsyncResult.isSuccess(outcome) && outcome.value.loginState === "EMAIL_VERIFICATION_REQUIRED" && <p>Enter the code we emailed you.</p>}
      {AsyncResult.isFailure(outcome) && <p role="alert">The sign-in could not be sent.</p>}
    </form>
  )
}

createRoot(document.getElementById("root")!).render(
  <RegistryProvider>
    <Posts />
    <Grid />
    <SignIn />
  </RegistryProvider>
)
