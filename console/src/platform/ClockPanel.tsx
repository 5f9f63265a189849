/**
 * The clock and faults panel: how far the platform's clock runs ahead of this machine's (to expire
 * tokens, codes and links without waiting), and injected faults (requests under a path meet a status,
 * a delay, a reset connection, a cut-short or slow answer, to see how a client copes), with their hits.
 */
import { useAtomRefresh, useAtomSet, useAtomValue } from "sitefx/react"
import { type FormEvent, useState } from "react"
import { ActionStatus, ResultView } from "../shell/Result.tsx"
import type { Faults } from "sitefx/dev"
import { clockAtom, describeFault, describeReach, describeSkew, faultAction, faultsAtom, setSkew } from "./atoms.ts"

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

type FaultRequest = Faults.FaultRequest
type Kind = NonNullable<FaultRequest["kind"]>
type Status = NonNullable<FaultRequest["status"]>

const KINDS: ReadonlyArray<readonly [Kind, string]> = [
  ["status", "Answer a status"],
  ["latency", "Delay the request"],
  ["reset", "Reset the connection"],
  ["truncate", "Cut the answer short"],
  ["slow", "Send the answer slowly"]
]

/** The optional whole number typed in a field, left out when empty. */
const typedNumber = <K extends string>(key: K, text: string): { [P in K]?: number } =>
  (text.trim() === "" ? {} : { [key]: Number(text) }) as { [P in K]?: number }

function FaultsSection() {
  const faults = useAtomValue(faultsAtom)
  const refresh = useAtomRefresh(faultsAtom)
  const act = useAtomSet(faultAction)
  const outcome = useAtomValue(faultAction)
  const [path, setPath] = useState("/wix-data/v2/items")
  const [method, setMethod] = useState("")
  const [kind, setKind] = useState<Kind>("status")
  const [status, setStatus] = useState<Status>(503)
  const [ms, setMs] = useState("500")
  const [when, setWhen] = useState<"before" | "after">("before")
  const [count, setCount] = useState("1")
  const [rate, setRate] = useState("")
  const [seed, setSeed] = useState("")
  const [retryAfter, setRetryAfter] = useState("")
  const add = (event: FormEvent) => {
    event.preventDefault()
    const fault: FaultRequest = {
      path: path.trim(),
      ...(method === "" ? {} : { method }),
      ...(kind === "status" ? { status, ...typedNumber("retryAfter", retryAfter) } : { kind }),
      ...(kind === "latency" || kind === "slow" ? { ms: Number(ms) } : {}),
      ...(kind === "reset" ? { when } : {}),
      ...typedNumber("count", count),
      ...typedNumber("rate", rate),
      ...(rate.trim() === "" ? {} : typedNumber("seed", seed))
    }
    act({ kind: "add", fault })
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
                {all.map((f) => (
                  <li key={f.id} className="card">
                    <span className="wrap">
                      <strong>{describeFault(f)}</strong> for {describeReach(f)} under <code>{f.path}</code>; faulted {f.hits} so far
                    </span>
                    <button type="button" className="secondary" onClick={() => act({ kind: "remove", id: f.id })}>Remove fault {f.id}</button>
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
          <label htmlFor="fault-method">Method</label>
          <select id="fault-method" value={method} onChange={(e) => setMethod(e.target.value)}>
            <option value="">Any</option>
            {["GET", "POST", "PUT", "PATCH", "DELETE"].map((m) => <option key={m} value={m}>{m}</option>)}
          </select>
        </div>
        <div>
          <label htmlFor="fault-kind">Fault</label>
          <select id="fault-kind" value={kind} onChange={(e) => setKind(e.target.value as Kind)}>
            {KINDS.map(([value, label]) => <option key={value} value={value}>{label}</option>)}
          </select>
        </div>
        {kind === "status" && (
          <>
            <div>
              <label htmlFor="fault-status">Answer</label>
              <select id="fault-status" value={status} onChange={(e) => setStatus(Number(e.target.value) as Status)}>
                <option value={429}>429 too many requests</option>
                <option value={500}>500 internal error</option>
                <option value={502}>502 bad gateway</option>
                <option value={503}>503 unavailable</option>
                <option value={504}>504 gateway timeout</option>
              </select>
            </div>
            <div>
              <label htmlFor="fault-retry">Retry-After seconds (optional)</label>
              <input id="fault-retry" type="number" min={0} step={1} value={retryAfter} onChange={(e) => setRetryAfter(e.target.value)} />
            </div>
          </>
        )}
        {(kind === "latency" || kind === "slow") && (
          <div>
            <label htmlFor="fault-ms">{kind === "latency" ? "Delay in ms" : "Send over ms"}</label>
            <input id="fault-ms" type="number" min={0} max={300000} step={1} required value={ms} onChange={(e) => setMs(e.target.value)} />
          </div>
        )}
        {kind === "reset" && (
          <div>
            <label htmlFor="fault-when">When</label>
            <select id="fault-when" value={when} onChange={(e) => setWhen(e.target.value as "before" | "after")}>
              <option value="before">Before the route: nothing changes</option>
              <option value="after">After the route: writes stay</option>
            </select>
          </div>
        )}
        <div>
          <label htmlFor="fault-count">Requests</label>
          <input id="fault-count" type="number" min={1} step={1} required={rate.trim() === ""} value={count} onChange={(e) => setCount(e.target.value)} />
        </div>
        <div>
          <label htmlFor="fault-rate">Probability (optional)</label>
          <input id="fault-rate" type="number" min={0.001} max={1} step="any" value={rate} onChange={(e) => setRate(e.target.value)} />
        </div>
        <div>
          <label htmlFor="fault-seed">Seed (optional, with a probability)</label>
          <input id="fault-seed" type="number" step={1} value={seed} disabled={rate.trim() === ""} onChange={(e) => setSeed(e.target.value)} />
        </div>
        <div className="actions">
          <button type="submit">Add fault</button>
          <button type="button" className="secondary" onClick={() => act({ kind: "clear" })}>Clear all faults</button>
          <button type="button" className="secondary" onClick={refresh}>Refresh faults</button>
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
