/**
 * The events panel: the webhook subscriptions (added and removed here), the dead letters of deliveries
 * the platform gave up on (redelivered or discarded, one or all), and the site's events as they happen.
 */
import type { Webhooks } from "sitefx/dev"
import type { LiveEvent } from "sitefx/events"
import { useAtomRefresh, useAtomSet, useAtomValue } from "sitefx/react"
import { type FormEvent, useState } from "react"
import { ActionStatus, ResultView } from "../shell/Result.tsx"
import { deadLettersAtom, liveEventsAtom, type WebhookAction, webhookAction, webhooksAtom } from "./atoms.ts"

function Subscriptions(props: { readonly act: (a: WebhookAction) => void }) {
  const webhooks = useAtomValue(webhooksAtom)
  const refresh = useAtomRefresh(webhooksAtom)
  const [url, setUrl] = useState("")
  const [types, setTypes] = useState("")
  const add = (event: FormEvent) => {
    event.preventDefault()
    props.act({ kind: "create", url: url.trim(), eventTypes: types.split(/[\s,]+/).filter((t) => t !== "") })
  }
  return (
    <section aria-labelledby="webhooks-title">
      <h2 id="webhooks-title">Webhook subscriptions</h2>
      <ResultView result={webhooks} loading="Reading the subscriptions" failed="The subscriptions could not be read." retry={refresh}>
        {(all) =>
          all.length === 0
            ? <p className="notice">No URL receives the site's events.</p>
            : (
              <ul className="cards" aria-label="Subscriptions">
                {all.map((w: Webhooks.Webhook) => (
                  <li key={w.id} className="card">
                    <strong className="wrap">{w.url}</strong>
                    <p className="muted wrap">{w.eventTypes.length === 0 ? "every event type" : w.eventTypes.join(", ")}</p>
                    <div className="actions">
                      <button type="button" className="secondary" aria-label={`Unsubscribe ${w.url}`} onClick={() => props.act({ kind: "remove", id: w.id, url: w.url })}>
                        Unsubscribe
                      </button>
                    </div>
                  </li>
                ))}
              </ul>
            )}
      </ResultView>
      <form className="toolbar" onSubmit={add} aria-label="Subscribe a URL">
        <label htmlFor="webhook-url">Receiver URL</label>
        <input id="webhook-url" type="url" required value={url} onChange={(e) => setUrl(e.target.value)} placeholder="http://127.0.0.1:3000/hooks" />
        <label htmlFor="webhook-types">Event types (optional, comma-separated)</label>
        <input id="webhook-types" value={types} onChange={(e) => setTypes(e.target.value)} placeholder="every type" autoComplete="off" />
        <button type="submit">Subscribe</button>
      </form>
    </section>
  )
}

function DeadLetters(props: { readonly act: (a: WebhookAction) => void }) {
  const letters = useAtomValue(deadLettersAtom)
  const refresh = useAtomRefresh(deadLettersAtom)
  return (
    <section aria-labelledby="dead-letters-title">
      <h2 id="dead-letters-title">Dead letters</h2>
      <p className="muted">Events the platform gave up delivering. Redeliver them once the receiver is back.</p>
      <div className="toolbar">
        <button type="button" className="secondary" onClick={refresh}>Refresh</button>
        <button type="button" className="secondary" onClick={() => props.act({ kind: "redeliver-all" })}>Redeliver all</button>
        <button type="button" className="secondary" onClick={() => props.act({ kind: "discard-all" })}>Discard all</button>
      </div>
      <ResultView result={letters} loading="Reading the dead letters" failed="The dead letters could not be read." retry={refresh}>
        {(all) =>
          all.length === 0
            ? <p className="notice">No dead letters: every delivery arrived.</p>
            : (
              <ul className="cards" aria-label="Dead letters">
                {all.map((l) => (
                  <li key={l.id} className="card">
                    <div className="card-head">
                      <span className="wrap"><strong>{l.eventType}</strong> event {l.eventId}</span>
                      {l.redelivering ? <span className="badge">redelivering</span> : null}
                    </div>
                    <p className="muted wrap">to {l.url} · {l.attempts} attempt{l.attempts === 1 ? "" : "s"} · last failed <time dateTime={l.failedDate}>{new Date(l.failedDate).toLocaleString()}</time></p>
                    <p className="wrap">{l.lastError}</p>
                    <div className="actions">
                      <button type="button" aria-label={`Redeliver the ${l.eventType} event ${l.eventId} to ${l.url}`} disabled={l.redelivering} onClick={() => props.act({ kind: "redeliver", id: l.id, eventType: l.eventType })}>
                        Redeliver
                      </button>
                      <button type="button" className="secondary" aria-label={`Discard the ${l.eventType} event ${l.eventId} to ${l.url}`} onClick={() => props.act({ kind: "discard", id: l.id, eventType: l.eventType })}>
                        Discard
                      </button>
                    </div>
                  </li>
                ))}
              </ul>
            )}
      </ResultView>
    </section>
  )
}

const entityOf = (e: LiveEvent): string => {
  const event = e.event
  if (event === undefined) return ""
  if (event._tag === "Domain") return `${event.entityFqdn.split(".").pop() ?? ""} ${event.entityId}`
  return ""
}

function LiveEvents() {
  const events = useAtomValue(liveEventsAtom)
  const refresh = useAtomRefresh(liveEventsAtom)
  return (
    <section aria-labelledby="live-title">
      <h2 id="live-title">Live events</h2>
      <ResultView result={events} loading="Connecting to the site's events" failed="The events could not be followed." retry={refresh}>
        {(all) =>
          all.length === 0
            ? <p className="notice">Connected. The site's events appear here as they happen.</p>
            : (
              <ol className="log" aria-label="Live events">
                {all.map((e) => (
                  <li key={e.id} className="log-row">
                    <span className="wrap method">{e.type}</span>
                    <span className="wrap muted">#{e.id} {entityOf(e)}</span>
                  </li>
                ))}
              </ol>
            )}
      </ResultView>
    </section>
  )
}

export function EventsPanel() {
  const act = useAtomSet(webhookAction)
  const outcome = useAtomValue(webhookAction)
  return (
    <section aria-labelledby="events-title">
      <h1 id="events-title">Events and webhooks</h1>
      <ActionStatus result={outcome} />
      <Subscriptions act={act} />
      <DeadLetters act={act} />
      <LiveEvents />
    </section>
  )
}
