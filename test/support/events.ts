/**
 * Signing webhook bodies the way the platform does (PROTOCOL-DETAIL §6.3: an RS256 JWT whose claim
 * `data` is the JSON text of an EventEnvelope), with node:crypto keys, plus the envelopes and domain
 * events tests sign, and a node:http server that serves a fetch-style handler. Any test that needs a
 * signed event can use these; `signJwt` also signs with other algorithms (or none), for the tests that
 * make sure those are refused.
 */
import { createHmac, createPrivateKey, generateKeyPairSync, type KeyObject, sign as cryptoSign, constants } from "node:crypto"
import { createServer, type Server } from "node:http"
import type { AddressInfo } from "node:net"
import type { AccountInfo, DomainEvent, EventEnvelope, Identity } from "../../src/events/protocol.ts"

export interface TestKeys {
  /** SPKI PEM, as the site hands it out. */
  readonly publicKey: string
  readonly privateKey: KeyObject
}

/** A fresh RSA-2048 key pair. */
export const rsaKeys = (): TestKeys => {
  const { publicKey, privateKey } = generateKeyPairSync("rsa", { modulusLength: 2048 })
  return { publicKey: publicKey.export({ type: "spki", format: "pem" }).toString(), privateKey }
}

const b64url = (data: string | Buffer) => Buffer.from(data).toString("base64url")

export type TestAlgorithm = "RS256" | "RS384" | "RS512" | "PS256" | "ES256" | "HS256" | "none"

const digests: Record<Exclude<TestAlgorithm, "none" | "HS256">, string> = {
  RS256: "sha256",
  RS384: "sha384",
  RS512: "sha512",
  PS256: "sha256",
  ES256: "sha256"
}

/**
 * A compact JWS of `claims`. The key signs with the header's `alg` (RS*, PS256, ES256 with a private
 * KeyObject; HS256 with the key as HMAC secret text; `none` with an empty signature). `header` adds to
 * or overrides `{ alg, typ: "JWT" }`.
 */
export const signJwt = (
  key: KeyObject | string,
  claims: Record<string, unknown>,
  alg: TestAlgorithm = "RS256",
  header: Record<string, unknown> = {}
): string => {
  const signingInput = `${b64url(JSON.stringify({ alg, typ: "JWT", ...header }))}.${b64url(JSON.stringify(claims))}`
  if (alg === "none") return `${signingInput}.`
  if (alg === "HS256") return `${signingInput}.${createHmac("sha256", key as string).update(signingInput).digest("base64url")}`
  const privateKey = typeof key === "string" ? createPrivateKey(key) : key
  const signature = cryptoSign(digests[alg], Buffer.from(signingInput), {
    key: privateKey,
    ...(alg === "PS256" ? { padding: constants.RSA_PKCS1_PSS_PADDING, saltLength: 32 } : {}),
    ...(alg === "ES256" ? { dsaEncoding: "ieee-p1363" as const } : {})
  })
  return `${signingInput}.${b64url(signature)}`
}

/**
 * A webhook body for `envelope`: RS256, claims `{ data: <envelope JSON>, iat, exp (in an hour) }`, with
 * `claims` added or overriding (`{ exp: undefined }` leaves `exp` out).
 */
export const signEvent = (privateKey: KeyObject | string, envelope: EventEnvelope, claims: Record<string, unknown> = {}): string => {
  const now = Math.floor(Date.now() / 1000)
  const all: Record<string, unknown> = { data: JSON.stringify(envelope), iat: now, exp: now + 3600, ...claims }
  for (const k of Object.keys(all)) if (all[k] === undefined) delete all[k]
  return signJwt(privateKey, all)
}

export interface EnvelopeOptions {
  readonly instanceId?: string
  readonly identity?: Identity
  readonly accountInfo?: AccountInfo
}

/** An envelope carrying `payload` (a DomainEvent for `wix.*` types, the event's own data otherwise). */
export const envelope = (eventType: string, payload: unknown, options: EnvelopeOptions = {}): EventEnvelope => ({
  eventType,
  instanceId: options.instanceId ?? "inst-1",
  data: JSON.stringify(payload),
  ...(options.identity === undefined ? {} : { identity: JSON.stringify(options.identity) }),
  ...(options.accountInfo === undefined ? {} : { accountInfo: options.accountInfo })
})

export const EVENT_TIME = "2024-05-06T07:08:09.000Z"

type Change =
  | { readonly createdEvent: { readonly entity: unknown } }
  | { readonly updatedEvent: { readonly currentEntity: unknown; readonly modifiedFields?: Record<string, unknown> } }
  | { readonly deletedEvent: { readonly deletedEntity?: unknown } }
  | { readonly actionEvent: { readonly body: unknown } }

/** A domain event of `entityFqdn`'s entity `entityId`, with its change (slug from the change unless given). */
export const domainEvent = (entityFqdn: string, entityId: string, change: Change, slug?: string): DomainEvent => ({
  id: `evt-${entityId}-${Object.keys(change)[0]}`,
  entityFqdn,
  slug: slug ?? ("createdEvent" in change ? "created" : "updatedEvent" in change ? "updated" : "deletedEvent" in change ? "deleted" : "action"),
  entityId,
  eventTime: EVENT_TIME,
  triggeredByAnonymizeRequest: false,
  entityEventSequence: "3",
  ...change
})

export interface FetchServer {
  readonly url: string
  readonly close: () => Promise<void>
}

/** Serves a fetch-style handler on 127.0.0.1 through node:http (as a fetch runtime would). */
export const serveFetch = async (handler: (request: Request) => Promise<Response>): Promise<FetchServer> => {
  const server: Server = createServer((req, res) => {
    const chunks: Array<Buffer> = []
    req.on("data", (c: Buffer) => chunks.push(c))
    req.on("end", () => {
      const headers = new Headers()
      for (const [k, v] of Object.entries(req.headers)) if (typeof v === "string") headers.set(k, v)
      const body = chunks.length === 0 || req.method === "GET" || req.method === "HEAD" ? null : Buffer.concat(chunks)
      const request = new Request(`http://127.0.0.1${req.url ?? "/"}`, { method: req.method ?? "GET", headers, body })
      handler(request).then(async (response) => {
        res.writeHead(response.status, Object.fromEntries(response.headers))
        res.end(Buffer.from(await response.arrayBuffer()))
      }, () => {
        res.writeHead(500)
        res.end()
      })
    })
  })
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      })
  }
}
