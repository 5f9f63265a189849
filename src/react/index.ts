/**
 * `sitefx/react`: the React binding. Hooks over effect's atoms (a registry per provider; Suspense and
 * refresh), the session's atoms (who is signed in, and the sign-in flows as actions), paginated query
 * atoms whose cache writes and live events keep fresh, and the token store a browser's tabs share (its
 * locks and `followTabs` are `sitefx/session`'s). Components read atoms; they never call the client directly.
 */
export { RegistryProvider, useAtom, useAtomRefresh, useAtomSet, useAtomSuspense, useAtomValue, useRegistry } from "./hooks.ts"
export { sessionAtoms, type SignInInput } from "./session.ts"
export { type SessionStateAtoms, sessionStateAtoms, type SessionStateOptions } from "./sessionState.ts"
export { sessionIdentity } from "./identity.ts"
export type { PendingWrite } from "./optimistic.ts"
export type { RefusedWrite } from "./sending.ts"
export {
  type DehydratedQueries,
  type DehydratedQuery,
  dehydrate,
  hydrate,
  prefetch,
  QUERIES_SCRIPT_ID,
  queriesScript,
  readQueriesScript
} from "./hydration.ts"
export { AsyncResult, Atom, AtomRegistry } from "effect/reactivity"
export {
  catalogQuery,
  type Change,
  dataQuery,
  invalidate,
  type PageLike,
  type QueryAtom,
  queryAtoms,
  type QueryAtomsOptions,
  QueryKeys,
  type QueryResult,
  type QuerySource
} from "./query.ts"
// apart from the queries: a page whose queries do not follow the site's events does not carry them
export { changeOfEvent, changesOfEvents, dataChange } from "./changes.ts"
export { type InsertInput, type RemoveInput, type UpdateInput, writeAtoms } from "./writes.ts"
export {
  type RecoverInput,
  type RedirectLoginInput,
  type RegisterInput,
  type SessionAtoms,
  type SessionAtomsOptions,
  type SessionFlowError,
  type VerifyFactorInput
} from "./session.ts"
export { type TabOptions, tabTokenStore } from "../session/tabs.ts"
