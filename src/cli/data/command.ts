/**
 * `sitefx data`: moving a collection's items in and out, removing them, and the site's collections.
 */
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import { Argument, Command, Flag } from "effect/cli"
import { type Connection, type ConnectionFlags, connectionFlags, withSite } from "../connection.ts"
import { explained } from "../failures.ts"
import { modeOf, type OutputFlags, outputFlags } from "../output.ts"
import { runCollectionsCreate, runCollectionsDescribe, runCollectionsList, runRemove, runTruncate } from "./admin.ts"
import { runExport } from "./export.ts"
import { runIndexesCreate, runIndexesDrop, runIndexesList } from "./indexes.ts"
import { runImport } from "./import.ts"
import { formatOf, importFormat } from "./input.ts"
import { runSandboxDisable, runSandboxEnable, runSandboxList, runSandboxSync } from "./sandbox.ts"
import { runBackupsCreate, runBackupsDelete, runBackupsList, runBackupsRestore } from "./backups.ts"
import { runJobsCancel, runJobsGet, runJobsList, runJobsLogs, runJobsSubmit } from "./jobs.ts"
import { runTypes } from "./types.ts"
import { MOVEMENT_WRITE_POLICIES } from "../../data/protocol.ts"
import * as DataEnvironment from "../../data/DataEnvironment.ts"
import { DATA_ENVIRONMENTS } from "../../data/protocol.ts"

const common = { ...connectionFlags, ...outputFlags }

/** The flags of a command that reads or writes items: `--environment` says which of a collection's. */
const items = {
  ...common,
  environment: Flag.Literals("environment", DATA_ENVIRONMENTS).pipe(
    Flag.withDescription("Which items: LIVE (default), SANDBOX (the collection's sandbox) or SANDBOX_PREFERRED (the sandbox where enabled)"),
    Flag.optional
  )
}

/** Runs a command's work against the site its flags name (in the environment they name), every failure one explained line. */
const onSite = <A, E, R>(flags: ConnectionFlags & OutputFlags & { readonly environment?: Option.Option<DataEnvironment.Environment> }, use: Effect.Effect<A, E, R>) =>
  onSiteWith(flags, () => use)

/** {@link onSite} for work that needs to know the connection (where it writes, to name its checkpoint). */
const onSiteWith = <A, E, R>(
  flags: ConnectionFlags & OutputFlags & { readonly environment?: Option.Option<DataEnvironment.Environment> },
  use: (connection: Connection) => Effect.Effect<A, E, R>
) =>
  withSite(flags, (connection) =>
    explained(DataEnvironment.within(flags.environment === undefined ? undefined : Option.getOrUndefined(flags.environment), use(connection)), connection))

const collectionArg = Argument.String("collection").pipe(Argument.withDescription("The collection's id, e.g. Posts"))
const format = Flag.Literals("format", ["jsonl", "csv"]).pipe(
  Flag.withDescription("jsonl (one JSON item per line, dates as {\"$date\": ISO}) or csv (a header row, cells typed by the collection's fields); default: from the file name (.csv; .jsonl, .ndjson or .json)"),
  Flag.optional
)

const exportCommand = Command.make(
  "export",
  {
    ...items,
    collection: collectionArg,
    filter: Flag.String("filter").pipe(Flag.withDescription("Only items matching this filter, the platform's JSON: '{\"likes\": {\"$gt\": 10}}'"), Flag.optional),
    sort: Flag.String("sort").pipe(Flag.withDescription("Order by FIELD or FIELD:desc (repeatable)"), Flag.atLeast(0)),
    fields: Flag.String("fields").pipe(Flag.withDescription("Only these fields, comma-separated (the CSV columns, in order)"), Flag.optional),
    format,
    out: Flag.String("out").pipe(Flag.withAlias("o"), Flag.withDescription("File to write (default: stdout)"), Flag.optional)
  },
  (flags) =>
    onSite(flags, runExport({
      collection: flags.collection,
      filter: Option.getOrUndefined(flags.filter),
      sort: flags.sort,
      fields: Option.match(flags.fields, { onNone: () => [], onSome: (f) => f.split(",").map((s) => s.trim()).filter((s) => s !== "") }),
      format: Option.getOrUndefined(flags.format) ?? formatOf(Option.getOrElse(flags.out, () => ""), undefined),
      out: Option.getOrUndefined(flags.out),
      mode: modeOf(flags)
    }))
).pipe(Command.withDescription("Write every matching item of a collection to JSONL or CSV, in constant memory"))

