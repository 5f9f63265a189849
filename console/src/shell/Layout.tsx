/** The frame of every panel: a header with the platform's address and the panels, then the open panel. */
import type { MouseEvent, ReactNode } from "react"
import { platformUrl } from "../runtime.ts"
import { type Section, SECTIONS } from "./section.ts"

const skip = (event: MouseEvent<HTMLAnchorElement>) => {
  event.preventDefault()
  document.getElementById("main")?.focus()
}

export function Layout(props: { readonly section: Section; readonly children: ReactNode }) {
  return (
    <>
      {/* the hash names the panel, so skipping moves the focus instead of following the link */}
      <a className="skip" href={`#${props.section}`} onClick={skip}>Skip to the panel</a>
      <header className="console-header">
        <p className="brand">sitefx console <span className="where">{platformUrl}</span></p>
        <nav aria-label="Panels">
          <ul>
            {SECTIONS.map((s) => (
              <li key={s.id}>
                <a href={`#${s.id}`} aria-current={props.section === s.id ? "page" : undefined}>{s.label}</a>
              </li>
            ))}
          </ul>
        </nav>
      </header>
      <main id="main" tabIndex={-1}>{props.children}</main>
    </>
  )
}
