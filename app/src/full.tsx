/**
 * The full app, loaded by the entry (main.tsx) as soon as it runs: the atom registry every screen reads,
 * seeded with the bootstrap's answers, and the screens and the header's session that fill the entry's
 * frame. A bootstrap answer seeds its query only when the full app's own query would have sent the very
 * same request (else the query asks the platform as usual), so nothing is asked twice and nothing shown
 * is wrong.
 */
import { lazy, type ReactNode, Suspense, useEffect } from "react"
import { AtomRegistry, hydrate, RegistryProvider } from "sitefx/react"
import { App } from "./App.tsx"
import type { Early, EarlyPage } from "./boot/early.ts"
import { SessionBar } from "./shell/SessionBar.tsx"
import { collectionsAtom, collectionsQuery, productQuery, queries } from "./store/atoms.ts"
import { startFirstScreen } from "./store/firstScreen.ts"

const registry = AtomRegistry.make()

// the cart's client and atoms load beside the full app, not in its chunk: the first screen's grid does not wait for them
const CartButton = lazy(() => import("./store/cart/CartButton.tsx").then((m) => ({ default: m.CartButton })))

const seed = (page: EarlyPage<unknown> | undefined, key: string, request: unknown) =>
  page === undefined || page.payload !== JSON.stringify({ query: request })
    ? {}
    : { [key]: { items: page.items, hasMore: page.hasMore, pages: 1, ...(page.total === undefined ? {} : { total: page.total }) } }

let release = () => {}

/** Takes the bootstrap's answers as the first screen's seeds, then starts that screen's atoms (they take the seeds, or ask). */
export const start = (early: Early | undefined): void => {
  if (early !== undefined) {
    const products = productQuery(early.filters, undefined)
    hydrate(registry, {
      sitefxQueries: 1,
      queries: {
        ...seed(early.products, queries.products(products).key, products.request),
        ...seed(early.collections, collectionsAtom.key, collectionsQuery.request)
      }
    })
  }
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
