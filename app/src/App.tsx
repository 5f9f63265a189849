/** The app: the section the location names, inside the site's frame. */
import { EventsPanel } from "./events/EventsPanel.tsx"
import { DataBrowser } from "./data/DataBrowser.tsx"
import { MemberArea } from "./member/MemberArea.tsx"
import { Layout } from "./shell/Layout.tsx"
import { useRoute } from "./shell/router.ts"
import { Storefront } from "./store/Storefront.tsx"

export function App() {
  const [section = "store", ...rest] = useRoute()
  return (
    <Layout section={section}>
      {section === "member" ? <MemberArea path={rest} /> : section === "data" ? <DataBrowser path={rest} /> : section === "events" ? <EventsPanel /> : <Storefront path={rest} />}
    </Layout>
  )
}
