/**
 * The clock and faults panel: how far the platform's clock runs ahead of this machine's (to expire
 * tokens, codes and links without waiting), and injected faults (the next requests under a path answer
 * 429, 502, 503 or 504, to see how a client copes).
 */
import { useAtomRefresh, useAtomSet, useAtomValue } from "sitefx/react"
import { type FormEvent, useState } from "react"
import { ActionStatus, ResultView } from "../shell/Result.tsx"
import { clockAtom, describeSkew, faultAction, faultsAtom, setSkew } from "./atoms.ts"

const STEPS = [["+1 hour", 3600], ["+4 hours", 4 * 3600], ["+1 day", 86400], ["+30 days", 30 * 86400]] as const

function ClockSection() {
  const clock = useAtomValue(clockAtom)
  const refresh = useAtomRefresh(clockAtom)
  const set = useAtomSet(setSkew)
  const outcome = useAtomValue(setSkew)
  const [typed, setTyped] = useState("")
  const submit = (event: FormEvent) => {
    event.preventDefault()
    set(Number(typed))
  }
  return (
    <section aria-labelledby="clock-title">
      <h2 id="clock-title">Clock</h2>
      <ActionStatus result={outcome} />
      <ResultView result={clock} loading="Reading the clock" failed="The clock could not be read." retry={refresh}>
        {(c) => (
          <>
            <p>
              The platform's clock runs <strong>{describeSkew(c.skewSeconds)}</strong> (skew {c.skewSeconds} s); it read{" "}
              <time dateTime={c.now}>{new Date(c.now).toLocaleString()}</time>.
            </p>
            <div className="toolbar">
              {STEPS.map(([label, seconds]) => (
                <button key={label} type="button" className="secondary" onClick={() => set(c.skewSeconds + seconds)}>{label}</button>
              ))}
              <button type="button" className="secondary" onClick={() => set(0)}>Back in step</button>
            </div>
          </>
        )}
      </ResultView>
      <form className="toolbar" onSubmit={submit}>
        <label htmlFor="skew">Skew in seconds (negative: behind)</label>
        <input id="skew" type="number" step={1} required value={typed} onChange={(e) => setTyped(e.target.value)} />
        <button type="submit">Set skew</button>
      </form>
    </section>
  )
}

function FaultsSection() {
  const faults = useAtomValue(faultsAtom)
  const refresh = useAtomRefresh(faultsAtom)
  const act = useAtomSet(faultAction)
  const outcome = useAtomValue(faultAction)
  const [path, setPath] = useState("/wix-data/v2/items")
  const [status, setStatus] = useState<429 | 502 | 503 | 504>(503)
  const [count, setCount] = useState("1")
  const [retryAfter, setRetryAfter] = useState("")
  const add = (event: FormEvent) => {
    event.preventDefault()
    act({
      kind: "add",
      fault: { path: path.trim(), status, count: Number(count), ...(retryAfter.trim() === "" ? {} : { retryAfter: Number(retryAfter) }) }
    })
  }
  return (
    <section aria-labelledby="faults-title">
      <h2 id="faults-title">Faults</h2>
      <ActionStatus result={outcome} />
      <ResultView result={faults} loading="Reading the faults" failed="The faults could not be read." retry={refresh}>
        {(all) =>
          all.length === 0
            ? <p className="notice">No fault is pending: every request reaches its route.</p>
            : (
              <ul className="cards" aria-label="Pending faults">
                {all.map((f, i) => (
                  <li key={i} className="card">
                    <span className="wrap">
                      <strong>{f.status}</strong> for the next {f.count} request{f.count === 1 ? "" : "s"} under <code>{f.path}</code>
                      {f.retryAfter === undefined ? "" : `, retry after ${f.retryAfter} s`}
                    </span>
                  </li>
                ))}
              </ul>
            )}
      </ResultView>
      <form className="filters" onSubmit={add} aria-label="Add a fault">
        <div>
          <label htmlFor="fault-path">Path starts with</label>
          <input id="fault-path" required pattern="/.*" value={path} onChange={(e) => setPath(e.target.value)} autoComplete="off" />
        </div>
        <div>
          <label htmlFor="fault-status">Answer</label>
          <select id="fault-status" value={status} onChange={(e) => setStatus(Number(e.target.value) as typeof status)}>
            <option value={429}>429 too many requests</option>
            <option value={502}>502 bad gateway</option>
            <option value={503}>503 unavailable</option>
            <option value={504}>504 gateway timeout</option>
          </select>
        </div>
        <div>
          <label htmlFor="fault-count">Requests</label>
          <input id="fault-count" type="number" min={1} step={1} required value={count} onChange={(e) => setCount(e.target.value)} />
        </div>
        <div>
          <label htmlFor="fault-retry">Retry-After seconds (optional)</label>
          <input id="fault-retry" type="number" min={0} step={1} value={retryAfter} onChange={(e) => setRetryAfter(e.target.value)} />
        </div>
        <div className="actions">
          <button type="submit">Add fault</button>
          <button type="button" className="secondary" onClick={() => act({ kind: "clear" })}>Clear all faults</button>
        </div>
      </form>
    </section>
  )
}

export function ClockPanel() {
  return (
    <section aria-labelledby="clock-panel-title">
      <h1 id="clock-panel-title">Clock and faults</h1>
      <ClockSection />
      <FaultsSection />
    </section>
  )
}