const importCommand = Command.make(
  "import",
  {
    ...items,
    collection: collectionArg,
    file: Argument.String("file").pipe(Argument.withDescription("JSONL or CSV file to read, or - for stdin")),
    format,
    mode: Flag.Literals("mode", ["insert", "save", "update"]).pipe(
      Flag.withDescription("insert (existing ids are skipped), save (insert or replace) or update (existing ids only)"),
      Flag.withDefault("insert" as const)
    ),
    concurrency: Flag.Int("concurrency").pipe(Flag.withDescription("Chunks of up to 1000 items in flight at once (1-32)"), Flag.withDefault(4)),
    checkpoint: Flag.String("checkpoint").pipe(
      Flag.withDescription(
        "Keep the import's progress in this file, kept once it is complete (default: a file of its own under $SITEFX_STATE_DIR, else $XDG_STATE_HOME/sitefx, else ~/.local/state/sitefx, removed once it is complete); after a kill, a crash or Ctrl-C the same command resumes where it stopped"
      ),
      Flag.optional
    ),
    noCheckpoint: Flag.Boolean("no-checkpoint").pipe(
      Flag.withoutNegation,
      Flag.withDescription("Keep no checkpoint: an interrupted import cannot resume, and run again writes rows without an _id a second time"),
      Flag.withDefault(false)
    ),
    dryRun: Flag.Boolean("dry-run").pipe(Flag.withDescription("Check every row and report, write nothing"), Flag.withDefault(false)),
    report: Flag.String("report").pipe(Flag.withDescription("Write the full report (every bad row and failed item) as JSON to this file"), Flag.optional)
  },
  (flags) =>
    Effect.flatMap(importFormat(flags.file, Option.getOrUndefined(flags.format)), (format) =>
      onSiteWith(flags, (connection) =>
        runImport({
          collection: flags.collection,
          path: flags.file,
          format,
          mode: flags.mode,
          concurrency: flags.concurrency,
          checkpoint: Option.getOrUndefined(flags.checkpoint),
          noCheckpoint: flags.noCheckpoint,
          dryRun: flags.dryRun,
          report: Option.getOrUndefined(flags.report),
          output: modeOf(flags),
          site: { baseUrl: connection.baseUrl, siteId: connection.siteId },
          environment: Option.getOrUndefined(flags.environment)
        })))
).pipe(Command.withDescription(
  "Check and write items from JSONL or CSV: bad rows reported by line; an import of a file resumes where it stopped when run again, writing no item twice; exit 1 if any item failed"
))

const yes = Flag.Boolean("yes").pipe(Flag.withAlias("y"), Flag.withDescription("Do it without asking (required when not on a terminal)"), Flag.withDefault(false))

const removeCommand = Command.make(
  "remove",
  {
    ...items,
    collection: collectionArg,
    filter: Flag.String("filter").pipe(Flag.withDescription("Which items: the platform's filter JSON, e.g. '{\"status\": \"draft\"}'")),
    yes
  },
  (flags) => onSite(flags, runRemove({ collection: flags.collection, filter: flags.filter, yes: flags.yes, mode: modeOf(flags) }))
).pipe(Command.withDescription("Remove the items matching a filter (asks first)"))

