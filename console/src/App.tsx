/**
 * The console: the panel the location names, inside the console's frame. The members panel, the one a
 * console opens on, is in the first load; every other panel loads when first opened, so the first load
 * carries neither their code nor what only they use: the request log's live tail, the admin calls (the
 * site's API key), the live event stream and its decoding, sitefx/ecom's orders and sitefx/catalog's
 * abandoned carts. test/package/consoleSize.test.ts holds the first load to its budget.
 */
import { useAtomValue } from "sitefx/react"
import { lazy, Suspense } from "react"
import { MembersPanel } from "./members/MembersPanel.tsx"
import { Layout } from "./shell/Layout.tsx"
import { Loading } from "./shell/Result.tsx"
import { sectionAtom } from "./shell/section.ts"

const OutboxPanel = lazy(() => import("./outbox/OutboxPanel.tsx").then((m) => ({ default: m.OutboxPanel })))
const RequestsPanel = lazy(() => import("./requests/RequestsPanel.tsx").then((m) => ({ default: m.RequestsPanel })))
const SettingsPanel = lazy(() => import("./settings/SettingsPanel.tsx").then((m) => ({ default: m.SettingsPanel })))
const ClockPanel = lazy(() => import("./platform/ClockPanel.tsx").then((m) => ({ default: m.ClockPanel })))
const SnapshotsPanel = lazy(() => import("./snapshots/SnapshotsPanel.tsx").then((m) => ({ default: m.SnapshotsPanel })))
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
