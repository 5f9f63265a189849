/**
 * `sitefx events tail`: a site's events as they happen, one line each, until Ctrl-C (or `--count`).
 * It follows the platform's live stream, which reconnects by itself and picks up what it missed; with
 * `--json` each event is one JSON line (its id, type, entity and identity, and the envelope), for
 * `jq` and scripts. `--since ID` starts after an event an earlier tail printed.
 */
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import * as Stream from "effect/Stream"
import { Argument, Command, Flag } from "effect/cli"
import { live, type LiveEvent } from "../events/Live.ts"
import { EVENT_TYPES, type WebhookSubscription } from "../events/protocol.ts"
import * as Subscriptions from "../events/Subscriptions.ts"
import { type ConnectionFlags, connectionFlags, withSite } from "./connection.ts"
import { explained } from "./failures.ts"
import { ExitCode, modeOf, outputFlags, type OutputFlags, printResult, stopsBySignal, usage } from "./output.ts"

const parseJson = (text: string | undefined): Record<string, unknown> => {
  if (text === undefined) return {}
  try {
    const value: unknown = JSON.parse(text)
    return typeof value === "object" && value !== null ? (value as Record<string, unknown>) : {}
  } catch {
    return {}
  }
}

const IDENTITIES: Record<string, { readonly kind: string; readonly idKey: string; readonly anyone: string }> = {
  MEMBER: { kind: "member", idKey: "memberId", anyone: "a member" },
  ANONYMOUS_VISITOR: { kind: "visitor", idKey: "anonymousVisitorId", anyone: "a visitor" },
  WIX_USER: { kind: "admin", idKey: "wixUserId", anyone: "an admin" },
  APP: { kind: "app", idKey: "appId", anyone: "an app" }
}

/**
 * Who caused an event, after "by": `member 1234…`, `visitor …`, `app …`, `admin …`. An id that only
 * repeats the kind (the local platform's key is called "admin") is left out rather than read "admin admin".
 */
export const describeIdentity = (identity: Record<string, unknown>): string => {
  const known = IDENTITIES[String(identity["identityType"])]
  if (known === undefined) return "an unknown caller"
  const id = identity[known.idKey]
  if (typeof id !== "string" || id === "") return known.anyone
  return id === known.kind ? known.kind : `${known.kind} ${id}`
}

/** The entity a domain event carries: created, updated (its current state) or deleted. */
const entityOf = (data: Record<string, unknown>): Record<string, unknown> | undefined => {
  const pick = (key: string, inner: string) => {
    const event = data[key]
    const entity = typeof event === "object" && event !== null ? (event as Record<string, unknown>)[inner] : undefined
    return typeof entity === "object" && entity !== null ? (entity as Record<string, unknown>) : undefined
  }
  return pick("createdEvent", "entity") ?? pick("updatedEvent", "currentEntity") ?? pick("deletedEvent", "deletedEntity")
}

/** What an event is about: `Posts/welcome` for items, the entity id otherwise. */
const about = (e: LiveEvent, data: Record<string, unknown>): string => {
  const entity = data["entityId"]
  const collection = entityOf(data)?.["dataCollectionId"]
  if (typeof entity === "string") return typeof collection === "string" ? `${collection}/${entity}` : entity
  const legacyId = data["productId"] ?? data["collectionId"] ?? data["collection_Id"] ?? data["inventoryItemId"] ?? data["cartId"] ?? data["id"]
  return typeof legacyId === "string" ? legacyId : e.id
}

export const describeEvent = (e: LiveEvent): { readonly line: string; readonly json: Record<string, unknown> } => {
  const data = parseJson(e.envelope.data)
  const identity = parseJson(e.envelope.identity)
  const time = typeof data["eventTime"] === "string" ? data["eventTime"].slice(11, 19) : new Date().toISOString().slice(11, 19)
  const target = about(e, data)
  return {
    line: `${time}  ${e.type}  ${target}  by ${describeIdentity(identity)}  (#${e.id})`,
    json: { id: e.id, type: e.type, about: target, identity, instanceId: e.envelope.instanceId, data }
  }
}

