/** The members panel's atoms: the site's members, and what the owner does to one (each a dev endpoint). */
import * as Effect from "effect/Effect"
import { Atom } from "effect/reactivity"
import { Members } from "sitefx/dev"
import { runtime } from "../runtime.ts"
import type { Outcome } from "../shell/Result.tsx"

const KEYS = ["members"]

/** Every member, as the platform has them now; refreshed after every action here. */
export const membersAtom = runtime.atom(Members.list()).pipe(Atom.withReactivity(KEYS))

/** Something the owner does to a member. */
export type MemberAction =
  | { readonly kind: "approve" | "block" | "require-reset"; readonly id: string; readonly email: string }
  | { readonly kind: "enroll"; readonly id: string; readonly email: string; readonly factor: Members.FactorInput }
  | { readonly kind: "remove-factor"; readonly id: string; readonly email: string; readonly factorId: string; readonly type: string }


/** Runs an action on a member; its outcome says what it did. */
export const memberAction = runtime.fn((action: MemberAction) => {
  switch (action.kind) {
    case "approve":
      return Effect.map(Members.approve(action.id), (m): Outcome => ({ message: `Approved ${action.email} (now ${m.status?.name ?? "unknown"}).` }))
    case "block":
      return Effect.map(Members.block(action.id), (): Outcome => ({ message: `Blocked ${action.email}: they can no longer log in.` }))
    case "require-reset":
      return Effect.map(Members.requireReset(action.id), (): Outcome => ({ message: `${action.email} must reset their password before logging in.` }))
    case "enroll":
      return Effect.map(Members.enrollFactor(action.id, action.factor), (f): Outcome => ({
        message: `Enrolled a ${action.factor.type} factor for ${action.email}.`,
        ...(f.secret === undefined ? {} : { copy: { label: "TOTP secret", value: f.secret } })
      }))
    case "remove-factor":
      return Effect.map(Members.removeFactor(action.id, action.factorId), (): Outcome => ({ message: `Removed ${action.email}'s ${action.type} factor.` }))
  }
}, { reactivityKeys: KEYS })
