/**
 * `sitefx orders`: the store's orders for its admins, with the site's API key.
 *
 * - `export` writes every order (newest first), or those placed `--since` a date, as JSONL (one order a
 *   line, as the platform gives it) or `--format csv` (one line per order: number, id, dates, statuses,
 *   buyer, total), page by page as each page arrives, so memory holds one page however many orders.
 * - `get` prints one order by id (as JSON with `--json`).
 */
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import * as Stream from "effect/Stream"
import { Argument, Command, Flag } from "effect/cli"
import * as Orders from "../ecom/Orders.ts"
import { type ConnectionFlags, connectionFlags, withSite } from "./connection.ts"
import { explained } from "./failures.ts"
import { openOutput } from "./files.ts"
import { modeOf, type OutputFlags, outputFlags, type OutputMode, printResult, usage, withProgress } from "./output.ts"

const common = { ...connectionFlags, ...outputFlags }

const onSite = <A, E, R>(flags: ConnectionFlags & OutputFlags, use: Effect.Effect<A, E, R>) =>
  withSite(flags, (connection) => explained(use, connection))

/** The columns of a CSV export, in order. */
export const CSV_COLUMNS = ["number", "id", "createdDate", "status", "paymentStatus", "fulfillmentStatus", "buyerEmail", "currency", "total", "items"] as const

const csvCell = (value: string): string => (/[",\n\r]/.test(value) ? `"${value.replace(/"/g, '""')}"` : value)

/** One order as a CSV line. */
export const csvLine = (o: Orders.Order): string =>
  [
    o.number ?? "",
    o.id ?? "",
    o.createdDate ?? "",
    o.status ?? "",
    o.paymentStatus ?? "",
    o.fulfillmentStatus ?? "",
    o.buyerInfo?.email ?? "",
    o.currency ?? "",
    o.priceSummary?.total?.amount ?? "",
    String((o.lineItems ?? []).reduce((n, l) => n + (l.quantity ?? 0), 0))
  ].map(csvCell).join(",")

export interface ExportOptions {
  readonly out: string | undefined
  readonly format: "jsonl" | "csv"
  readonly since: string | undefined
  readonly mode: OutputMode
  /** Orders asked for a request (tests use small pages); 100 otherwise. */
  readonly pageSize?: number
}

export const exportOrders = (options: ExportOptions) =>
  Effect.gen(function*() {
    const since = options.since === undefined ? undefined : new Date(options.since)
    if (since !== undefined && Number.isNaN(since.getTime())) return yield* usage(`--since takes a date or time, e.g. --since 2026-03-01, not ${options.since}`)
    const all = Orders.search().limit(options.pageSize ?? Orders.MAX_ORDERS_PAGE)
    const query = since === undefined ? all : all.ge("createdDate", since)
    const exported = yield* Effect.scoped(Effect.gen(function*() {
      const output = yield* openOutput(options.out)
      if (options.format === "csv") yield* output.write(`${CSV_COLUMNS.join(",")}\n`)
      const count = yield* withProgress(options.mode, "export", "orders", undefined, (progress) => {
        let done = 0
        return query.pages.pipe(
          Stream.runForEach((page) => {
            done += page.orders.length
            const text = page.orders.map((o) => `${options.format === "csv" ? csvLine(o) : JSON.stringify(o)}\n`).join("")
            return Effect.map(output.write(text), () => progress.update(done))
          }),
          Effect.map(() => done)
        )
      })
      yield* output.finish
      return count
    }))
    const result = { exported, out: options.out ?? null, format: options.format, since: since?.toISOString() ?? null }
    const what = `exported ${exported} order${exported === 1 ? "" : "s"}${since === undefined ? "" : ` placed since ${since.toISOString()}`}`
    if (options.out !== undefined) return yield* printResult(options.mode, result, `${what} to ${options.out}`)
    // standard output carries the orders: the result goes to stderr
    yield* Effect.sync(() => {
      if (options.mode === "json") process.stderr.write(`${JSON.stringify(result)}\n`)
      else if (options.mode !== "quiet") process.stderr.write(`${what}\n`)
    })
  })

const exportCommand = Command.make(
  "export",
  {
    ...common,
    out: Flag.String("out").pipe(Flag.withAlias("o"), Flag.withDescription("Write to this file (default: standard output)"), Flag.optional),
    format: Flag.Literals("format", ["jsonl", "csv"]).pipe(Flag.withDescription("jsonl (one order a line, as the platform gives it) or csv (one line per order)"), Flag.withDefault("jsonl" as const)),
    since: Flag.String("since").pipe(Flag.withDescription("Only orders placed at or after this date or time (ISO, e.g. 2026-03-01)"), Flag.optional)
  },
  (flags) =>
    onSite(flags, exportOrders({ out: Option.getOrUndefined(flags.out), format: flags.format, since: Option.getOrUndefined(flags.since), mode: modeOf(flags) }))
).pipe(Command.withDescription("Export the store's orders, newest first, as JSONL or CSV, page by page (--since a date)"))

/** An order for a person: its number, state, buyer, total and lines. */
export const describeOrder = (o: Orders.Order): string =>
  [
    `order ${o.number ?? "?"} (${o.id ?? "?"})`,
    `placed     ${o.createdDate ?? ""}`,
    `status     ${o.status ?? ""}, payment ${o.paymentStatus ?? ""}, fulfillment ${o.fulfillmentStatus ?? ""}`,
    `buyer      ${o.buyerInfo?.email ?? ""}`,
    `total      ${o.priceSummary?.total?.formattedAmount ?? o.priceSummary?.total?.amount ?? ""}`,
    ...(o.lineItems ?? []).map((l) => `  ${l.quantity ?? 0} x ${l.productName?.original ?? ""}  ${l.price?.formattedAmount ?? ""}`)
  ].join("\n")

export const getOrder = (id: string, mode: OutputMode) =>
  Effect.gen(function*() {
    if (id.trim() === "") return yield* usage("give the order's id, e.g. sitefx orders get 5eed0d0e-0000-4000-8000-000000000001")
    const order = yield* Orders.get(id.trim())
    yield* printResult(mode, order, describeOrder(order))
  })

const getCommand = Command.make(
  "get",
  { ...common, id: Argument.String("id").pipe(Argument.withDescription("The order's id")) },
  (flags) => onSite(flags, getOrder(flags.id, modeOf(flags)))
).pipe(Command.withDescription("Print one order: number, state, buyer, total and lines; --json for the order as the platform gives it"))

export const orders = Command.make("orders").pipe(
  Command.withDescription("The store's orders (an API key): export them, or print one"),
  Command.withSubcommands([exportCommand, getCommand])
)
