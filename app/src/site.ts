/**
 * The app's connection to its site: a visitor session's tokens (kept in localStorage, so they survive
 * reloads and are shared by the tabs) and the platform client, on the platform that serves the app, and
 * the atom runtime every screen reads through. The sign-in flows are not here: the member area adds
 * them on top of this runtime when it loads.
 */
import { Atom } from "effect/reactivity"
import { tabTokenStore } from "sitefx/react"
import { siteClient } from "sitefx/session"
import { CLIENT_ID, platformUrl } from "./platform.ts"

export { CLIENT_ID, platformUrl }

/** Tabs share the session and refresh its tokens one at a time. */
export const runtime = Atom.runtime(siteClient({ clientId: CLIENT_ID, baseUrl: platformUrl, tokens: tabTokenStore() }))
