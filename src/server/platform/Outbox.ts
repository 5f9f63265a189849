/**
 * Messages the platform would e-mail or text (verification codes, MFA codes, recovery and activation
 * links). Nothing leaves the machine: they are kept in sqlite for the dev endpoint and, when logging
 * is on, printed to the server log.
 */
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import { Database, type Row } from "./Database.ts"
import type { OutboxKind, OutboxMessage } from "../../dev/wire/platform.ts"
import { isoDate, ServerClock } from "./ServerClock.ts"

export interface OutgoingMessage {
  readonly to: string
  readonly kind: OutboxKind
  readonly subject: string
  readonly body: string
  readonly code?: string
  readonly link?: string
  readonly token?: string
}

export interface OutboxShape {
  readonly send: (message: OutgoingMessage) => Effect.Effect<void>
  /** Oldest first; only messages to `to` (case-insensitive) when given. */
  readonly list: (to?: string) => ReadonlyArray<OutboxMessage>
}

export class Outbox extends Context.Service<Outbox, OutboxShape>()("sitefx/server/Outbox") {
  static readonly layer = (options: { readonly log: boolean }): Layer.Layer<Outbox, never, Database | ServerClock> =>
    Layer.effect(
      Outbox,
      Effect.gen(function*() {
        const db = yield* Database
        const clock = yield* ServerClock
        db.migrate(
          "outbox/1",
          `CREATE TABLE outbox (
            id INTEGER PRIMARY KEY AUTOINCREMENT,
            to_addr TEXT NOT NULL,
            to_key TEXT NOT NULL,
            kind TEXT NOT NULL,
            subject TEXT NOT NULL,
            body TEXT NOT NULL,
            code TEXT,
            link TEXT,
            token TEXT,
            created_at INTEGER NOT NULL
          );
          CREATE INDEX outbox_to ON outbox (to_key, id);`
        )
        const toMessage = (row: Row): OutboxMessage => ({
          id: String(row.id),
          to: String(row.to_addr),
          kind: row.kind as OutboxKind,
          subject: String(row.subject),
          body: String(row.body),
          ...(row.code === null ? {} : { code: String(row.code) }),
          ...(row.link === null ? {} : { link: String(row.link) }),
          ...(row.token === null ? {} : { token: String(row.token) }),
          createdDate: isoDate(Number(row.created_at))
        })
        return Outbox.of({
          send: (message) =>
            Effect.gen(function*() {
              db.run(
                "INSERT INTO outbox (to_addr, to_key, kind, subject, body, code, link, token, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                message.to,
                message.to.toLowerCase(),
                message.kind,
                message.subject,
                message.body,
                message.code ?? null,
                message.link ?? null,
                message.token ?? null,
                clock.millis()
              )
              if (options.log) yield* Effect.log(`outbox → ${message.to} [${message.kind}] ${message.subject}\n${message.body}`)
            }),
          list: (to) =>
            (to === undefined
              ? db.all("SELECT * FROM outbox ORDER BY id")
              : db.all("SELECT * FROM outbox WHERE to_key = ? ORDER BY id", to.toLowerCase())).map(toMessage)
        })
      })
    )
}
