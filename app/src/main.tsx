/**
 * The entry: a bootstrap without Effect. It starts the first screen's requests with `sitefx/first-screen`
 * (boot/early.ts), draws the site's frame and, on the catalog's plain screen, the grid from their answers
 * (boot/BootCatalog.tsx), then loads the full app (full.tsx), which takes over inside the same frame with
 * the answers as its queries' seeds: no request twice, the header (and what the search box holds)
 * untouched, the screen's markup the same.
 */
// first: its requests start as it is evaluated, before React DOM's module is
import { early, type Early } from "./boot/early.ts"
import { StrictMode, useEffect, useState } from "react"
import { createRoot } from "react-dom/client"
import { BootCatalog } from "./boot/BootCatalog.tsx"
import { Layout } from "./shell/Layout.tsx"
import { Loading } from "./shell/Loading.tsx"
import { useRoute } from "./shell/router.ts"
import { HeaderSearch } from "./store/HeaderSearch.tsx"
import "./styles.css"

type Full = typeof import("./full.tsx")

// The full app loads once the bootstrap's grid is painted (at once where the bootstrap draws none): its
// modules' evaluation and its start (the session, the atoms) would otherwise hold the main thread while the
// bootstrap's answers wait to be drawn. It takes the answers, so it asks nothing twice.
let painted = () => {}
const drawn = new Promise<void>((resolve) => (painted = resolve))

const full: Promise<Full> = early
  .then((answers) => answers === undefined ? answers : drawn.then(() => answers))
  .then(async (answers) => {
    const app = await import("./full.tsx")
    app.start(answers)
    return app
  })

function Site() {
  const [answers, setAnswers] = useState<Early | undefined>(undefined)
  const [app, setApp] = useState<Full | undefined>(undefined)
  useEffect(() => {
    void early.then(setAnswers)
    full.then(setApp, (e: unknown) => console.error("The app could not be loaded:", e))
  }, [])
  useEffect(() => {
    // after this commit's frame has been painted
    if (answers !== undefined) requestAnimationFrame(() => setTimeout(painted, 0))
  }, [answers])
  const [section = "store", ...rest] = useRoute()
  return (
    <Layout section={section} search={<HeaderSearch />} session={app === undefined ? null : <app.Session />}>
      {app !== undefined ? <app.Screens /> : section === "store" && rest.length === 0 ? <BootCatalog early={answers} /> : <Loading label="Opening" />}
    </Layout>
  )
}

createRoot(document.getElementById("root")!).render(
  <StrictMode>
    <Site />
  </StrictMode>
)
