/**
 * The members panel: every member with their status and factors, and what the site's owner does to one
 * (approve, block, require a password reset, enroll or remove an MFA factor).
 */
import { useAtomRefresh, useAtomSet, useAtomValue } from "sitefx/react"
import type { Members } from "sitefx/dev"
import { type FormEvent, useState } from "react"
import { ActionStatus, ResultView } from "../shell/Result.tsx"
import { type MemberAction, memberAction, membersAtom } from "./atoms.ts"

type Identity = Members.Identity

function EnrollFactor(props: { readonly member: Identity; readonly email: string; readonly act: (a: MemberAction) => void }) {
  const [type, setType] = useState<"TOTP" | "EMAIL" | "SMS">("TOTP")
  const [phone, setPhone] = useState("")
  const id = `enroll-${props.member.id}`
  const enroll = (event: FormEvent) => {
    event.preventDefault()
    const factor: Members.FactorInput = type === "SMS" ? { type, phone } : { type }
    props.act({ kind: "enroll", id: props.member.id, email: props.email, factor })
  }
  return (
    <form className="inline-form" onSubmit={enroll} aria-label={`Enroll a factor for ${props.email}`}>
      <label htmlFor={`${id}-type`}>Factor</label>
      <select id={`${id}-type`} value={type} onChange={(e) => setType(e.target.value as typeof type)}>
        <option value="TOTP">TOTP (authenticator app)</option>
        <option value="EMAIL">Email code</option>
        <option value="SMS">SMS code</option>
      </select>
      {type === "SMS"
        ? (
          <>
            <label htmlFor={`${id}-phone`}>Phone</label>
            <input id={`${id}-phone`} type="tel" value={phone} onChange={(e) => setPhone(e.target.value)} autoComplete="off" />
          </>
        )
        : null}
      <button type="submit" className="secondary">Enroll</button>
    </form>
  )
}

function MemberCard(props: { readonly member: Identity; readonly act: (a: MemberAction) => void }) {
  const m = props.member
  const email = m.email?.address ?? m.id
  const status = m.status?.name ?? "UNKNOWN_STATUS"
  return (
    <li className="card">
      <div className="card-head">
        <strong className="wrap">{email}</strong>
        <span className={`badge status-${status.toLowerCase()}`}>{status.toLowerCase()}</span>
        {m.email === undefined ? null : <span className="muted">{m.email.isVerified ? "email verified" : "email not verified"}</span>}
      </div>
      {m.status?.reasons === undefined || m.status.reasons.length === 0
        ? null
        : <p className="muted">Waiting for: {m.status.reasons.map((r) => r.toLowerCase().replaceAll("_", " ")).join(", ")}</p>}
      <p className="muted wrap">id <code>{m.id}</code></p>
      <div className="factors">
        <span>Factors:</span>
        {(m.factors ?? []).length === 0 ? <span className="muted">none</span> : null}
        <ul>
          {(m.factors ?? []).map((f) => (
            <li key={f.factorId}>
              {f.type} <span className="muted">({f.status.toLowerCase()})</span>{" "}
              <button
                type="button"
                className="small secondary"
                aria-label={`Remove ${email}'s ${f.type} factor`}
                onClick={() => props.act({ kind: "remove-factor", id: m.id, email, factorId: f.factorId, type: f.type })}
              >
                Remove
              </button>
            </li>
          ))}
        </ul>
      </div>
      <div className="actions">
        <button type="button" aria-label={`Approve ${email}`} disabled={status !== "PENDING"} onClick={() => props.act({ kind: "approve", id: m.id, email })}>
          Approve
        </button>
        <button type="button" className="secondary" aria-label={`Block ${email}`} disabled={status === "BLOCKED"} onClick={() => props.act({ kind: "block", id: m.id, email })}>
          Block
        </button>
        <button type="button" className="secondary" aria-label={`Require ${email} to reset their password`} onClick={() => props.act({ kind: "require-reset", id: m.id, email })}>
          Require password reset
        </button>
      </div>
      <EnrollFactor member={m} email={email} act={props.act} />
    </li>
  )
}

export function MembersPanel() {
  const members = useAtomValue(membersAtom)
  const refresh = useAtomRefresh(membersAtom)
  const act = useAtomSet(memberAction)
  const outcome = useAtomValue(memberAction)
  const [search, setSearch] = useState("")
  return (
    <section aria-labelledby="members-title">
      <h1 id="members-title">Members</h1>
      <p className="lead">The site's members as the platform holds them. What you do here is a dev endpoint a script can call too (<code>sitefx/dev</code> Members).</p>
      <div className="toolbar">
        <label htmlFor="member-search">Find by email</label>
        <input id="member-search" type="search" value={search} onChange={(e) => setSearch(e.target.value)} />
        <button type="button" className="secondary" onClick={refresh}>Refresh</button>
      </div>
      <ActionStatus result={outcome} />
      <ResultView result={members} loading="Reading the members" failed="The members could not be read." retry={refresh}>
        {(all) => {
          const wanted = search.trim().toLowerCase()
          const shown = wanted === "" ? all : all.filter((m) => (m.email?.address ?? "").toLowerCase().includes(wanted))
          return shown.length === 0
            ? <p className="notice">{all.length === 0 ? "The site has no members yet." : "No member's email has that in it."}</p>
            : <ul className="cards" aria-label="Members">{shown.map((m) => <MemberCard key={m.id} member={m} act={act} />)}</ul>
        }}
      </ResultView>
    </section>
  )
}
