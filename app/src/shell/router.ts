/**
 * A small router over the location's hash (`#/store/product/:slug`), so the app works as static files
 * served at the platform's root and every screen has a URL that survives a reload.
 */
import { useSyncExternalStore } from "react"

const subscribe = (onChange: () => void) => {
  window.addEventListener("hashchange", onChange)
  return () => window.removeEventListener("hashchange", onChange)
}

/** The current route's path parts: `#/store/product/shirt` → `["store", "product", "shirt"]`. */
export const useRoute = (): ReadonlyArray<string> => {
  const hash = useSyncExternalStore(subscribe, () => window.location.hash, () => "")
  return hash.replace(/^#\/?/, "").split("?")[0]!.split("/").filter((p) => p !== "").map(decodeURIComponent)
}

/** The href of a route. */
export const href = (...parts: ReadonlyArray<string>): string => `#/${parts.map(encodeURIComponent).join("/")}`
