/**
 * The site's key pair for webhook signatures: RSA-2048, made once per database and kept in it (a reset
 * makes a new one), so webhooks signed before a restart still verify after it. `sign` writes the compact
 * JWT (RS256) a webhook body is; the public key (SPKI PEM) is what receivers verify with.
 */
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import { createPrivateKey, generateKeyPairSync, type KeyObject, sign } from "node:crypto"
import { Database } from "../platform/Database.ts"

export interface SiteKeysShape {
  /** The public key as SPKI PEM text. */
  readonly publicKeyPem: () => string
  /** A compact JWT (RS256) of `claims`, with `iat` and `exp` (`ttlSeconds` later) added. */
  readonly sign: (claims: Record<string, unknown>, nowSeconds: number, ttlSeconds?: number) => string
}

const b64url = (data: string | Buffer) => Buffer.from(data).toString("base64url")

/** Webhook bodies are valid this long after they are signed (a receiver refuses them later). */
export const WEBHOOK_TTL_SECONDS = 600

export class SiteKeys extends Context.Service<SiteKeys, SiteKeysShape>()("sitefx/server/events/SiteKeys") {
  static readonly layer: Layer.Layer<SiteKeys, never, Database> = Layer.effect(
    SiteKeys,
    Effect.gen(function*() {
      const db = yield* Database
      db.migrate(
        "events/keys/1",
        "CREATE TABLE site_event_keys (id INTEGER PRIMARY KEY CHECK (id = 1), private_pem TEXT NOT NULL, public_pem TEXT NOT NULL)"
      )
      let cached: { readonly privateKey: KeyObject; readonly publicPem: string } | undefined
      db.onReset(() => {
        cached = undefined
      })
      /** The stored pair, made on first use. */
      const keys = () => {
        if (cached !== undefined) return cached
        let row = db.get("SELECT private_pem, public_pem FROM site_event_keys WHERE id = 1")
        if (row === undefined) {
          const pair = generateKeyPairSync("rsa", { modulusLength: 2048 })
          const privatePem = pair.privateKey.export({ type: "pkcs8", format: "pem" }).toString()
          const publicPem = pair.publicKey.export({ type: "spki", format: "pem" }).toString()
          db.run("INSERT OR IGNORE INTO site_event_keys (id, private_pem, public_pem) VALUES (1, ?, ?)", privatePem, publicPem)
          row = db.get("SELECT private_pem, public_pem FROM site_event_keys WHERE id = 1")!
        }
        cached = { privateKey: createPrivateKey(String(row["private_pem"])), publicPem: String(row["public_pem"]) }
        return cached
      }
      return SiteKeys.of({
        publicKeyPem: () => keys().publicPem,
        sign: (claims, nowSeconds, ttlSeconds = WEBHOOK_TTL_SECONDS) => {
          const header = b64url(JSON.stringify({ alg: "RS256", typ: "JWT" }))
          const payload = b64url(JSON.stringify({ ...claims, iat: nowSeconds, exp: nowSeconds + ttlSeconds }))
          const signature = sign("RSA-SHA256", Buffer.from(`${header}.${payload}`), keys().privateKey)
          return `${header}.${payload}.${b64url(signature)}`
        }
      })
    })
  )
}
