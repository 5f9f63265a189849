/** The live events panel: the site's events as they happen, newest first, filtered by kind. */
import { useAtom, useAtomValue } from "sitefx/react"
import type { LiveEvent } from "sitefx/events"
import { ResultView } from "../shell/Result.tsx"
import { eventsAtom, eventTypesAtom } from "./atoms.ts"

const KINDS: ReadonlyArray<{ readonly label: string; readonly types: string }> = [
  { label: "All events", types: "" },
  { label: "Data items", types: "wix.data.v2.data_item_created,wix.data.v2.data_item_updated,wix.data.v2.data_item_deleted" },
  {
    label: "Products and collections",
    types: [
      "ProductCreated", "ProductChanged", "ProductDeleted", "VariantsChanged", "CollectionCreated", "CollectionChanged", "CollectionDeleted"
    ].map((t) => `com.wix.ecommerce.catalog.api.v1.${t}`).join(",")
  },
  { label: "Stock", types: "com.wix.ecommerce.inventory.api.v1.InventoryItemChanged,com.wix.ecommerce.inventory.api.v1.InventoryVariantsChanged" }
]

/** What an event is about, in a few words. */
const summary = (e: LiveEvent): string => {
  const event = e.event
  if (event === undefined) return e.type
  if (event._tag === "Domain") return `${event.change._tag.toLowerCase()} ${event.entityFqdn.split(".").pop()} ${event.entityId}`
  const data = event.data as Record<string, unknown>
  const id = data["productId"] ?? data["collection_Id"] ?? data["inventoryItemId"] ?? data["cartId"]
  return `${e.type.split(".").pop()}${id === undefined ? "" : ` ${String(id)}`}`
}

const who = (e: LiveEvent): string => {
  const identity = e.event?.identity
  switch (identity?.identityType) {
    case "ANONYMOUS_VISITOR":
      return "a visitor"
    case "MEMBER":
      return "a member"
    case "WIX_USER":
      return "the site's owner"
    case "APP":
      return "an app"
    default:
      return "someone"
  }
}

export function EventsPanel() {
  const [types, setTypes] = useAtom(eventTypesAtom)
  const key = types.join(",")
  const events = useAtomValue(eventsAtom)
  const wanted = new Set(types)
  return (
    <section aria-labelledby="events-title">
      <h1 id="events-title">Live events</h1>
      <p>What happens on the site, as it happens: writes to data collections, the store and its stock.</p>
      <label htmlFor="event-kind">Show</label>
      <select id="event-kind" value={key} onChange={(e) => setTypes(e.target.value === "" ? [] : e.target.value.split(","))}>
        {KINDS.map((k) => <option key={k.label} value={k.types}>{k.label}</option>)}
      </select>
      <ResultView result={events} loading="Connecting to the site's events" failed="The events could not be followed.">
        {(all) => {
          const shown = wanted.size === 0 ? all : all.filter((e) => wanted.has(e.type))
          return shown.length === 0
            ? <p className="notice" role="status">Connected. Events {wanted.size === 0 ? "" : "of this kind "}appear here as the site changes.</p>
            : (
              <ol className="events" aria-label="Events" aria-live="polite">
                {shown.map((e) => (
                  <li key={e.id}>
                    <span className="event-kind">{e.type}</span>
                    <span>{summary(e)}</span>
                    <span className="event-who">by {who(e)}</span>
                  </li>
                ))}
              </ol>
            )
        }}
      </ResultView>
    </section>
  )
}
