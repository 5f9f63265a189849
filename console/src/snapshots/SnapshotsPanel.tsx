/**
 * The snapshots panel: the platform's state saved by name (members, data, store, events), restored
 * later, downloaded as a file, deleted.
 */
import { Snapshots } from "sitefx/dev"
import { useAtomRefresh, useAtomSet, useAtomValue } from "sitefx/react"
import { type FormEvent, useState } from "react"
import { ActionStatus, ResultView } from "../shell/Result.tsx"
import { snapshotAction, snapshotsAtom } from "./atoms.ts"

const size = (bytes: number) => (bytes < 1024 ? `${bytes} B` : bytes < 1024 * 1024 ? `${(bytes / 1024).toFixed(1)} KB` : `${(bytes / 1024 / 1024).toFixed(1)} MB`)

export function SnapshotsPanel() {
  const snapshots = useAtomValue(snapshotsAtom)
  const refresh = useAtomRefresh(snapshotsAtom)
  const act = useAtomSet(snapshotAction)
  const outcome = useAtomValue(snapshotAction)
  const [name, setName] = useState("")
  const [overwrite, setOverwrite] = useState(false)
  const save = (event: FormEvent) => {
    event.preventDefault()
    act({ kind: "save", name: name.trim(), overwrite })
  }
  return (
    <section aria-labelledby="snapshots-title">
      <h1 id="snapshots-title">Snapshots</h1>
      <p className="lead">The platform's state saved by name, to come back to: members, data, the store and its events.</p>
      <ActionStatus result={outcome} />
      <ResultView
        result={snapshots}
        loading="Reading the snapshots"
        failed="The snapshots could not be read."
        retry={refresh}
        unavailable={{ what: "Snapshots", endpoint: "GET /_sitefx/snapshots" }}
      >
        {(all) => (
          <>
            <form className="toolbar" onSubmit={save} aria-label="Save a snapshot">
              <label htmlFor="snapshot-name">Name</label>
              <input id="snapshot-name" required value={name} onChange={(e) => setName(e.target.value)} autoComplete="off" />
              <label className="inline"><input type="checkbox" checked={overwrite} onChange={(e) => setOverwrite(e.target.checked)} /> Replace it</label>
              <button type="submit">Save snapshot</button>
            </form>
            {all.length === 0
              ? <p className="notice">No snapshot is saved yet.</p>
              : (
                <ul className="cards" aria-label="Snapshots">
                  {all.map((s) => (
                    <li key={s.name} className="card">
                      <div className="card-head">
                        <strong className="wrap">{s.name}</strong>
                        <span className="muted"><time dateTime={s.createdDate}>{new Date(s.createdDate).toLocaleString()}</time> · {size(s.sizeBytes)}</span>
                      </div>
                      <p className="muted">
                        {s.counts.members} members · {s.counts.collections} collections · {s.counts.items} items · {s.counts.products} products · {s.counts.orders === undefined ? "" : `${s.counts.orders} orders · `}{s.counts.events} events · sitefx {s.sitefxVersion}
                      </p>
                      <div className="actions">
                        <button type="button" aria-label={`Restore ${s.name}`} onClick={() => act({ kind: "restore", name: s.name })}>Restore</button>
                        <a className="button secondary" href={Snapshots.filePath(s.name)} download aria-label={`Download ${s.name}`}>Download</a>
                        <button type="button" className="secondary" aria-label={`Delete ${s.name}`} onClick={() => act({ kind: "delete", name: s.name })}>Delete</button>
                      </div>
                    </li>
                  ))}
                </ul>
              )}
          </>
        )}
      </ResultView>
    </section>
  )
}
