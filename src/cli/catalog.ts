/**
 * `sitefx catalog`: the store's batch jobs. `export` writes every product as a JSONL line (see
 * ./catalog/line.ts), `import` reads such lines back into a store, `adjust` raises or lowers the
 * price, cost or weight of many products at once.
 */
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import { Argument, Command, Flag } from "effect/cli"
import { connectionFlags, withSite } from "./connection.ts"
import { explained } from "./failures.ts"
import { modeOf, usage } from "./output.ts"
import { outputFlags } from "./output.ts"
import { adjustProducts, planOf } from "./catalog/adjust.ts"
import { exportProducts } from "./catalog/export.ts"
import { checkReadable } from "./files.ts"
import { importProducts } from "./catalog/import.ts"

const collectionFlag = (what: string) =>
  Flag.String("collection").pipe(Flag.withDescription(`Only the products of the collection with this slug (${what})`), Flag.optional)

const dryRunFlag = (what: string) => Flag.Boolean("dry-run").pipe(Flag.withDescription(what), Flag.withDefault(false))

const exportCommand = Command.make(
  "export",
  {
    ...connectionFlags,
    ...outputFlags,
    out: Flag.String("out").pipe(
      Flag.withAlias("o"),
      Flag.withDescription("Write the JSONL to this file (it appears once the export is complete); default: standard output, with the result on stderr"),
      Flag.optional
    ),
    collection: collectionFlag("e.g. tees")
  },
  (flags) =>
    withSite(flags, (connection) =>
      explained(
        exportProducts({ out: Option.getOrUndefined(flags.out), collection: Option.getOrUndefined(flags.collection), mode: modeOf(flags) }),
        connection
      ))
).pipe(
  Command.withDescription(
    "Write every product (hidden ones too) as JSON lines, one product a line: its fields, options and choices (with their media), " +
      "variants with their price, cost, weight, SKU, visibility and stock, whether quantities are tracked, media by id, and the " +
      "slugs of its collections. Read page by page; `sitefx catalog import` reads the file back."
  ),
  Command.withShortDescription("Write every product (or a collection's) as JSON lines"),
  Command.withExamples([
    { command: "sitefx catalog export --out products.jsonl", description: "The whole store to a file" },
    { command: "sitefx catalog export --collection tees | jq .name", description: "One collection, to another program" }
  ])
)

const importCommand = Command.make(
  "import",
  {
    ...connectionFlags,
    ...outputFlags,
    file: Argument.String("file").pipe(Argument.withDescription("JSONL file as `sitefx catalog export` writes it; - reads standard input")),
    importMode: Flag.Literals("mode", ["create", "upsert"]).pipe(
      Flag.withDescription("create: a new product for every line; upsert: update the product with the line's id (else its slug) when the store has it"),
      Flag.withDefault("create" as const)
    ),
    dryRun: dryRunFlag("Check every line (and, with upsert, look the products up) without writing anything"),
    report: Flag.String("report").pipe(Flag.withDescription("Also write the report (counts, failed lines with their reasons) to this JSON file"), Flag.optional),
    concurrency: Flag.Int("concurrency").pipe(Flag.withDescription("Products written at once (1 to 32)"), Flag.withDefault(8)),
    noCheckpoint: Flag.Boolean("no-checkpoint").pipe(
      Flag.withoutNegation,
      Flag.withDescription("Keep no checkpoint: an interrupted import cannot resume, and run again creates the products of lines without a slug a second time"),
      Flag.withDefault(false)
    )
  },
  (flags) =>
    Effect.gen(function*() {
      if (!Number.isInteger(flags.concurrency) || flags.concurrency < 1 || flags.concurrency > 32) {
        return yield* usage(`--concurrency is from 1 to 32, not ${flags.concurrency}`)
      }
      yield* checkReadable(flags.file)
      return yield* withSite(flags, (connection) =>
        explained(
          importProducts({
            file: flags.file,
            importMode: flags.importMode,
            dryRun: flags.dryRun,
            report: Option.getOrUndefined(flags.report),
            concurrency: flags.concurrency,
            mode: modeOf(flags),
            checkpoint: !flags.noCheckpoint
          }),
          connection
        ))
    })
).pipe(
  Command.withDescription(
    "Create products from JSON lines (the form `sitefx catalog export` writes): each with its options, media, variants' own values, " +
      "inventory, and collections (by slug; the collections must exist, import does not create them). Lines are checked first: " +
      "a bad line (not JSON, no name, a bad option or variant) is reported with its number and nothing is written for it; a " +
      "product whose later steps fail is removed again. Upsert updates fields, options and variants, and adds media and " +
      "collections (it removes none). Stopped or killed, the same command run again resumes: a checkpoint of its own (under " +
      "$SITEFX_STATE_DIR, else $XDG_STATE_HOME/sitefx, else ~/.local/state/sitefx; removed once complete) says which lines are " +
      "through, so no product is created twice. Ends with a report; exits 1 when any line failed."
  ),
  Command.withShortDescription("Create (or update) products from JSON lines, with a report"),
  Command.withExamples([
    { command: "sitefx catalog import products.jsonl --report import-report.json", description: "Create every product of the file" },
    { command: "sitefx catalog export --base-url https://www.wixapis.com | sitefx catalog import - --mode upsert", description: "Copy a site's store into the local platform" }
  ])
)

const adjustment = (property: string, example: string) =>
  Flag.String(property).pipe(
    Flag.withDescription(`Adjust every selected product's ${property}: a percentage (+10%, --${property}=-5%) or an amount (${example}); one adjustment a run`),
    Flag.optional
  )

const adjustCommand = Command.make(
  "adjust",
  {
    ...connectionFlags,
    ...outputFlags,
    price: adjustment("price", "+2.5, -1"),
    cost: adjustment("cost", "+0.5, -1"),
    weight: adjustment("weight", "+0.1, -0.05"),
    round: Flag.Boolean("round").pipe(Flag.withDescription("Round a percentage's results to whole units (default: to cents)"), Flag.withDefault(false)),
    collection: collectionFlag("default: every product"),
    filter: Flag.String("filter").pipe(
      Flag.withDescription(`Only the products matching this product-query filter, as JSON: '{"priceData.price": {"$lt": 20}}'`),
      Flag.optional
    ),
    dryRun: dryRunFlag("Select the products and say how many would be adjusted, without adjusting any")
  },
  (flags) =>
    Effect.gen(function*() {
      const plan = yield* planOf(flags)
      return yield* withSite(flags, (connection) => explained(adjustProducts(plan, { dryRun: flags.dryRun, mode: modeOf(flags) }), connection))
    })
).pipe(
  Command.withDescription(
    "Raise or lower the price, cost or weight of many products by a percentage or an amount (variants' own prices too), " +
      "through the platform's bulk adjust: 100 products a call. Selects every product, a collection's, or those matching a " +
      "filter, then adjusts them; reports how many were adjusted and which failed, and exits 1 when any did. A negative " +
      "adjustment goes with =: --price=-5%."
  ),
  Command.withShortDescription("Raise or lower prices, costs or weights of many products"),
  Command.withExamples([
    { command: "sitefx catalog adjust --price +10% --collection tees", description: "Tees cost 10% more" },
    { command: "sitefx catalog adjust --price=-5 --filter '{\"priceData.price\": {\"$gt\": 100}}'", description: "5 off everything over 100" }
  ])
)

export const catalog = Command.make("catalog").pipe(
  Command.withDescription("The store's batch jobs: export and import products as JSON lines, adjust prices, costs and weights in bulk"),
  Command.withSubcommands([exportCommand, importCommand, adjustCommand])
)
