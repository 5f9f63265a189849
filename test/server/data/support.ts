/**
 * Helpers for the data engine's tests over real HTTP: calls as the admin API key, a visitor or a
 * member; collections with unique ids (tests share one platform per file); bulk inserts; queries.
 */
import * as Effect from "effect/Effect"
import * as Redacted from "effect/Redacted"
import { base64url } from "../../../src/http/codec.ts"
import { LocalPlatform } from "../../../src/server/index.ts"
import { type Answer, apiKey, call, codeOf, login, registerMember, visitor } from "../support.ts"

export { codeOf }

const V2 = "/wix-data/v2"
export const path = (p: string) => `${V2}${p}`

let counter = 0
/** A collection id no other test of this process uses. */
export const uniqueId = (prefix = "C") => `${prefix}_${process.pid}_${counter++}`

/** One call; `auth` is a raw Authorization value (the admin key when omitted, none with `""`). */
export const data = (method: string, p: string, body?: unknown, auth?: string) =>
  Effect.gen(function*() {
    const authorization = auth ?? (yield* apiKey)
    return yield* call(method, p.startsWith("/") && !p.startsWith(V2) && !p.startsWith("/_sitefx") ? path(p) : p, {
      ...(body === undefined ? {} : { body }),
      ...(authorization === "" ? {} : { auth: authorization })
    })
  })

/**
 * Plain async calls as the admin API key, for fast-check's async properties: `send` answers the status
 * and the JSON body, whatever they are; `post` must answer 200 and gives the body.
 */
export const adminCalls = LocalPlatform.useSync((platform) => {
  const key = Redacted.value(platform.apiKey)
  const send = async (method: string, p: string, body?: unknown): Promise<{ readonly status: number; readonly body: any }> => {
    const res = await fetch(`${platform.url}${path(p)}`, {
      method,
      headers: { authorization: key, "content-type": "application/json" },
      ...(body === undefined ? {} : { body: JSON.stringify(body) })
    })
    return { status: res.status, body: await res.json() }
  }
  const post = async (p: string, body: unknown): Promise<any> => {
    const answer = await send("POST", p, body)
    if (answer.status !== 200) throw new Error(`${p}: ${answer.status} ${JSON.stringify(answer.body)}`)
    return answer.body
  }
  /** Resolves once no index of the collection is BUILDING any more. */
  const indexesBuilt = async (collection: string): Promise<void> => {
    for (let i = 0; i < 500; i++) {
      const listed = (await send("GET", `/indexes?dataCollectionId=${collection}`)).body
      if (!listed.indexes.some((x: any) => x.status === "BUILDING")) return
      await new Promise((r) => setTimeout(r, 10))
    }
    throw new Error(`the indexes of ${collection} are still building`)
  }
  return { send, post, indexesBuilt }
})

/** A call that must answer 200; its JSON body. */
export const ok = (method: string, p: string, body?: unknown, auth?: string) =>
  Effect.flatMap(data(method, p, body, auth), (a: Answer) =>
    a.status === 200 ? Effect.succeed(a.body) : Effect.die(new Error(`${method} ${p}: ${a.status} ${a.text}`)))

export const createCollection = (collection: Record<string, unknown>) => ok("POST", "/collections", { collection })

/** A fresh collection (unique id) with the given permissions and fields. */
export const freshCollection = (options: { readonly permissions?: Record<string, string>; readonly fields?: ReadonlyArray<unknown>; readonly prefix?: string } = {}) =>
  Effect.map(
    createCollection({
      id: uniqueId(options.prefix),
      ...(options.permissions === undefined ? {} : { permissions: options.permissions }),
      ...(options.fields === undefined ? {} : { fields: options.fields })
    }),
    (r) => r.collection.id as string
  )

export const OPEN = { read: "ANYONE", insert: "ANYONE", update: "ANYONE", remove: "ANYONE" }

export const bulkInsert = (collection: string, items: ReadonlyArray<Record<string, unknown>>, auth?: string) =>
  ok("POST", "/bulk/items/insert", { dataCollectionId: collection, dataItems: items.map((d) => ({ ...(typeof d["_id"] === "string" ? { id: d["_id"] } : {}), data: d })) }, auth)

export const count = (collection: string, filter?: unknown, auth?: string) =>
  Effect.map(ok("POST", "/items/count", { dataCollectionId: collection, ...(filter === undefined ? {} : { filter }) }, auth), (r) => r.totalCount as number)

export const query = (collection: string, q: Record<string, unknown>, extra: Record<string, unknown> = {}, auth?: string) =>
  ok("POST", "/items/query", { dataCollectionId: collection, query: q, ...extra }, auth)

/** The ids of a query's items, in order. */
export const ids = (body: any): Array<string> => (body.dataItems as Array<any>).map((i) => i.id as string)

/** A GET query with `.r`, as the official client sends it. */
export const getQuery = (payload: unknown, auth?: string) => data("GET", `${V2}/items/query?.r=${base64url(JSON.stringify(payload))}`, undefined, auth)

export const visitorToken = Effect.map(visitor, (t) => t.access_token)

/** A new member's access token and id. */
export const memberToken = Effect.gen(function*() {
  const member = yield* registerMember()
  const tokens = yield* login(member.email, member.password)
  return { token: tokens.access_token, id: member.id }
})
