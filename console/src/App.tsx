/**
 * The console: the panel the location names, inside the console's frame. The events, orders and carts
 * panels load when first opened: they bring the admin calls (the site's API key), the live event stream
 * and its decoding, sitefx/ecom's orders and sitefx/catalog's abandoned carts, which no other panel needs.
 */
import { useAtomValue } from "sitefx/react"
import { lazy, Suspense } from "react"
import { MembersPanel } from "./members/MembersPanel.tsx"
import { OutboxPanel } from "./outbox/OutboxPanel.tsx"
import { ClockPanel } from "./platform/ClockPanel.tsx"
import { RequestsPanel } from "./requests/RequestsPanel.tsx"
import { Layout } from "./shell/Layout.tsx"
import { Loading } from "./shell/Result.tsx"
import { sectionAtom } from "./shell/section.ts"
import { SettingsPanel } from "./settings/SettingsPanel.tsx"
import { SnapshotsPanel } from "./snapshots/SnapshotsPanel.tsx"

const EventsPanel = lazy(() => import("./events/EventsPanel.tsx").then((m) => ({ default: m.EventsPanel })))
const OrdersPanel = lazy(() => import("./orders/OrdersPanel.tsx").then((m) => ({ default: m.OrdersPanel })))
const CartsPanel = lazy(() => import("./carts/CartsPanel.tsx").then((m) => ({ default: m.CartsPanel })))

const PANELS = {
  members: MembersPanel,
  outbox: OutboxPanel,
  requests: RequestsPanel,
  events: EventsPanel,
  orders: OrdersPanel,
  carts: CartsPanel,
  settings: SettingsPanel,
  clock: ClockPanel,
  snapshots: SnapshotsPanel
} as const

export function App() {
  const section = useAtomValue(sectionAtom)
  const Panel = PANELS[section]
  return (
    <Layout section={section}>
      <Suspense fallback={<Loading label="Opening the panel" />}>
        <Panel />
      </Suspense>
    </Layout>
  )
}
