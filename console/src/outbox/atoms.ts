/** The outbox panel's atoms: the messages the platform would have sent, all or to one address. */
import { Atom } from "effect/reactivity"
import { Outbox } from "sitefx/dev"
import { runtime } from "../runtime.ts"

/** Which address the panel shows messages to ("" for every address). */
export const outboxToAtom = Atom.make("")

/** The messages to an address ("" for all), as the platform has them now. */
export const outboxAtom = Atom.family((to: string) => runtime.atom(Outbox.list(to === "" ? {} : { to })))
