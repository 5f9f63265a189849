/**
 * Where the app's site is, apart from the session that talks to it: the first screen's bootstrap reads
 * these without loading Effect. During development with Vite's server, `VITE_SITEFX_URL` names the platform.
 */

/** The platform's address: the page's own origin when the platform serves the app. */
export const platformUrl: string = (import.meta as unknown as { env?: Record<string, string | undefined> }).env?.["VITE_SITEFX_URL"] ?? window.location.origin

/** The local platform's demo OAuth client. */
export const CLIENT_ID = "sitefx-local-client"