const truncateCommand = Command.make(
  "truncate",
  { ...items, collection: collectionArg, yes },
  (flags) => onSite(flags, runTruncate({ collection: flags.collection, yes: flags.yes, mode: modeOf(flags) }))
).pipe(Command.withDescription("Remove every item of a collection (asks first)"))

const createCollection = Command.make(
  "create",
  { ...common, file: Argument.String("file").pipe(Argument.withDescription("JSON file: {\"id\": \"Posts\", \"fields\": [{\"key\": \"title\", \"type\": \"TEXT\"}], \"permissions\": {...}}")) },
  (flags) => onSite(flags, runCollectionsCreate({ file: flags.file, mode: modeOf(flags) }))
).pipe(Command.withDescription("Create a collection from a JSON definition"))

const describeCollection = Command.make(
  "describe",
  { ...items, collection: collectionArg },
  (flags) => onSite(flags, runCollectionsDescribe({ collection: flags.collection, mode: modeOf(flags) }))
).pipe(Command.withDescription("A collection's fields, permissions and item count"))

const collectionsCommand = Command.make("collections", common, (flags) => onSite(flags, runCollectionsList(modeOf(flags)))).pipe(
  Command.withDescription("List the site's collections with their item counts; create or describe one"),
  Command.withSubcommands([createCollection, describeCollection])
)

const indexName = Argument.String("name").pipe(Argument.withDescription("The index's name"))

const createIndex = Command.make(
  "create",
  {
    ...common,
    collection: collectionArg,
    name: indexName,
    field: Flag.String("field").pipe(Flag.withDescription("An indexed field: FIELD or FIELD:desc (repeatable, in order)"), Flag.atLeast(0)),
    unique: Flag.Boolean("unique").pipe(Flag.withDescription("Refuse a second item with the same values"), Flag.withDefault(false)),
    caseInsensitive: Flag.Boolean("case-insensitive").pipe(Flag.withDescription("Compare text ignoring case"), Flag.withDefault(false)),
    noWait: Flag.Boolean("no-wait").pipe(Flag.withDescription("Return while the platform is still building it"), Flag.withDefault(false))
  },
  (flags) =>
    onSite(flags, runIndexesCreate({
      collection: flags.collection,
      name: flags.name,
      fields: flags.field,
      unique: flags.unique,
      caseInsensitive: flags.caseInsensitive,
      wait: !flags.noWait,
      mode: modeOf(flags)
    }))
).pipe(Command.withDescription("Create an index and wait until it is built; exit 1 if the build failed (say, a unique index over items that clash)"))

const dropIndex = Command.make(
  "drop",
  { ...common, collection: collectionArg, name: indexName },
  (flags) => onSite(flags, runIndexesDrop({ collection: flags.collection, name: flags.name, mode: modeOf(flags) }))
).pipe(Command.withDescription("Drop an index (the items stay as they are)"))

const indexesCommand = Command.make("indexes", { ...common, collection: collectionArg }, (flags) =>
  onSite(flags, runIndexesList({ collection: flags.collection, mode: modeOf(flags) }))).pipe(
    Command.withDescription("List a collection's indexes with their status; create or drop one"),
    Command.withSubcommands([createIndex, dropIndex])
  )

const enableSandbox = Command.make(
  "enable",
  {
    ...common,
    collection: collectionArg,
    empty: Flag.Boolean("empty").pipe(Flag.withDescription("Start the sandbox empty instead of as a copy of the live items"), Flag.withDefault(false))
  },
  (flags) => onSite(flags, runSandboxEnable({ collection: flags.collection, empty: flags.empty, mode: modeOf(flags) }))
).pipe(Command.withDescription("Enable a collection's sandbox, a copy of its live items (ids, dates, references) unless --empty"))

const disableSandbox = Command.make(
  "disable",
  { ...common, collection: collectionArg, yes },
  (flags) => onSite(flags, runSandboxDisable({ collection: flags.collection, yes: flags.yes, mode: modeOf(flags) }))
).pipe(Command.withDescription("Disable a collection's sandbox and remove its items (asks first)"))

