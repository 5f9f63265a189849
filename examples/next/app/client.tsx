"use client"
import { AsyncResult, RegistryProvider, useAtomSet, useAtomValue } from "sitefx/react"
import type { DehydratedQueries } from "sitefx/react"
import type { ReactNode } from "react"
import { useState } from "react"
import { newProducts, session } from "../lib/atoms"

export function Providers(props: { readonly dehydrated?: DehydratedQueries; readonly children: ReactNode }) {
  return <RegistryProvider dehydrated={props.dehydrated}>{props.children}</RegistryProvider>
}

export function ProductGrid() {
  const result = useAtomValue(newProducts)
  if (AsyncResult.isFailure(result)) return <p role="alert">The products could not be read.</p>
  if (!AsyncResult.isSuccess(result)) return <p>Loading products…</p>
  return (
    <ul aria-label="products">
      {result.value.items.map((p) => <li key={p.id}>{p.name} {p.priceData?.formatted?.price}</li>)}
    </ul>
  )
}

export function SignInForm() {
  const signIn = useAtomSet(session.signIn)
  const state = useAtomValue(session.signIn)
  const [done, setDone] = useState(false)
  if (AsyncResult.isSuccess(state) && state.value.loginState === "SUCCESS" && !done) {
    setDone(true)
    window.location.assign("/account")
  }
  return (
    <form
      onSubmit={(e) => {
        e.preventDefault()
        const data = new FormData(e.currentTarget)
        signIn({ email: String(data.get("email")), password: String(data.get("password")) })
      }}
    >
      <label>Email <input name="email" type="email" required /></label>
      <label>Password <input name="password" type="password" required /></label>
      <button type="submit" disabled={state.waiting}>Sign in</button>
      {AsyncResult.isFailure(state) && <p role="alert">The sign-in failed.</p>}
      {AsyncResult.isSuccess(state) && state.value.loginState !== "SUCCESS" && <p role="alert">{state.value.loginState}</p>}
    </form>
  )
}

export function SignOut() {
  const signOut = useAtomSet(session.signOut)
  const state = useAtomValue(session.signOut)
  if (AsyncResult.isSuccess(state)) window.location.assign(state.value.logoutUrl)
  return <button onClick={() => signOut(window.location.origin)}>Sign out</button>
}
