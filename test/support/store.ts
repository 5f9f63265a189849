/**
 * Store test support: the platform's official store modules as a client with an API key (alone, or on
 * the local platform beside sitefx), and the small helpers store tests share: unique names, what a
 * rejected promise threw, the CatalogError an effect failed with, raw platform calls that skip
 * sitefx's checks, the demo member, a product of the store.
 */
import { assert } from "@effect/vitest"
import { ApiKeyStrategy, createClient, type Descriptors } from "@wix/sdk"
import type { abandonedCarts } from "@wix/stores"
import * as Effect from "effect/Effect"
import * as Redacted from "effect/Redacted"
import { CatalogError } from "../../src/catalog/CatalogError.ts"
import * as Products from "../../src/catalog/Products.ts"
import type { PlatformClient } from "../../src/http/PlatformClient.ts"
import type { LocalPlatformShape } from "../../src/server/index.ts"
import { Session } from "../../src/session/Session.ts"
import { asAdmin, asVisitor } from "../data/support.ts"
import { officialClientsOnLocalPlatform } from "./official.ts"
import { LocalPlatform, withSite } from "./platform.ts"

/** The official modules on `@wix/sdk`, signed in with an API key and a site id. */
export const officialClient = <T extends Descriptors>(modules: T, auth: { readonly apiKey: string; readonly siteId: string }) =>
  createClient({ modules, auth: ApiKeyStrategy({ apiKey: auth.apiKey, siteId: auth.siteId }) })

export type OfficialClient<T extends Descriptors> = ReturnType<typeof officialClient<T>>

/**
 * The official modules against the local platform (see `officialClientsOnLocalPlatform`): `official()`
 * is a client with the platform's API key; `sitefx` and `visitor` run sitefx calls as the admin (the
 * API key) and as a visitor.
 */
export const officialStoreOnLocalPlatform = <T extends Descriptors>(modules: T, options: Parameters<typeof officialClientsOnLocalPlatform>[0] = {}) => {
  const onLocal = officialClientsOnLocalPlatform(options)
  return Object.assign(onLocal, {
    official: (): OfficialClient<T> =>
      officialClient(modules, { apiKey: Redacted.value(onLocal.platform.apiKey), siteId: onLocal.platform.siteId }),
    sitefx: <A, E>(effect: Effect.Effect<A, E, PlatformClient>): Promise<A> => onLocal.run(asAdmin(effect)),
    visitor: <A, E>(effect: Effect.Effect<A, E, PlatformClient>): Promise<A> => onLocal.run(asVisitor(effect))
  })
}

/**
 * The two abandoned-cart functions exist at run time but are typed only in the package's internal
 * typings; this is their public shape, from the types the module exports.
 */
export interface OfficialCarts {
  readonly getAbandonedCart: (id: string) => Promise<abandonedCarts.AbandonedCart>
  readonly queryAbandonedCarts: (options?: abandonedCarts.QueryAbandonedCartsOptions) => Promise<abandonedCarts.QueryAbandonedCartsResponse>
}
export const cartsOf = (client: { readonly abandonedCarts: unknown }) => client.abandonedCarts as OfficialCarts

let counter = 0
/** A name no other test (nor an earlier run on the same platform) uses. */
export const unique = (prefix: string) => `${prefix}-${Date.now().toString(36)}-${counter++}`

/** What a rejected promise threw (fails the test when it resolved). */
export const rejection = async (promise: Promise<unknown>): Promise<any> =>
  promise.then((value) => assert.fail(`expected a rejection, got ${JSON.stringify(value)}`), (e: unknown) => e)

/** The CatalogError an effect fails with (fails the test when it fails with anything else). */
export const failure = <A, R>(effect: Effect.Effect<A, unknown, R>) =>
  Effect.map(Effect.flip(effect), (e) => {
    assert.instanceOf(e, CatalogError)
    return e as CatalogError
  })

/** The effect as the demo member. */
export const asMember = <A, E, R>(effect: Effect.Effect<A, E, R>) =>
  Effect.gen(function*() {
    const member = (yield* LocalPlatform).demoMember!
    return yield* withSite(Effect.gen(function*() {
      const session = yield* Session
      const result = yield* session.login({ email: member.email, password: member.password })
      if (result.loginState !== "SUCCESS") return yield* Effect.die(`the demo member could not log in: ${result.loginState}`)
      yield* session.completeDirectLogin(result.data.sessionToken)
      // from here on the session is the member's
      if (!(yield* session.loggedIn)) return yield* Effect.die("the demo member is not logged in")
      return yield* effect
    }))
  })

/**
 * A raw platform call (what a client that skips sitefx's checks would send), with the platform's API
 * key or with no credentials at all. A string body is sent as it is, anything else as JSON.
 */
export const rawResponse = (
  platform: LocalPlatformShape,
  method: string,
  path: string,
  body?: unknown,
  auth: "admin" | "none" = "admin",
  fetchWith: typeof fetch = globalThis.fetch
): Promise<Response> =>
  fetchWith(`${platform.url}${path}`, {
    method,
    headers: {
      "content-type": "application/json",
      ...(auth === "admin" ? { authorization: Redacted.value(platform.apiKey), "wix-site-id": platform.siteId } : {})
    },
    ...(body === undefined ? {} : { body: typeof body === "string" ? body : JSON.stringify(body) })
  })

/** `rawResponse` on the local platform: its status, and its JSON body (`{}` when empty). */
export const raw = (method: string, path: string, body?: unknown, auth: "admin" | "none" = "admin") =>
  Effect.gen(function*() {
    const platform = yield* LocalPlatform
    return yield* Effect.promise(async () => {
      const res = await rawResponse(platform, method, path, body, auth)
      const text = await res.text()
      return { status: res.status, body: text === "" ? {} : JSON.parse(text) as any }
    })
  })

/** A new product of the store (subscription options are assigned to products that exist); its id. */
export const newProduct = () => Effect.map(asAdmin(Products.create({ name: unique("Subscribed"), priceData: { price: 12 } })), (p) => p.id!)
