/**
 * The outbox panel: the emails and texts the platform would have sent, newest first, each with its code
 * and token to copy and its link to follow (verification, recovery, activation).
 */
import type { Outbox } from "sitefx/dev"
import { useAtom, useAtomRefresh, useAtomValue } from "sitefx/react"
import { type FormEvent, useState } from "react"
import { Copyable } from "../shell/Copy.tsx"
import { ResultView } from "../shell/Result.tsx"
import { outboxAtom, outboxToAtom } from "./atoms.ts"

const KINDS: Readonly<Record<string, string>> = {
  EMAIL_VERIFICATION: "email verification",
  MFA_CODE: "MFA code",
  RECOVERY: "password recovery",
  ACTIVATION: "activation"
}

function Message(props: { readonly message: Outbox.OutboxMessage }) {
  const m = props.message
  return (
    <li className="card">
      <div className="card-head">
        <span className="badge">{KINDS[m.kind] ?? m.kind}</span>
        <strong className="wrap">{m.subject}</strong>
      </div>
      <p className="muted wrap">to {m.to} · <time dateTime={m.createdDate}>{new Date(m.createdDate).toLocaleString()}</time></p>
      {m.code === undefined ? null : <p><Copyable label="Code" value={m.code} /></p>}
      {m.link === undefined
        ? null
        : (
          <p className="wrap">
            <a href={m.link} target="_blank" rel="noreferrer noopener">Open the {KINDS[m.kind] ?? "message's"} link</a>{" "}
            <span className="muted">{m.link}</span>
          </p>
        )}
      {m.token === undefined || m.link !== undefined ? null : <p><Copyable label="Token" value={m.token} /></p>}
      <details>
        <summary>The message</summary>
        <p className="wrap">{m.body}</p>
      </details>
    </li>
  )
}

export function OutboxPanel() {
  const [to, setTo] = useAtom(outboxToAtom)
  const [typed, setTyped] = useState(to)
  const atom = outboxAtom(to)
  const messages = useAtomValue(atom)
  const refresh = useAtomRefresh(atom)
  const apply = (event: FormEvent) => {
    event.preventDefault()
    setTo(typed.trim())
  }
  return (
    <section aria-labelledby="outbox-title">
      <h1 id="outbox-title">Outbox</h1>
      <p className="lead">What the platform would have emailed or texted: codes, verification and recovery links.</p>
      <form className="toolbar" onSubmit={apply}>
        <label htmlFor="outbox-to">To address</label>
        <input id="outbox-to" type="email" value={typed} onChange={(e) => setTyped(e.target.value)} placeholder="every address" />
        <button type="submit" className="secondary">Show</button>
        <button type="button" className="secondary" onClick={refresh}>Refresh</button>
      </form>
      <ResultView result={messages} loading="Reading the outbox" failed="The outbox could not be read." retry={refresh}>
        {(all) =>
          all.length === 0
            ? <p className="notice">No messages{to === "" ? "" : ` to ${to}`} yet.</p>
            : <ul className="cards" aria-label="Messages">{[...all].reverse().map((m) => <Message key={m.id} message={m} />)}</ul>}
      </ResultView>
    </section>
  )
}
