/**
 * The console's connection: sitefx/dev's calls to the platform that serves the page (its own origin, so
 * the dev guard lets them through), and the atom runtime every panel reads through. While working on
 * the console with Vite's dev server, `VITE_SITEFX_URL` names the platform (which then needs
 * `sitefx serve --dev-origin http://localhost:5174`).
 */
import { Atom } from "effect/reactivity"
import * as Dev from "sitefx/dev"

/** The platform's address: the page's own origin when the platform serves the console. */
export const platformUrl: string = (import.meta as unknown as { env?: Record<string, string | undefined> }).env?.["VITE_SITEFX_URL"] ?? window.location.origin

export const runtime = Atom.runtime(Dev.layer({ baseUrl: platformUrl }))
