/**
 * `sitefx/first-screen`: what a page's first script asks for before the client has loaded, with plain
 * `fetch` and no Effect. The session's access token (`sessionToken`: the one the tabs share, else new
 * tokens saved under the same lock and in the same store as `tabTokenStore`'s), and the first page of the
 * screen's queries (`products`, `collections`), sent exactly as the client sends them. `firstScreen` runs
 * both at once and hands the answers to `sitefx/react`'s query atoms (`hydrate`), keyed as the atoms key
 * the same queries: the app that loads after asks for nothing twice. A sign-in page signs the member in
 * (`signIn`: the member flows' direct login) into the same store, so the client starts as the member.
 *
 * @example
 * import { firstScreen, products } from "sitefx/first-screen"
 *
 * const first = firstScreen({ clientId: "my-client-id" })
 * const grid = await first.query(products({ limit: 24 }))
 * console.log(grid?.items.length, grid?.total)
 * // the app, once loaded, seeds its registry before rendering: hydrate(registry, await first.dehydrated())
 */
export { type CatalogPageRequest, collections, type FirstAnswerPage, type FirstQuery, type FirstRequest, products } from "./catalogQueries.ts"
export { type FirstAnswer, type FirstScreen, firstScreen } from "./firstScreen.ts"
export { type FirstScreenOptions, sessionToken } from "./sessionToken.ts"
export { signIn, type SignInError, type SignInInput, type SignInResult, type SignInStep } from "./signIn.ts"
export type { CaptchaTokens } from "../session/loginPayload.ts"
/** The built-in collection of every product (as `Collections.ALL_PRODUCTS_COLLECTION_ID`), which a screen's list of collections usually leaves out. */
export { ALL_PRODUCTS_ID as ALL_PRODUCTS_COLLECTION_ID } from "../catalog/protocol.ts"
export type { DehydratedQueries, DehydratedQuery } from "../react/hydration.ts"
