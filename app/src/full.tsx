/**
 * The full app, loaded by the entry (main.tsx) as soon as it runs: the atom registry every screen reads,
 * hydrated with the bootstrap's answers, and the screens and the header's session that fill the entry's
 * frame. The answers are keyed as the query atoms key their queries (sitefx/first-screen), so an atom
 * takes one only when it would have sent the very same request (else it asks the platform as usual):
 * nothing is asked twice and nothing shown is wrong. The session's tokens need no handing over: the
 * bootstrap saved them in the store the tabs share, where the session reads them.
 */
import { lazy, type ReactNode, Suspense, useEffect } from "react"
import { AtomRegistry, hydrate, RegistryProvider } from "sitefx/react"
import { App } from "./App.tsx"
import type { Early } from "./boot/early.ts"
import { SessionBar } from "./shell/SessionBar.tsx"
import { startFirstScreen } from "./store/firstScreen.ts"

const registry = AtomRegistry.make()

// the cart's client and atoms load beside the full app, not in its chunk: the first screen's grid does not wait for them
const CartButton = lazy(() => import("./store/cart/CartButton.tsx").then((m) => ({ default: m.CartButton })))

let release = () => {}

/** Takes the bootstrap's answers as the first screen's seeds, then starts that screen's atoms (they take the seeds, or ask). */
export const start = (early: Early | undefined): void => {
  if (early !== undefined) hydrate(registry, early.queries)
  release = startFirstScreen(registry, window.location.hash)
}

/** Lets the early subscriptions go after the first commit (children subscribe before a parent's effect runs). */
function Started(props: { readonly children: ReactNode }) {
  useEffect(() => release(), [])
  return props.children
}

/** The screen the location names. */
export function Screens() {
  return (
    <RegistryProvider registry={registry}>
      <Started>
        <App />
      </Started>
    </RegistryProvider>
  )
}

/** The header's session part: the cart's link (it follows the session: a member's cart is not the visitor's), and who is signed in. */
export function Session() {
  return (
    <RegistryProvider registry={registry}>
      <Suspense fallback={null}>
        <CartButton />
      </Suspense>
      <SessionBar />
    </RegistryProvider>
  )
}
