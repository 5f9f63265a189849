/**
 * The app: the section the location names, inside the site's frame. The store is in the first load;
 * the member area, the data browser and the events panel load when first opened.
 */
import { lazy, Suspense } from "react"
import { Layout } from "./shell/Layout.tsx"
import { Loading } from "./shell/Result.tsx"
import { useRoute } from "./shell/router.ts"
import { HeaderSearch } from "./store/HeaderSearch.tsx"
import { Storefront } from "./store/Storefront.tsx"

const MemberArea = lazy(() => import("./member/MemberArea.tsx").then((m) => ({ default: m.MemberArea })))
const DataBrowser = lazy(() => import("./data/DataBrowser.tsx").then((m) => ({ default: m.DataBrowser })))
const EventsPanel = lazy(() => import("./events/EventsPanel.tsx").then((m) => ({ default: m.EventsPanel })))

export function App() {
  const [section = "store", ...rest] = useRoute()
  return (
    <Layout section={section} search={<HeaderSearch />}>
      <Suspense fallback={<Loading label="Opening" />}>
        {section === "member"
          ? <MemberArea path={rest} />
          : section === "data"
          ? <DataBrowser path={rest} />
          : section === "events"
          ? <EventsPanel />
          : <Storefront path={rest} />}
      </Suspense>
    </Layout>
  )
}
