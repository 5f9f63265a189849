/**
 * Who is signed in, for the whole app: the session's light atoms (no sign-in flow), mounted by the
 * header on every screen, so every tab follows the others' sign-ins and sign-outs and keeps its tokens
 * fresh wherever the app is open. The member area's flows read and change these same atoms.
 */
import { sessionStateAtoms } from "sitefx/react"
import { runtime } from "../site.ts"

export const who = sessionStateAtoms(runtime)
