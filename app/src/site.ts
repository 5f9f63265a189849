/**
 * The app's connection to its site: a visitor session's tokens (kept in localStorage, so they survive
 * reloads and are shared by the tabs) and the platform client, on the platform that serves the app, and
 * the atom runtime every screen reads through. The sign-in flows are not here: the member area adds
 * them on top of this runtime when it loads. During development with Vite's server, `VITE_SITEFX_URL`
 * names the platform.
 */
import { Atom } from "effect/reactivity"
import { tabTokenStore } from "sitefx/react"
import { siteClient } from "sitefx/session"

/** The platform's address: the page's own origin when the platform serves the app. */
export const platformUrl: string = (import.meta as { env?: Record<string, string | undefined> }).env?.["VITE_SITEFX_URL"] ?? window.location.origin

/** The local platform's demo OAuth client. */
export const CLIENT_ID = "sitefx-local-client"

/** Tabs share the session and refresh its tokens one at a time. */
export const runtime = Atom.runtime(siteClient({ clientId: CLIENT_ID, baseUrl: platformUrl, tokens: tabTokenStore() }))
