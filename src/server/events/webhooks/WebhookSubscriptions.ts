/**
 * The site's webhook subscriptions and their deliveries. A subscription names a URL and the event
 * types it wants (every type when it names none); each one has its own queue and its own fiber, so the
 * events a receiver gets arrive in the order the site logged them, and a slow or dead receiver delays
 * nobody else: a write only logs its events (see SiteEvents), and as it commits the log hands them to
 * the queues that want them (none is decoded while there is no subscription).
 *
 * A delivery POSTs the event signed with the site's key (SiteKeys: a JWT whose claim `data` is the
 * envelope's JSON text, `content-type: text/plain`), retries as the delivery policy says, and when it
 * gives up writes a dead letter; a dead letter can be redelivered (signed afresh, the same retries),
 * after the events already queued for that receiver.
 *
 * Bounds: at most {@link MAX_WEBHOOKS} subscriptions; at most {@link MAX_PENDING} events waiting per
 * subscription (an event past that becomes a dead letter at once, never tried, so memory stays bounded
 * and nothing is dropped unseen; the queues hold the logged events themselves, so subscriptions waiting
 * for the same event share it); the newest {@link MAX_DEAD_LETTERS} dead letters are kept. Each
 * subscription keeps the id of the last event it handled, so after a restart on a database file it
 * delivers what it had not handled yet, while the event log still keeps it (the last 10 000 events):
 * a delivery under way when the platform stopped is made again (at least once; the event id header
 * lets a receiver skip one it has).
 */
import * as Context from "effect/Context"
import * as Data from "effect/Data"
import * as Effect from "effect/Effect"
import * as Fiber from "effect/Fiber"
import * as Layer from "effect/Layer"
import * as Queue from "effect/Queue"
import { randomUUID } from "node:crypto"
import { EVENT_TYPES, type EventType, WebhookHeaders } from "../../../events/protocol.ts"
import { Database, type Row } from "../../platform/Database.ts"
import { isoDate, ServerClock } from "../../platform/ServerClock.ts"
import { type SiteEvent, SiteEvents } from "../../store/SiteEvents.ts"
import { SiteKeys } from "../SiteKeys.ts"
import { deliver, type DeliveryPolicy, deliveryPolicy, type Outgoing, type Undelivered } from "./delivery.ts"
import { type CreateWebhookRequest, type DeadLetter, type Webhook, webhookUrlProblem } from "../../../dev/wire/webhooks.ts"

/** Subscriptions a site may have. */
export const MAX_WEBHOOKS = 100
/** Events that may wait for one subscription's receiver. */
export const MAX_PENDING = 10_000
/** Dead letters kept, newest first. */
export const MAX_DEAD_LETTERS = 1000

/** A subscription given to the platform at start: a URL (every event type), or a URL and its types. */
export type WebhookRegistration = string | { readonly url: string; readonly eventTypes?: ReadonlyArray<EventType> | undefined }

export interface WebhooksOptions {
  /**
   * Subscriptions made at start (and again after a reset of the platform), unless the site already has
   * one to the same URL: `sitefx serve --webhook URL`, `LocalPlatform.layer({ webhooks })`.
   */
  readonly webhooks?: ReadonlyArray<WebhookRegistration> | undefined
  /** Attempts, backoff and timeout of deliveries (see {@link DeliveryPolicy}); tests make them small. */
  readonly delivery?: Partial<DeliveryPolicy> | undefined
}

/** The options the webhooks service is built with (none: no start-up subscriptions, the default policy). */
export const WebhooksConfig = Context.Reference<WebhooksOptions>("sitefx/server/events/WebhooksConfig", { defaultValue: () => ({}) })

/** The site has {@link MAX_WEBHOOKS} subscriptions already. */
export class TooManyWebhooks extends Data.TaggedError("TooManyWebhooks")<{ readonly max: number }> {}

