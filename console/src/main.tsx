import { StrictMode } from "react"
import { createRoot } from "react-dom/client"
import { RegistryProvider } from "sitefx/react"
import { App } from "./App.tsx"
import "./styles.css"

createRoot(document.getElementById("root")!).render(
  <StrictMode>
    <RegistryProvider>
      <App />
    </RegistryProvider>
  </StrictMode>
)
