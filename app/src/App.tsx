/**
 * The app's screens: the section the location names. The store is in the full app's chunk; the member
 * area, the data browser and the events panel load when first opened. The frame around them (Layout,
 * the header's search) is the entry's (main.tsx), so it is there before any of this loads.
 */
import { lazy, Suspense } from "react"
import { Loading } from "./shell/Loading.tsx"
import { useRoute } from "./shell/router.ts"
import { Storefront } from "./store/Storefront.tsx"

const MemberArea = lazy(() => import("./member/MemberArea.tsx").then((m) => ({ default: m.MemberArea })))
const DataBrowser = lazy(() => import("./data/DataBrowser.tsx").then((m) => ({ default: m.DataBrowser })))
const EventsPanel = lazy(() => import("./events/EventsPanel.tsx").then((m) => ({ default: m.EventsPanel })))

export function App() {
  const [section = "store", ...rest] = useRoute()
  return (
    <Suspense fallback={<Loading label="Opening" />}>
      {section === "member"
        ? <MemberArea path={rest} />
        : section === "data"
        ? <DataBrowser path={rest} />
        : section === "events"
        ? <EventsPanel />
        : <Storefront path={rest} />}
    </Suspense>
  )
}
