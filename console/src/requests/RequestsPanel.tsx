/**
 * The request log panel: the requests the platform served, filtered by status, caller, path, method
 * and index advice, newest first, with new ones arriving live; a refusal shows its error code and the
 * rule behind it, and a data query that scanned a collection without an index shows the index it
 * needed, with a button that creates it.
 */
import type { Requests } from "sitefx/dev"
import { useAtom, useAtomRefresh, useAtomSet, useAtomValue } from "sitefx/react"
import { type FormEvent, useState } from "react"
import { ActionStatus, ResultView } from "../shell/Result.tsx"
import { createIndex, filterAtom, type IndexAdvice, indexNameOf, type LogFilter, requestsAtom } from "./atoms.ts"

const STATUSES = [["", "any status"], ["2xx", "2xx success"], ["4xx", "4xx refused"], ["5xx", "5xx failed"], ["400", "400"], ["401", "401"], ["403", "403"], ["404", "404"], ["409", "409"], ["429", "429"]] as const
const CALLERS = [["", "anyone"], ["visitor", "visitors"], ["member", "members"], ["admin", "admins (API key)"]] as const
const METHODS = ["", "GET", "POST", "PUT", "PATCH", "DELETE"] as const

const statusClass = (status: number) => (status >= 500 ? "bad" : status >= 400 ? "warn" : "good")

const callerOf = (r: Requests.LoggedRequest) => (r.caller.kind === "none" ? "no credentials" : r.caller.id === undefined ? r.caller.kind : `${r.caller.kind} ${r.caller.id}`)

const counted = new Intl.NumberFormat("en-US")

/** The index a data query needed: the collection, the fields to index in order, the items it read; and a button that creates it. */
function Advice(props: { readonly advice: IndexAdvice; readonly create: (advice: IndexAdvice) => void }) {
  const a = props.advice
  return (
    <div className="advice">
      <span className="wrap">
        Index advice: scanned {counted.format(a.rowsScanned)} items of <code>{a.collection}</code> without an index; index{" "}
        {a.fields.map((f, i) => <span key={f}>{i === 0 ? "" : ", then "}<code>{f}</code></span>)}
      </span>
      <button type="button" className="secondary small" onClick={() => props.create(a)}>Create index {indexNameOf(a)} on {a.collection}</button>
    </div>
  )
}

function Row(props: { readonly request: Requests.LoggedRequest; readonly create: (advice: IndexAdvice) => void }) {
  const r = props.request
  return (
    <li className="log-row">
      <span className={`badge ${statusClass(r.status)}`}>{r.status}</span>
      <span className="method">{r.method}</span>
      <span className="wrap path">{r.path}</span>
      <span className="muted"><time dateTime={r.time}>{new Date(r.time).toLocaleTimeString()}</time> · {Math.round(r.durationMs)} ms · {callerOf(r)}</span>
      {r.code === undefined ? null : <span className="wrap">code <code>{r.code}</code></span>}
      {r.rule === undefined ? null : <span className="wrap rule">{r.rule.kind} <code>{r.rule.id}</code>: {r.rule.message}</span>}
      {r.advice === undefined ? null : <Advice advice={r.advice} create={props.create} />}
    </li>
  )
}

export function RequestsPanel() {
  const [filter, setFilter] = useAtom(filterAtom)
  const [form, setForm] = useState<LogFilter>(filter)
  const [memberId, setMemberId] = useState(filter.caller.startsWith("member:") ? filter.caller.slice(7) : "")
  const [hideOwn, setHideOwn] = useState(true)
  const atom = requestsAtom(JSON.stringify(filter))
  const requests = useAtomValue(atom)
  const refresh = useAtomRefresh(atom)
  const create = useAtomSet(createIndex)
  const created = useAtomValue(createIndex)
  const apply = (event: FormEvent) => {
    event.preventDefault()
    const caller = form.caller === "member" && memberId.trim() !== "" ? `member:${memberId.trim()}` : form.caller
    setFilter({ ...form, caller })
  }
  const field = <K extends keyof LogFilter>(key: K) => (value: LogFilter[K]) => setForm({ ...form, [key]: value })
  return (
    <section aria-labelledby="requests-title">
      <h1 id="requests-title">Requests</h1>
      <p className="lead">
        Every request the platform served, newest first; refusals carry their error code and the rule that refused them, and a data query that scanned a
        collection without an index the index it needed.
      </p>
      <form className="filters" onSubmit={apply} aria-label="Filter the requests">
        <div>
          <label htmlFor="log-status">Status</label>
          <select id="log-status" value={form.status} onChange={(e) => field("status")(e.target.value)}>
            {STATUSES.map(([value, label]) => <option key={value} value={value}>{label}</option>)}
          </select>
        </div>
        <div>
          <label htmlFor="log-caller">Caller</label>
          <select id="log-caller" value={form.caller.startsWith("member:") ? "member" : form.caller} onChange={(e) => field("caller")(e.target.value)}>
            {CALLERS.map(([value, label]) => <option key={value} value={value}>{label}</option>)}
          </select>
        </div>
        {form.caller === "member" || form.caller.startsWith("member:")
          ? (
            <div>
              <label htmlFor="log-member">Member id (optional)</label>
              <input id="log-member" value={memberId} onChange={(e) => setMemberId(e.target.value)} autoComplete="off" />
            </div>
          )
          : null}
        <div>
          <label htmlFor="log-path">Path starts with</label>
          <input id="log-path" value={form.path} onChange={(e) => field("path")(e.target.value)} placeholder="/wix-data" autoComplete="off" />
        </div>
        <div>
          <label htmlFor="log-method">Method</label>
          <select id="log-method" value={form.method} onChange={(e) => field("method")(e.target.value)}>
            {METHODS.map((m) => <option key={m} value={m}>{m === "" ? "any method" : m}</option>)}
          </select>
        </div>
        <div className="checks">
          <label><input type="checkbox" checked={form.live} onChange={(e) => field("live")(e.target.checked)} /> Live: show new requests as they arrive</label>
          <label><input type="checkbox" checked={hideOwn} onChange={(e) => setHideOwn(e.target.checked)} /> Hide calls to the dev endpoints</label>
          <label><input type="checkbox" checked={form.advice} onChange={(e) => field("advice")(e.target.checked)} /> Only queries with an index advice</label>
        </div>
        <div className="actions">
          <button type="submit">Apply filters</button>
          <button type="button" className="secondary" onClick={refresh}>Refresh</button>
        </div>
      </form>
      <ActionStatus result={created} />
      <ResultView
        result={requests}
        loading="Reading the request log"
        failed="The request log could not be read."
        retry={refresh}
        unavailable={{ what: "The request log", endpoint: "GET /_sitefx/requests" }}
      >
        {(all) => {
          const shown = hideOwn ? all.filter((r) => !r.path.startsWith("/_sitefx")) : all
          return (
            <>
              <p className="muted">{filter.live ? "Live. " : ""}{shown.length === 0 ? "No request matches yet." : `${shown.length} shown.`}</p>
              <ol className="log" aria-label="Requests">{shown.map((r) => <Row key={r.seq} request={r} create={create} />)}</ol>
            </>
          )
        }}
      </ResultView>
    </section>
  )
}