const tail = Command.make(
  "tail",
  {
    ...connectionFlags,
    ...outputFlags,
    type: Flag.String("type").pipe(Flag.withAlias("t"), Flag.withDescription("Only this event type, e.g. wix.data.v2.data_item_created (repeatable)"), Flag.atLeast(0)),
    since: Flag.String("since").pipe(Flag.withDescription("Start after this event id (an earlier tail's #id) instead of with new events"), Flag.optional),
    count: Flag.Int("count").pipe(Flag.withDescription("Stop after this many events"), Flag.optional)
  },
  (flags: ConnectionFlags & OutputFlags & { readonly type: ReadonlyArray<string>; readonly since: Option.Option<string>; readonly count: Option.Option<number> }) =>
    withSite(flags, (connection) =>
      explained(
        Effect.gen(function*() {
          stopsBySignal()
          const mode = modeOf(flags)
          const limit = Option.getOrUndefined(flags.count)
          if (limit !== undefined && limit < 1) return yield* usage("--count must be at least 1")
          const since = Option.getOrUndefined(flags.since)
          if (mode === "tty" || mode === "plain") {
            process.stderr.write(`following events of ${connection.baseUrl}${flags.type.length > 0 ? ` (${flags.type.join(", ")})` : ""}; Ctrl-C stops\n`)
          }
          const events = live({ ...(flags.type.length > 0 ? { eventTypes: flags.type } : {}), ...(since === undefined ? {} : { lastEventId: since }) })
          yield* (limit === undefined ? events : Stream.take(events, limit)).pipe(
            Stream.runForEach((e) =>
              Effect.sync(() => {
                const described = describeEvent(e)
                process.stdout.write(`${mode === "json" ? JSON.stringify(described.json) : described.line}\n`)
              })
            ),
            Effect.catchTag("LiveError", (error) =>
              Effect.fail(usage(
                error.reason._tag === "Expired"
                  // resuming from the same point would fail again: the way on is to start from now
                  ? `the events after ${error.lastEventId ?? "--since"} are no longer kept; run without --since to follow from now`
                  : `the live stream stopped: ${error.message}${error.lastEventId === undefined ? "" : `; resume with --since ${error.lastEventId}`}`
              )))
          )
        }),
        connection
      ))
).pipe(Command.withDescription("Print a site's events as they happen (Ctrl-C stops); --json for one JSON object per event"))

const subscriptionLine = (w: WebhookSubscription) =>
  `${w.id}  ${w.url}  ${w.eventTypes.length === EVENT_TYPES.length ? "every event type" : w.eventTypes.join(", ")}  (since ${w.createdDate.slice(0, 19)}Z)`

const webhooksFlags = { ...connectionFlags, ...outputFlags }

const addWebhook = Command.make(
  "add",
  {
    ...webhooksFlags,
    url: Argument.String("url").pipe(Argument.withDescription("Where the site POSTs its events, signed (http or https)")),
    type: Flag.String("type").pipe(Flag.withAlias("t"), Flag.withDescription("Only this event type (repeatable; default: every type)"), Flag.atLeast(0))
  },
  (flags) =>
    withSite(flags, (connection) =>
      explained(
        Effect.gen(function*() {
          const webhook = yield* Subscriptions.create({ url: flags.url, eventTypes: flags.type })
          yield* printResult(modeOf(flags), { webhook }, `subscribed ${subscriptionLine(webhook)}`)
        }),
        connection
      ))
).pipe(Command.withDescription("Subscribe a URL to the site's events (verify the bodies with sitefx/events Webhooks.handler)"))

const removeWebhook = Command.make(
  "remove",
  {
    ...webhooksFlags,
    ids: Argument.String("id").pipe(Argument.withDescription("The subscription's id, as `sitefx events webhooks` lists it"), Argument.atLeast(1))
  },
  (flags) =>
    withSite(flags, (connection) =>
      explained(
        Effect.gen(function*() {
          for (const id of flags.ids) yield* Subscriptions.remove(id)
          yield* printResult(modeOf(flags), { removed: flags.ids }, flags.ids.map((id) => `removed ${id}`).join("\n"))
        }),
        connection
      ))
).pipe(Command.withDescription("End webhook subscriptions by id"))

const webhooks = Command.make("webhooks", webhooksFlags, (flags) =>
  withSite(flags, (connection) =>
    explained(
      Effect.gen(function*() {
        const all = yield* Subscriptions.list
        yield* printResult(modeOf(flags), { webhooks: all }, all.length === 0 ? "no webhook subscriptions" : all.map(subscriptionLine).join("\n"))
      }),
      connection
    ))).pipe(
  Command.withDescription("List the site's webhook subscriptions; add or remove one"),
  Command.withSubcommands([addWebhook, removeWebhook])
)

export const events = Command.make("events").pipe(
  Command.withDescription("A site's events: follow them live, manage webhook subscriptions"),
  Command.withSubcommands([tail, webhooks])
)

export { ExitCode }