const syncSandbox = Command.make(
  "sync",
  {
    ...common,
    collection: collectionArg,
    to: Flag.Literals("to", ["live", "sandbox"]).pipe(Flag.withDescription("live (default): the sandbox's items replace live's; sandbox: live's replace the sandbox's"), Flag.withDefault("live" as const)),
    yes
  },
  (flags) => onSite(flags, runSandboxSync({ collection: flags.collection, to: flags.to, yes: flags.yes, mode: modeOf(flags) }))
).pipe(Command.withDescription("Copy one environment's items onto the other, exactly (asks first)"))

const sandboxCommand = Command.make("sandbox", common, (flags) => onSite(flags, runSandboxList({ mode: modeOf(flags) }))).pipe(
  Command.withDescription("List the collections with a sandbox (local platform); enable, disable or sync one"),
  Command.withSubcommands([enableSandbox, disableSandbox, syncSandbox])
)

const backupId = Argument.String("backup").pipe(Argument.withDescription("The backup's id (`sitefx data backups` lists them)"))

const createBackup = Command.make(
  "create",
  { ...common, noWait: Flag.Boolean("no-wait").pipe(Flag.withDescription("Return while the platform is still taking it"), Flag.withDefault(false)) },
  (flags) => onSite(flags, runBackupsCreate({ wait: !flags.noWait, mode: modeOf(flags) }))
).pipe(Command.withDescription("Take a backup of every collection and wait until it is READY"))

const restoreBackup = Command.make(
  "restore",
  {
    ...common,
    backup: backupId,
    collection: Flag.String("collection").pipe(
      Flag.withDescription("Restore only this collection: C, or C:DESTINATION to restore it into another collection (repeatable; default: every collection)"),
      Flag.atLeast(0)
    ),
    yes
  },
  (flags) => onSite(flags, runBackupsRestore({ id: flags.backup, collections: flags.collection, yes: flags.yes, mode: modeOf(flags) }))
).pipe(Command.withDescription("Put collections back as a backup holds them (asks first); exit 1 if it failed, which changes nothing"))

const deleteBackup = Command.make(
  "delete",
  { ...common, backup: backupId, yes },
  (flags) => onSite(flags, runBackupsDelete({ id: flags.backup, yes: flags.yes, mode: modeOf(flags) }))
).pipe(Command.withDescription("Delete a backup and free its space (asks first)"))

const backupsCommand = Command.make("backups", common, (flags) => onSite(flags, runBackupsList({ mode: modeOf(flags) }))).pipe(
  Command.withDescription("List the site's data backups, newest first; create, restore or delete one"),
  Command.withSubcommands([createBackup, restoreBackup, deleteBackup])
)

const jobId = Argument.String("job").pipe(Argument.withDescription("The job's id (`sitefx data jobs` lists them)"))

