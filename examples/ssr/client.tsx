/**
 * The browser side of the server-rendering example: seeds a registry with the results the server put in
 * the page, then hydrates; the posts query is not asked again.
 */
import { hydrateRoot } from "react-dom/client"
import { AtomRegistry, hydrate, readQueriesScript, RegistryProvider } from "sitefx/react"
import { pageAtoms, PostsPage, type SiteConfig } from "./page.ts"

const site = JSON.parse(document.getElementById("site-config")!.textContent!) as SiteConfig
const registry = AtomRegistry.make()
hydrate(registry, readQueriesScript())
hydrateRoot(document.getElementById("root")!, <RegistryProvider registry={registry}><PostsPage atoms={pageAtoms(site)} /></RegistryProvider>)
document.documentElement.dataset["hydrated"] = "true"
