/**
 * Which panel is open, as the location's hash names it (`#members`), so every panel has a URL that
 * survives a reload and the browser's back button moves between panels.
 */
import { Atom } from "effect/reactivity"

export const SECTIONS = [
  { id: "members", label: "Members" },
  { id: "outbox", label: "Outbox" },
  { id: "requests", label: "Requests" },
  { id: "events", label: "Events" },
  { id: "orders", label: "Orders" },
  { id: "carts", label: "Carts" },
  { id: "settings", label: "Settings" },
  { id: "clock", label: "Clock & faults" },
  { id: "snapshots", label: "Snapshots" }
] as const

export type Section = (typeof SECTIONS)[number]["id"]

const read = (): Section => {
  const hash = window.location.hash.replace(/^#\/?/, "")
  return SECTIONS.find((s) => s.id === hash)?.id ?? "members"
}

/** The open panel; follows the hash as links and the back button change it. */
export const sectionAtom = Atom.make((get): Section => {
  const follow = () => get.setSelf(read())
  window.addEventListener("hashchange", follow)
  get.addFinalizer(() => window.removeEventListener("hashchange", follow))
  return read()
})
