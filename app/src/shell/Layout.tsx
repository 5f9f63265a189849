/**
 * The frame of every screen: a header with the site's sections, the screen, and a footer. Without Effect:
 * the first screen's bootstrap draws it, and the full app fills its `session` slot and the screen inside
 * the same frame, so the header (and what the search box holds) stays as it is when the full app takes over.
 */
import type { ReactNode } from "react"
import { href } from "./router.ts"

const SECTIONS = [
  { id: "store", label: "Store" },
  { id: "member", label: "Account" },
  { id: "data", label: "Data" },
  { id: "events", label: "Live events" }
] as const

/**
 * `search`: the store's search box, shown in the header; `session`: who is signed in (the full app's
 * SessionBar), in a place of its own size from the first paint on, before the full app fills it.
 */
export function Layout(props: { readonly section: string; readonly search?: ReactNode; readonly session?: ReactNode; readonly children: ReactNode }) {
  return (
    <>
      <a className="skip" href="#main">Skip to content</a>
      <header className="site-header">
        <a className="brand" href={href("store")}>sitefx demo store</a>
        <nav aria-label="Sections">
          <ul>
            {SECTIONS.map((s) => (
              <li key={s.id}>
                <a href={href(s.id)} aria-current={props.section === s.id ? "page" : undefined}>{s.label}</a>
              </li>
            ))}
          </ul>
        </nav>
        {props.search}
        {/* the session's place keeps its size whoever is signed in, so the rest of the header never moves */}
        <div className="session-slot">{props.session}</div>
      </header>
      <main id="main" tabIndex={-1}>{props.children}</main>
      <footer className="site-footer">
        <p>A headless site on the sitefx local platform. Everything here reads sitefx through atoms.</p>
      </footer>
    </>
  )
}
