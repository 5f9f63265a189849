/**
 * The console: the panel the location names, inside the console's frame. The events panel loads when
 * first opened: it brings the live event stream and its decoding, which no other panel needs.
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

const PANELS = {
  members: MembersPanel,
  outbox: OutboxPanel,
  requests: RequestsPanel,
  events: EventsPanel,
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
