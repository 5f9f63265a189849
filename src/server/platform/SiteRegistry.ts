/**
 * The site the local platform serves: its id, its OAuth clients (with the origins they may redirect
 * to) and its admin API keys (stored as digests).
 */
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import { Database, type Row } from "./Database.ts"
import { digest } from "./secrets.ts"
import { ServerClock } from "./ServerClock.ts"

export interface OAuthClient {
  readonly id: string
  readonly name: string
  readonly allowedOrigins: ReadonlyArray<string>
}

export interface ApiKeyRecord {
  readonly id: string
  readonly name: string
}

export interface SiteRegistryShape {
  /** The site id, once the site exists (after seeding). */
  readonly siteId: () => string | undefined
  readonly setSiteId: (siteId: string) => void
  readonly client: (clientId: string) => OAuthClient | undefined
  /** The first client created: tokens minted without a client (external login) belong to it. */
  readonly defaultClient: () => OAuthClient | undefined
  readonly addClient: (client: OAuthClient) => void
  readonly apiKey: (key: string) => ApiKeyRecord | undefined
  readonly addApiKey: (record: ApiKeyRecord, key: string) => void
}

export class SiteRegistry extends Context.Service<SiteRegistry, SiteRegistryShape>()("sitefx/server/SiteRegistry") {
  static readonly layer: Layer.Layer<SiteRegistry, never, Database | ServerClock> = Layer.effect(
    SiteRegistry,
    Effect.gen(function*() {
      const db = yield* Database
      const clock = yield* ServerClock
      db.migrate(
        "site/1",
        `CREATE TABLE site (id INTEGER PRIMARY KEY CHECK (id = 1), site_id TEXT NOT NULL);
         CREATE TABLE oauth_clients (
           id TEXT PRIMARY KEY, name TEXT NOT NULL, allowed_origins TEXT NOT NULL, created_at INTEGER NOT NULL
         );
         CREATE TABLE api_keys (
           id TEXT PRIMARY KEY, name TEXT NOT NULL, key_digest TEXT NOT NULL UNIQUE, created_at INTEGER NOT NULL
         );`
      )
      const toClient = (row: Row): OAuthClient => ({
        id: String(row.id),
        name: String(row.name),
        allowedOrigins: JSON.parse(String(row.allowed_origins)) as Array<string>
      })
      return SiteRegistry.of({
        siteId: () => {
          const row = db.get("SELECT site_id FROM site WHERE id = 1")
          return row === undefined ? undefined : String(row.site_id)
        },
        setSiteId: (siteId) => {
          db.run("INSERT INTO site (id, site_id) VALUES (1, ?) ON CONFLICT (id) DO UPDATE SET site_id = excluded.site_id", siteId)
        },
        client: (clientId) => {
          const row = db.get("SELECT * FROM oauth_clients WHERE id = ?", clientId)
          return row === undefined ? undefined : toClient(row)
        },
        defaultClient: () => {
          const row = db.get("SELECT * FROM oauth_clients ORDER BY created_at, rowid LIMIT 1")
          return row === undefined ? undefined : toClient(row)
        },
        addClient: (client) => {
          db.run(
            "INSERT OR IGNORE INTO oauth_clients (id, name, allowed_origins, created_at) VALUES (?, ?, ?, ?)",
            client.id,
            client.name,
            JSON.stringify(client.allowedOrigins),
            clock.millis()
          )
        },
        apiKey: (key) => {
          const row = db.get("SELECT id, name FROM api_keys WHERE key_digest = ?", digest(key))
          return row === undefined ? undefined : { id: String(row.id), name: String(row.name) }
        },
        addApiKey: (record, key) => {
          db.run(
            // the key of an id is the one given last (a snapshot from another platform brings that one's)
            "INSERT INTO api_keys (id, name, key_digest, created_at) VALUES (?, ?, ?, ?) ON CONFLICT (id) DO UPDATE SET key_digest = excluded.key_digest",
            record.id,
            record.name,
            digest(key),
            clock.millis()
          )
        }
      })
    })
  )
}
