/**
 * The member area's atoms: the session atoms of sitefx/react (state, the member's profile, and every
 * member flow) on the sign-in flows, built when this area loads on top of the app's runtime, and, for the local platform, a captcha token minted by its dev
 * endpoint (a real site gets one from its captcha widget).
 */
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import { Atom } from "effect/reactivity"
import { sessionAtoms } from "sitefx/react"
import { memberFlows } from "sitefx/session"
import { who } from "../shell/who.ts"
import { platformUrl, runtime } from "../site.ts"

/**
 * The flows on the app runtime's own services: one token service for the header and this area, so a
 * sign-in here shows in the header at once.
 */
const memberRuntime = Atom.runtime((get) => memberFlows().pipe(Layer.provideMerge(Layer.effectContext(get.result(runtime)))))

/** The flows change the header's own state atoms, which follow the other tabs and keep the tokens fresh app-wide. */
export const session = sessionAtoms(memberRuntime, { state: who })

/** Where the platform sends the browser back to: this page, at a route of the member area. */
export const appUrl = (route: string): string => `${window.location.origin}${window.location.pathname}#/member${route}`

/** A captcha token from the local platform (`POST /_sitefx/captcha`, dev mode only). */
export const devCaptchaAtom = Atom.fn(() =>
  Effect.tryPromise({
    try: async () => {
      const res = await fetch(`${platformUrl}/_sitefx/captcha`, { method: "POST" })
      if (!res.ok) throw new Error(`the platform answered ${res.status}`)
      return ((await res.json()) as { token: string }).token
    },
    catch: (e) => new Error(`No test captcha token: ${e instanceof Error ? e.message : String(e)} (only the local platform in dev mode mints them)`)
  })
)

/**
 * Signs out and sends the browser to the platform's logout page, which ends the platform's own session
 * too (so a silent login has nothing to continue) and comes back to `postFlowUrl`. The page goes away
 * as the session ends, so the navigation is part of the flow, not of the screen that started it.
 */
export const signOutAtom = Atom.keepAlive(Atom.fn((postFlowUrl: string, get) =>
  Effect.gen(function*() {
    const { logoutUrl } = yield* get.setResult(session.signOut, postFlowUrl)
    window.location.assign(logoutUrl)
    return logoutUrl
  })
))
