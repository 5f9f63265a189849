/**
 * The settings panel: the site's switches (captcha, email verification, owner approval, MFA), the
 * access tokens' lifetime and the store catalog's version, then the production profile (on or off, the
 * plan, the rate limit: ./ProfileSection.tsx); each change is saved at once.
 */
import type { Settings } from "sitefx/dev"
import { useAtomRefresh, useAtomSet, useAtomValue } from "sitefx/react"
import { type FormEvent, useState } from "react"
import { ActionStatus, ResultView } from "../shell/Result.tsx"
import { type Change, changeSettings, settingsAtom } from "./atoms.ts"
import { ProfileSection } from "./ProfileSection.tsx"

const SWITCHES = [
  { key: "captcha", label: "Captcha", about: "registrations and logins need a captcha token" },
  { key: "emailVerification", label: "Email verification", about: "new members verify their email with a code before they can log in" },
  { key: "ownerApproval", label: "Owner approval", about: "new members wait until the site's owner approves them" },
  { key: "mfaRequired", label: "MFA required", about: "members with a factor verify a code at every login" }
] as const

const CATALOGS = [["V1_CATALOG", "Catalog v1"], ["V3_CATALOG", "Catalog v3"], ["STORES_NOT_INSTALLED", "No store"]] as const

function Lifetime(props: { readonly seconds: number; readonly change: (c: Change) => void }) {
  const [value, setValue] = useState(String(props.seconds))
  const save = (event: FormEvent) => {
    event.preventDefault()
    const seconds = Number(value)
    props.change({ patch: { accessTokenTtlSeconds: seconds }, said: `Access tokens now last ${seconds} seconds.` })
  }
  return (
    <form className="toolbar" onSubmit={save}>
      <label htmlFor="ttl">Access token lifetime (seconds)</label>
      <input id="ttl" type="number" min={1} step={1} required value={value} onChange={(e) => setValue(e.target.value)} />
      <button type="submit" className="secondary">Save lifetime</button>
    </form>
  )
}

export function SettingsPanel() {
  const settings = useAtomValue(settingsAtom)
  const refresh = useAtomRefresh(settingsAtom)
  const change = useAtomSet(changeSettings)
  const outcome = useAtomValue(changeSettings)
  return (
    <section aria-labelledby="settings-title">
      <h1 id="settings-title">Settings</h1>
      <p className="lead">The site's switches. A change applies to the next request.</p>
      <ActionStatus result={outcome} />
      <ResultView result={settings} loading="Reading the settings" failed="The settings could not be read." retry={refresh}>
        {(s) => (
          <>
            <fieldset className="switches">
              <legend>Members</legend>
              {SWITCHES.map((w) => (
                <div key={w.key} className="switch">
                  <input
                    id={`setting-${w.key}`}
                    type="checkbox"
                    checked={s[w.key]}
                    aria-describedby={`setting-${w.key}-about`}
                    onChange={(e) => change({ patch: { [w.key]: e.target.checked }, said: `${w.label} is now ${e.target.checked ? "on" : "off"}.` })}
                  />
                  <label htmlFor={`setting-${w.key}`}>{w.label}</label>
                  <p id={`setting-${w.key}-about`} className="muted">{w.about}</p>
                </div>
              ))}
            </fieldset>
            <Lifetime key={s.accessTokenTtlSeconds} seconds={s.accessTokenTtlSeconds} change={change} />
            <div className="toolbar">
              <label htmlFor="catalog-version">Store catalog</label>
              <select
                id="catalog-version"
                value={s.catalogVersion}
                onChange={(e) => change({ patch: { catalogVersion: e.target.value as Settings.SiteSettings["catalogVersion"] }, said: `The store catalog is now ${e.target.value}.` })}
              >
                {CATALOGS.map(([value, label]) => <option key={value} value={value}>{label}</option>)}
              </select>
            </div>
          </>
        )}
      </ResultView>
      <ProfileSection />
    </section>
  )
}
