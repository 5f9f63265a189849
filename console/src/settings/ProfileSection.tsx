/**
 * The production profile's part of the settings panel: whether it is on, the site's plan, and the rate
 * limit of calls made with an API key (calls per window, the window's seconds), with what they mean now;
 * each change goes through sitefx/dev's Profile.
 */
import { Profile } from "sitefx/dev"
import { useAtomRefresh, useAtomSet, useAtomValue } from "sitefx/react"
import { type FormEvent, useState } from "react"
import { ActionStatus, ResultView } from "../shell/Result.tsx"
import { changeProfile, count, describeLimit, type ProfileChange, profileAtom } from "./atoms.ts"

const PLANS = [["free", "Free"], ["premium", "Premium"], ["elite", "Elite"]] as const

/** The platform's documented limit: 200 calls a minute per app instance. */
const PLATFORM_LIMIT = { rateLimit: 200, rateLimitWindowSeconds: 60 } as const

function Limit(props: { readonly state: Profile.ProfileState; readonly change: (c: ProfileChange) => void }) {
  const [calls, setCalls] = useState(String(props.state.rateLimit))
  const [windowSeconds, setWindowSeconds] = useState(String(props.state.rateLimitWindowSeconds))
  const save = (event: FormEvent) => {
    event.preventDefault()
    const patch = { rateLimit: Number(calls), rateLimitWindowSeconds: Number(windowSeconds) }
    props.change({ patch, said: `API keys may now make ${describeLimit(patch)}.` })
  }
  const platforms = props.state.rateLimit === PLATFORM_LIMIT.rateLimit && props.state.rateLimitWindowSeconds === PLATFORM_LIMIT.rateLimitWindowSeconds
  return (
    <form className="toolbar" onSubmit={save} aria-label="Rate limit">
      <label htmlFor="profile-calls">Calls per window</label>
      <input id="profile-calls" type="number" min={1} step={1} required value={calls} onChange={(e) => setCalls(e.target.value)} />
      <label htmlFor="profile-window">Window (seconds)</label>
      <input id="profile-window" type="number" min={0.001} max={86400} step="any" required value={windowSeconds} onChange={(e) => setWindowSeconds(e.target.value)} />
      <button type="submit" className="secondary">Save limit</button>
      <button
        type="button"
        className="secondary"
        disabled={platforms}
        onClick={() => props.change({ patch: PLATFORM_LIMIT, said: `API keys may now make ${describeLimit(PLATFORM_LIMIT)}, the platform's limit.` })}
      >
        The platform's limit
      </button>
    </form>
  )
}

/** What the profile does as it stands, in a sentence or two. */
function Summary(props: { readonly state: Profile.ProfileState }) {
  const p = props.state
  const threshold = `${count(Profile.scanThreshold(p))} unindexed items (the ${Profile.PLAN_TIMEOUT_SECONDS[p.plan]} s a data call may run on the ${p.plan} plan, at ${count(p.scanRowsPerSecond)} items a second)`
  return p.profile === "production"
    ? (
      <p className="notice">
        The production profile is <strong>on</strong>: an API key may make <strong>{describeLimit(p)}</strong> (then 429 until the window ends), and a data
        query that would scan more than {threshold} is refused as timed out (429, WDE0028).
      </p>
    )
    : (
      <p className="notice">
        The production profile is <strong>off</strong>: nothing is limited. A data query that scans more than {threshold} still answers, with an index advice in
        the request log.
      </p>
    )
}

export function ProfileSection() {
  const profile = useAtomValue(profileAtom)
  const refresh = useAtomRefresh(profileAtom)
  const change = useAtomSet(changeProfile)
  const outcome = useAtomValue(changeProfile)
  return (
    <section aria-labelledby="profile-title">
      <h2 id="profile-title">Production profile</h2>
      <p className="lead">Holds an app to the platform's documented limits: the rate limit of calls made with an API key, and the plan's timeout of data calls.</p>
      <ActionStatus result={outcome} />
      <ResultView
        result={profile}
        loading="Reading the production profile"
        failed="The production profile could not be read."
        retry={refresh}
        unavailable={{ what: "The production profile", endpoint: "GET /_sitefx/profile" }}
      >
        {(p) => (
          <>
            <Summary state={p} />
            <div className="switches">
              <div className="switch">
                <input
                  id="profile-on"
                  type="checkbox"
                  checked={p.profile === "production"}
                  aria-describedby="profile-on-about"
                  onChange={(e) =>
                    change({
                      patch: { profile: e.target.checked ? "production" : "none" },
                      said: `The production profile is now ${e.target.checked ? "on" : "off"}.`
                    })}
                />
                <label htmlFor="profile-on">Production profile</label>
                <p id="profile-on-about" className="muted">API keys' calls are rate-limited, and unindexed scans past the plan's timeout are refused</p>
              </div>
            </div>
            <div className="toolbar">
              <label htmlFor="profile-plan">Plan</label>
              <select
                id="profile-plan"
                value={p.plan}
                onChange={(e) => {
                  const plan = e.target.value as Profile.Plan
                  change({ patch: { plan }, said: `The plan is now ${plan}: data calls may run ${Profile.PLAN_TIMEOUT_SECONDS[plan]} s.` })
                }}
              >
                {PLANS.map(([value, label]) => <option key={value} value={value}>{label} ({Profile.PLAN_TIMEOUT_SECONDS[value]} s data calls)</option>)}
              </select>
            </div>
            <Limit key={`${p.rateLimit}/${p.rateLimitWindowSeconds}`} state={p} change={change} />
          </>
        )}
      </ResultView>
    </section>
  )
}