const submitJob = Command.make(
  "submit",
  {
    ...common,
    collection: Argument.String("collection").pipe(Argument.withDescription("The collection to move items from (or --from-file)"), Argument.optional),
    to: Flag.String("to").pipe(Flag.withDescription("The collection to move the items into"), Flag.optional),
    toFile: Flag.String("to-file").pipe(Flag.withDescription("Write the items to this file (.csv or .jsonl) once the job is done"), Flag.optional),
    fromFile: Flag.String("from-file").pipe(Flag.withDescription("Move the items of this CSV or JSONL file (uploaded first) into --to"), Flag.optional),
    format,
    policy: Flag.Literals("policy", MOVEMENT_WRITE_POLICIES).pipe(
      Flag.withDescription("An item whose _id is there already: OVERWRITE it (default), SKIP_EXISTING, or TRUNCATE_BEFORE (empty the destination first)"),
      Flag.withDefault("OVERWRITE" as const)
    ),
    filter: Flag.String("filter").pipe(Flag.withDescription("Only the source's items matching this filter, the platform's JSON"), Flag.optional),
    fields: Flag.String("fields").pipe(Flag.withDescription("Only these fields, comma-separated"), Flag.optional),
    name: Flag.String("name").pipe(Flag.withDescription("A name for the job"), Flag.optional),
    noWait: Flag.Boolean("no-wait").pipe(Flag.withDescription("Return once the job is submitted"), Flag.withDefault(false))
  },
  (flags) =>
    onSite(flags, runJobsSubmit({
      collection: Option.getOrUndefined(flags.collection),
      to: Option.getOrUndefined(flags.to),
      fromFile: Option.getOrUndefined(flags.fromFile),
      toFile: Option.getOrUndefined(flags.toFile),
      format: Option.getOrUndefined(flags.format),
      policy: flags.policy,
      filter: Option.getOrUndefined(flags.filter),
      fields: Option.match(flags.fields, { onNone: () => [], onSome: (f) => f.split(",").map((x) => x.trim()).filter((x) => x !== "") }),
      name: Option.getOrUndefined(flags.name),
      wait: !flags.noWait,
      mode: modeOf(flags)
    }))
).pipe(Command.withDescription("Move items collection → collection, file → collection or collection → file, with a progress bar; exit 1 if any item did not move"))

const getJob = Command.make("get", { ...common, job: jobId }, (flags) => onSite(flags, runJobsGet({ id: flags.job, mode: modeOf(flags) }))).pipe(
  Command.withDescription("A job's status and progress")
)
const jobLogs = Command.make("logs", { ...common, job: jobId }, (flags) => onSite(flags, runJobsLogs({ id: flags.job, mode: modeOf(flags) }))).pipe(
  Command.withDescription("The items a job could not move, and why (one JSON line each)")
)
const cancelJob = Command.make("cancel", { ...common, job: jobId, yes }, (flags) => onSite(flags, runJobsCancel({ id: flags.job, yes: flags.yes, mode: modeOf(flags) }))).pipe(
  Command.withDescription("Stop a running job (asks first); what it moved stays moved")
)

const jobsCommand = Command.make("jobs", common, (flags) => onSite(flags, runJobsList({ mode: modeOf(flags) }))).pipe(
  Command.withDescription("List the site's data movement jobs; submit one, get one, read its logs, or cancel it"),
  Command.withSubcommands([submitJob, getJob, jobLogs, cancelJob])
)

const typesCommand = Command.make(
  "types",
  {
    ...common,
    out: Flag.String("out").pipe(Flag.withAlias("o"), Flag.withDescription("The module to write"), Flag.withDefault("src/generated/collections.ts")),
    check: Flag.Boolean("check").pipe(Flag.withDescription("Write nothing; exit 1 with the differences when the file no longer matches the site"), Flag.withDefault(false)),
    collections: Flag.String("collections").pipe(Flag.withDescription("Only these collections, comma-separated"), Flag.optional)
  },
  (flags) =>
    withSite(flags, (connection) =>
      explained(
        runTypes({
          out: flags.out,
          check: flags.check,
          collections: Option.match(flags.collections, { onNone: () => [], onSome: (c) => c.split(",").map((x) => x.trim()).filter((x) => x !== "") }),
          site: connection.siteId ?? connection.baseUrl,
          mode: modeOf(flags)
        }),
        connection
      ))
).pipe(Command.withDescription("Write a TypeScript module with a Schema and a typed handle for each of the site's collections; --check for CI"))

export const data = Command.make("data").pipe(
  Command.withDescription("A site's data collections: export, import, remove, truncate, collections, indexes, sandbox, backups, jobs, types"),
  Command.withSubcommands([exportCommand, importCommand, removeCommand, truncateCommand, collectionsCommand, indexesCommand, sandboxCommand, backupsCommand, jobsCommand, typesCommand])
)
