/**
 * The live events panel: the site's events as they happen, newest first, filtered by kind. Each row says
 * what happened to what (a data item by its collection and its title), when, and who did it.
 */
import { useAtom, useAtomValue } from "sitefx/react"
import type { LiveEvent } from "sitefx/events"
import { collectionById } from "../data/collections.ts"
import { ResultView } from "../shell/Result.tsx"
import { eventsAtom, eventTypesAtom, type ShownEvent } from "./atoms.ts"

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

const DATA_ITEM = "wix.data.v2.data_item"

/** The fields that name a thing, in the order they are tried. */
const NAME_FIELDS = ["title", "name", "displayName", "label", "nickname", "loginEmail"] as const

const isRecord = (value: unknown): value is Readonly<Record<string, unknown>> => typeof value === "object" && value !== null

/** What names a thing: its own display field (`preferred`), else a name-like field; undefined when none has text. */
const nameOf = (fields: unknown, preferred?: string): string | undefined => {
  if (!isRecord(fields)) return undefined
  for (const key of preferred === undefined ? NAME_FIELDS : [preferred, ...NAME_FIELDS]) {
    const value = fields[key]
    if (typeof value === "string" && value.trim() !== "") return value
  }
  return undefined
}

/** A data item event's collection, id and fields (none in a removal that carries only the ids). */
const dataItemOf = (e: LiveEvent): { readonly collection: string; readonly id: string; readonly data: unknown } | undefined => {
  const event = e.event
  if (event?._tag !== "Domain" || event.entityFqdn !== DATA_ITEM) return undefined
  const entity: unknown = event.change._tag === "Action" ? undefined : event.change.entity
  const collection = isRecord(entity) && typeof entity["dataCollectionId"] === "string" ? entity["dataCollectionId"] : "a collection"
  return { collection, id: event.entityId, data: isRecord(entity) ? entity["data"] : undefined }
}

const VERBS = { Created: "Created", Updated: "Updated", Deleted: "Removed", Action: "Acted on" } as const

/**
 * What an event is about, in a few words: for a data item, what happened, its title (or another field
 * naming it, or its id) and its collection; a removal, which carries no fields, takes the title an earlier
 * event of the same item showed.
 */
function Summary(props: { readonly e: LiveEvent; readonly earlier: ReadonlyArray<ShownEvent> }) {
  const { e } = props
  const event = e.event
  if (event === undefined) return <span className="event-what">{e.type}</span>
  const item = dataItemOf(e)
  if (item !== undefined && event._tag === "Domain") {
    const displayField = collectionById(item.collection)?.displayField
    const before = props.earlier.map((s) => dataItemOf(s.live)).find((d) => d?.id === item.id && d.collection === item.collection && d.data !== undefined)
    const name = nameOf(item.data, displayField) ?? nameOf(before?.data, displayField)
    return (
      <span className="event-what">
        {VERBS[event.change._tag]} {name === undefined ? <>item <code>{item.id}</code></> : <strong className="event-title">“{name}”</strong>}{" "}
        {event.change._tag === "Deleted" ? "from" : "in"} <span className="event-collection">{item.collection}</span>
      </span>
    )
  }
  if (event._tag === "Domain") {
    const entity = event.change._tag === "Action" ? undefined : event.change.entity
    const what = event.entityFqdn.split(".").pop()?.replaceAll("_", " ")
    const name = nameOf(entity)
    return (
      <span className="event-what">
        {VERBS[event.change._tag]} {what} {name === undefined ? <code>{event.entityId}</code> : <strong>“{name}”</strong>}
      </span>
    )
  }
  const data = event.data as Record<string, unknown>
  const id = data["productId"] ?? data["collection_Id"] ?? data["inventoryItemId"] ?? data["cartId"]
  const name = nameOf(data) ?? nameOf(data["product"]) ?? nameOf(data["collection"])
  return (
    <span className="event-what">
      {e.type.split(".").pop()} {name !== undefined ? <strong>“{name}”</strong> : id === undefined ? null : <code>{String(id)}</code>}
    </span>
  )
}

/** When the event happened (as the platform says for a domain event; when it came, for the others). */
function When(props: { readonly shown: ShownEvent }) {
  const event = props.shown.live.event
  const at = event?._tag === "Domain" ? event.eventTime : props.shown.receivedAt
  return <time className="event-time" dateTime={at.toISOString()} title={at.toLocaleString()}>{at.toLocaleTimeString()}</time>
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
          const shown = wanted.size === 0 ? all : all.filter((e) => wanted.has(e.live.type))
          return shown.length === 0
            ? <p className="notice" role="status">Connected. Events {wanted.size === 0 ? "" : "of this kind "}appear here as the site changes.</p>
            : (
              <ol className="events" aria-label="Events" aria-live="polite">
                {shown.map((s) => (
                  <li key={s.live.id}>
                    <Summary e={s.live} earlier={all.slice(all.indexOf(s) + 1)} />
                    <When shown={s} />
                    <span className="event-who">by {who(s.live)}</span>
                    <span className="event-kind">{s.live.type}</span>
                  </li>
                ))}
              </ol>
            )
        }}
      </ResultView>
    </section>
  )
}