export interface WebhookSubscriptionsShape {
  readonly create: (request: CreateWebhookRequest) => Effect.Effect<Webhook, TooManyWebhooks>
  /** Oldest first. */
  readonly list: Effect.Effect<ReadonlyArray<Webhook>>
  /** Stops its deliveries and removes it with its dead letters; false when there is none with this id. */
  readonly remove: (id: string) => Effect.Effect<boolean>
  /** Newest first; of one subscription when `webhookId` is given. */
  readonly deadLetters: (webhookId?: string) => Effect.Effect<ReadonlyArray<DeadLetter>>
  /** Queues a redelivery (once: asking again while it runs changes nothing); undefined when there is no such dead letter. */
  readonly redeliver: (id: string) => Effect.Effect<DeadLetter | undefined>
  /** Queues a redelivery of every dead letter (of one subscription when given); how many were queued. */
  readonly redeliverAll: (webhookId?: string) => Effect.Effect<number>
  /** Removes one dead letter, or all (of one subscription when given); how many went. */
  readonly discard: (options: { readonly id?: string | undefined; readonly webhookId?: string | undefined }) => Effect.Effect<number>
  /** Deliveries waiting or under way, over all subscriptions. */
  readonly pending: Effect.Effect<number>
}

/** One delivery to make: an event as logged (its envelope built when first sent), or a dead letter's event again. */
interface Job {
  readonly event: SiteEvent
  readonly deadLetterId?: string
}

interface Worker {
  readonly id: string
  readonly url: string
  /** undefined: every type. */
  readonly types: ReadonlySet<string> | undefined
  readonly queue: Queue.Queue<Job>
  /** The newest logged event taken for delivery; older ones offered again are skipped. */
  through: number
  inFlight: boolean
  fiber: Fiber.Fiber<unknown> | undefined
}

const registrationOf = (registration: WebhookRegistration) =>
  typeof registration === "string" ? { url: registration, eventTypes: undefined } : registration

/** Start-up subscriptions are checked before anything starts: a bad one stops the platform with a clear message. */
const checkRegistration = (registration: WebhookRegistration): void => {
  const { url, eventTypes } = registrationOf(registration)
  const problem = webhookUrlProblem(url)
  if (problem !== undefined) throw new Error(`sitefx: webhook ${JSON.stringify(url)}: ${problem}`)
  const unknown = (eventTypes ?? []).filter((t) => !(EVENT_TYPES as ReadonlyArray<string>).includes(t))
  if (unknown.length > 0) throw new Error(`sitefx: webhook ${url}: unknown event types ${unknown.join(", ")}`)
}

