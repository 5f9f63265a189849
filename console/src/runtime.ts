/**
 * The console's connection: sitefx/dev's calls to the platform that serves the page (its own origin, so
 * the dev guard lets them through), and the atom runtime every panel reads through.
 */
import { Atom } from "effect/reactivity"
import * as Dev from "sitefx/dev"

/** The platform's address: the page's own origin. */
export const platformUrl: string = window.location.origin

export const runtime = Atom.runtime(Dev.layer({ baseUrl: platformUrl }))
