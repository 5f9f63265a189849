import { type ReactNode, StrictMode, useEffect } from "react"
import { createRoot } from "react-dom/client"
import { AtomRegistry, RegistryProvider } from "sitefx/react"
import { App } from "./App.tsx"
import { startFirstScreen } from "./store/firstScreen.ts"
import "./styles.css"

const registry = AtomRegistry.make()
// the first screen's requests start now; React's own subscriptions hold them once it has rendered
const release = startFirstScreen(registry, window.location.hash)

/** Lets the early subscriptions go after the first commit (children subscribe before a parent's effect runs). */
function Started(props: { readonly children: ReactNode }) {
  useEffect(release, [])
  return props.children
}

createRoot(document.getElementById("root")!).render(
  <StrictMode>
    <RegistryProvider registry={registry}>
      <Started>
        <App />
      </Started>
    </RegistryProvider>
  </StrictMode>
)