export class WebhookSubscriptions extends Context.Service<WebhookSubscriptions, WebhookSubscriptionsShape>()("sitefx/server/events/WebhookSubscriptions") {
  static readonly layer: Layer.Layer<WebhookSubscriptions, never, Database | ServerClock | SiteEvents | SiteKeys> = Layer.effect(
    WebhookSubscriptions,
    Effect.gen(function*() {
      const db = yield* Database
      const clock = yield* ServerClock
      const events = yield* SiteEvents
      const keys = yield* SiteKeys
      const options = yield* WebhooksConfig
      const policy = deliveryPolicy(options.delivery)
      const startup = options.webhooks ?? []
      for (const registration of startup) checkRegistration(registration)

      db.migrate(
        "events/webhooks/1",
        `CREATE TABLE webhooks (
          seq INTEGER PRIMARY KEY AUTOINCREMENT,
          id TEXT NOT NULL UNIQUE,
          url TEXT NOT NULL,
          -- a JSON array, or NULL for every event type
          event_types TEXT,
          created_date TEXT NOT NULL,
          -- the newest logged event this subscription has handled (delivered or dead-lettered)
          handled_through INTEGER NOT NULL
        );
        CREATE TABLE webhook_dead_letters (
          seq INTEGER PRIMARY KEY AUTOINCREMENT,
          id TEXT NOT NULL UNIQUE,
          webhook_id TEXT NOT NULL REFERENCES webhooks (id) ON DELETE CASCADE,
          event_id INTEGER NOT NULL,
          event_type TEXT NOT NULL,
          envelope TEXT NOT NULL,
          attempts INTEGER NOT NULL,
          last_error TEXT NOT NULL,
          last_status INTEGER,
          failed_date TEXT NOT NULL
        );
        CREATE INDEX webhook_dead_letters_webhook ON webhook_dead_letters (webhook_id);`
      )

      const workers = new Map<string, Worker>()
      /** Dead letters whose redelivery is queued or under way. */
      const redelivering = new Set<string>()

      const webhookOf = (row: Row): Webhook => ({
        id: String(row["id"]),
        url: String(row["url"]),
        eventTypes: row["event_types"] === null ? [...EVENT_TYPES] : JSON.parse(String(row["event_types"])) as Array<string>,
        createdDate: String(row["created_date"])
      })

      const deadLetterOf = (row: Row): DeadLetter => ({
        id: String(row["id"]),
        webhookId: String(row["webhook_id"]),
        url: String(row["url"]),
        eventId: Number(row["event_id"]),
        eventType: String(row["event_type"]),
        attempts: Number(row["attempts"]),
        lastError: String(row["last_error"]),
        ...(row["last_status"] === null ? {} : { lastStatus: Number(row["last_status"]) }),
        failedDate: String(row["failed_date"]),
        redelivering: redelivering.has(String(row["id"]))
      })

      const DEAD_LETTER_COLUMNS = "d.id, d.webhook_id, w.url, d.event_id, d.event_type, d.attempts, d.last_error, d.last_status, d.failed_date"

      const findDeadLetter = (id: string) =>
        db.get(`SELECT ${DEAD_LETTER_COLUMNS}, d.envelope FROM webhook_dead_letters d JOIN webhooks w ON w.id = d.webhook_id WHERE d.id = ?`, id)

      const handled = (worker: Worker, eventId: number) => {
        db.run("UPDATE webhooks SET handled_through = ? WHERE id = ? AND handled_through < ?", eventId, worker.id, eventId)
      }

      const writeDeadLetter = (worker: Worker, job: Job, attempts: number, error: string, status: number | undefined) => {
        db.transaction(() => {
          db.run(
            `INSERT INTO webhook_dead_letters (id, webhook_id, event_id, event_type, envelope, attempts, last_error, last_status, failed_date)
             VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
            randomUUID(),
            worker.id,
            job.event.id,
            job.event.type,
            job.event.json,
            attempts,
            error,
            status ?? null,
            isoDate(clock.millis())
          )
          db.run(
            `DELETE FROM webhook_dead_letters WHERE seq <= (SELECT seq FROM webhook_dead_letters ORDER BY seq DESC LIMIT 1 OFFSET ?)`,
            MAX_DEAD_LETTERS
          )
        })
      }

      const outgoing = (worker: Worker, job: Job) => (attempt: number): Outgoing => ({
        url: worker.url,
        // signed at each attempt: a late retry or a redelivery carries a fresh iat and exp
        body: keys.sign({ data: job.event.json }, clock.seconds()),
        headers: {
          "content-type": "text/plain; charset=utf-8",
          "user-agent": "sitefx-local-platform",
          [WebhookHeaders.eventId]: String(job.event.id),
          [WebhookHeaders.webhookId]: worker.id,
          [WebhookHeaders.attempt]: String(attempt)
        }
      })

      /** What became of one job: the dead letter goes, or is written or brought up to date. */
      const settle = (worker: Worker, job: Job, outcome: { readonly _tag: "Success"; readonly success: number } | { readonly _tag: "Failure"; readonly failure: Undelivered }) => {
        if (job.deadLetterId !== undefined) {
          redelivering.delete(job.deadLetterId)
          if (outcome._tag === "Success") db.run("DELETE FROM webhook_dead_letters WHERE id = ?", job.deadLetterId)
          else {
            const { attempts, last } = outcome.failure
            db.run(
              "UPDATE webhook_dead_letters SET attempts = attempts + ?, last_error = ?, last_status = ?, failed_date = ? WHERE id = ?",
              attempts,
              last.message,
              last.status ?? null,
              isoDate(clock.millis()),
              job.deadLetterId
            )
          }
          return
        }
        if (outcome._tag === "Failure") {
          writeDeadLetter(worker, job, outcome.failure.attempts, outcome.failure.last.message, outcome.failure.last.status)
        }
        handled(worker, job.event.id)
      }

      const handle = (worker: Worker, job: Job) =>
        Effect.gen(function*() {
          if (job.deadLetterId === undefined) {
            if (job.event.id <= worker.through) return
            worker.through = job.event.id
          }
          worker.inFlight = true
          const outcome = yield* Effect.result(deliver(policy, outgoing(worker, job)))
          worker.inFlight = false
          // removed (or the platform reset) while the delivery ran: nothing of it is written
          if (workers.get(worker.id) !== worker) return
          settle(worker, job, outcome)
        })

      const wants = (worker: Worker, event: SiteEvent) =>
        event.id > worker.through && (worker.types === undefined || worker.types.has(event.type))

      const offer = (worker: Worker, event: SiteEvent) => {
        if (!wants(worker, event)) return
        const job: Job = { event }
        if (Queue.sizeUnsafe(worker.queue) < MAX_PENDING) {
          Queue.offerUnsafe(worker.queue, job)
          return
        }
        writeDeadLetter(worker, job, 0, `Not tried: ${MAX_PENDING} deliveries were already waiting for this webhook`, undefined)
      }

      /** Starts delivering to a stored subscription: first what it has not handled yet, then what comes. */
      const start = (row: Row) => {
        const id = String(row["id"])
        const types = row["event_types"] === null ? undefined : new Set(JSON.parse(String(row["event_types"])) as Array<string>)
        const worker: Worker = {
          id,
          url: String(row["url"]),
          types,
          queue: Effect.runSync(Queue.unbounded<Job>()),
          through: Number(row["handled_through"]),
          inFlight: false,
          fiber: undefined
        }
        // events logged since it last handled one (after a restart), while the log keeps them
        for (const event of events.after(worker.through) ?? []) offer(worker, event)
        workers.set(id, worker)
        worker.fiber = Effect.runFork(Effect.forever(Effect.flatMap(Queue.take(worker.queue), (job) => handle(worker, job))))
      }

      const stop = (worker: Worker) => {
        workers.delete(worker.id)
        for (const job of Effect.runSync(Queue.clear(worker.queue))) if (job.deadLetterId !== undefined) redelivering.delete(job.deadLetterId)
        if (worker.fiber !== undefined) Effect.runFork(Fiber.interrupt(worker.fiber))
      }

      const insert = (url: string, eventTypes: ReadonlyArray<string> | undefined): Row => {
        const id = randomUUID()
        const types = eventTypes === undefined ? null : JSON.stringify([...new Set(eventTypes)])
        db.run(
          "INSERT INTO webhooks (id, url, event_types, created_date, handled_through) VALUES (?, ?, ?, ?, ?)",
          id,
          url,
          types,
          isoDate(clock.millis()),
          // only events logged from now on
          events.lastId()
        )
        return db.get("SELECT * FROM webhooks WHERE id = ?", id)!
      }

      const registerStartup = () => {
        for (const registration of startup) {
          const { url, eventTypes } = registrationOf(registration)
          if (db.get("SELECT 1 AS x FROM webhooks WHERE url = ?", url) === undefined) insert(url, eventTypes)
        }
      }

      registerStartup()
      for (const row of db.all("SELECT * FROM webhooks ORDER BY seq")) start(row)
      // each write's events go to the queues as it commits; with no subscription they are never decoded
      events.onLogged((batch) => {
        if (workers.size === 0) return
        for (const event of batch.events) for (const worker of workers.values()) offer(worker, event)
      }, () => workers.size > 0)
      // deliveries under way end with the platform (their fetches are aborted)
      yield* Effect.addFinalizer(() =>
        Effect.suspend(() => {
          const fibers = [...workers.values()].flatMap((worker) => (worker.fiber === undefined ? [] : [worker.fiber]))
          workers.clear()
          return Fiber.interruptAll(fibers)
        })
      )
      db.onReset(() => {
        for (const worker of [...workers.values()]) stop(worker)
        redelivering.clear()
        registerStartup()
        for (const row of db.all("SELECT * FROM webhooks ORDER BY seq")) start(row)
      })

      const queueRedelivery = (row: Row): boolean => {
        const id = String(row["id"])
        const worker = workers.get(String(row["webhook_id"]))
        if (worker === undefined || redelivering.has(id)) return false
        redelivering.add(id)
        Queue.offerUnsafe(worker.queue, {
          event: { id: Number(row["event_id"]), type: String(row["event_type"]), json: String(row["envelope"]) },
          deadLetterId: id
        })
        return true
      }

      return WebhookSubscriptions.of({
        create: (request) =>
          Effect.suspend(() => {
            const count = Number(db.get("SELECT COUNT(*) AS n FROM webhooks")!["n"])
            if (count >= MAX_WEBHOOKS) return Effect.fail(new TooManyWebhooks({ max: MAX_WEBHOOKS }))
            const row = insert(request.url, request.eventTypes)
            start(row)
            return Effect.succeed(webhookOf(row))
          }),
        list: Effect.sync(() => db.all("SELECT * FROM webhooks ORDER BY seq").map(webhookOf)),
        remove: (id) =>
          Effect.sync(() => {
            const worker = workers.get(id)
            if (worker !== undefined) stop(worker)
            const gone = db.run("DELETE FROM webhooks WHERE id = ?", id) > 0
            return gone
          }),
        deadLetters: (webhookId) =>
          Effect.sync(() =>
            (webhookId === undefined
              ? db.all(`SELECT ${DEAD_LETTER_COLUMNS} FROM webhook_dead_letters d JOIN webhooks w ON w.id = d.webhook_id ORDER BY d.seq DESC`)
              : db.all(
                `SELECT ${DEAD_LETTER_COLUMNS} FROM webhook_dead_letters d JOIN webhooks w ON w.id = d.webhook_id WHERE d.webhook_id = ? ORDER BY d.seq DESC`,
                webhookId
              )).map(deadLetterOf)
          ),
        redeliver: (id) =>
          Effect.sync(() => {
            const row = findDeadLetter(id)
            if (row === undefined) return undefined
            queueRedelivery(row)
            return deadLetterOf(row)
          }),
        redeliverAll: (webhookId) =>
          Effect.sync(() => {
            const rows = webhookId === undefined
              ? db.all("SELECT d.* FROM webhook_dead_letters d ORDER BY d.seq")
              : db.all("SELECT d.* FROM webhook_dead_letters d WHERE d.webhook_id = ? ORDER BY d.seq", webhookId)
            return rows.filter(queueRedelivery).length
          }),
        discard: ({ id, webhookId }) =>
          Effect.sync(() => {
            if (id !== undefined) return db.run("DELETE FROM webhook_dead_letters WHERE id = ?", id)
            if (webhookId !== undefined) return db.run("DELETE FROM webhook_dead_letters WHERE webhook_id = ?", webhookId)
            return db.run("DELETE FROM webhook_dead_letters")
          }),
        pending: Effect.sync(() => {
          let n = 0
          for (const worker of workers.values()) n += Queue.sizeUnsafe(worker.queue) + (worker.inFlight ? 1 : 0)
          return n
        })
      })
    })
  )
}
