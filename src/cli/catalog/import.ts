/**
 * `sitefx catalog import`: products from JSONL (the form `sitefx catalog export` writes), a few at a
 * time. Each line is checked before anything is written for it; a product is created with its
 * options, then gets its media, its variants' own values, its inventory and its collections. A line
 * that fails after its product was created has the product removed again, so a failed line leaves
 * nothing behind in create mode. `upsert` updates the product with the line's id (or slug) instead.
 *
 * An import of a file creates each product once however often it is stopped and run again. It keeps a
 * journal (see {@link Journal}) in the state folder: a line is marked before its product is created,
 * again with the product's id once created, and once it is done. Run again with the same file, the
 * import skips the lines done before; a product an earlier run created but did not finish (a kill, a
 * crash) is removed and made again whole, and one whose create was on its way when the run was killed
 * (its id never came back) is found by its slug, else its name, among the products created since that
 * line began. The journal is removed once every line is through. Ctrl-C lets the lines in flight finish
 * and exits 130; a second Ctrl-C quits at once. Standard input keeps no journal and cannot resume.
 */
import * as Cause from "effect/Cause"
import * as Data from "effect/Data"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import * as Result from "effect/Result"
import * as Stream from "effect/Stream"
import { appendFileSync, existsSync, readFileSync, statSync } from "node:fs"
import { basename, resolve } from "node:path"
import * as Collections from "../../catalog/Collections.ts"
import * as Inventory from "../../catalog/Inventory.ts"
import * as Products from "../../catalog/Products.ts"
import { PlatformAuth } from "../../http/PlatformAuth.ts"
import { PlatformConfig } from "../../http/PlatformConfig.ts"
import { automaticCheckpointFile, commandLine, ensureFolderOf, lockCheckpoint, removeCheckpoint } from "../data/checkpoint.ts"
import { CliFailure, ExitCode, failed, type OutputMode, printResult, usage, withProgress } from "../output.ts"
import { countRecords, readLines, writeJsonFile } from "../files.ts"
import { stopOnSignals } from "../signals.ts"
import { checkLine, choicesKey, type ProductLine } from "./line.ts"
import { chunks, collectionIndex, isNotFound, itemReason } from "./store.ts"

export type ImportMode = "create" | "upsert"

export interface ImportOptions {
  readonly file: string
  readonly importMode: ImportMode
  readonly dryRun: boolean
  readonly report: string | undefined
  readonly concurrency: number
  readonly mode: OutputMode
  /** Keep a journal, so that a run again after a stop creates nothing twice (default true; never for stdin). */
  readonly checkpoint?: boolean
  /** The site written to, part of what names the journal (default: the client's host and site id). */
  readonly site?: { readonly baseUrl: string; readonly siteId?: string | undefined }
}

export interface LineFailureReport {
  readonly line: number
  readonly name?: string
  readonly reason: string
}

export interface ImportReport {
  readonly file: string
  readonly mode: ImportMode
  readonly dryRun: boolean
  /** Lines that hold something (blank lines are passed over), done by this run or an earlier one. */
  readonly lines: number
  readonly created: number
  readonly updated: number
  readonly failed: ReadonlyArray<LineFailureReport>
  /** Stopped (Ctrl-C) before every line was through. */
  readonly interrupted: boolean
  /** What earlier runs of this import did (their lines are in the counts above and were not sent again). */
  readonly earlier: { readonly lines: number; readonly created: number; readonly updated: number } | null
  /** Products an earlier run had begun and not finished: removed, and their lines made again. */
  readonly remade: ReadonlyArray<{ readonly line: number; readonly id: string }>
  /** The journal that is kept for a resume (null when none is kept). */
  readonly checkpoint: string | null
}

type Outcome =
  | { readonly _tag: "created"; readonly line: number }
  | { readonly _tag: "updated"; readonly line: number }
  /** Not begun: the import was asked to stop first. */
  | { readonly _tag: "notStarted"; readonly line: number }
  | {
    readonly _tag: "failed"
    readonly line: number
    readonly name?: string | undefined
    readonly reason: string
    /** The store already has the product (create mode met its slug): `--mode upsert` is the remedy. */
    readonly exists?: boolean
  }

/** A step of a line's writes that failed, with what it was doing. */
class StepFailure extends Data.TaggedError("StepFailure")<{
  readonly step: string
  readonly cause: unknown
  /** The product the line created was removed again. */
  readonly removed?: boolean
}> {}

const step = <A, E, R>(name: string, effect: Effect.Effect<A, E, R>) => Effect.mapError(effect, (cause) => new StepFailure({ step: name, cause }))

/** What a create or an update sends for a line: the product's own fields and its options. */
const productInput = (line: ProductLine): Products.ProductInput => {
  const input: Record<string, unknown> = {
    name: line.name,
    slug: line.slug,
    description: line.description,
    visible: line.visible,
    productType: line.productType,
    sku: line.sku,
    weight: line.weight,
    priceData: line.price === undefined ? undefined : { price: line.price },
    costAndProfitData: line.cost === undefined ? undefined : { itemCost: line.cost },
    discount: line.discount,
    ribbon: line.ribbon,
    brand: line.brand,
    manageVariants: line.manageVariants,
    productOptions: line.options?.map((o) => ({
      name: o.name,
      optionType: o.type ?? "drop_down",
      choices: o.choices.map((c) => ({ value: c.value, description: c.description }))
    })),
    additionalInfoSections: line.additionalInfoSections,
    customTextFields: line.customTextFields,
    stock: line.inventory === undefined ? undefined : { trackInventory: line.inventory.trackQuantity }
  }
  return Object.fromEntries(Object.entries(input).filter(([, v]) => v !== undefined)) as Products.ProductInput
}

/**
 * The variants' own values. A value equal to the product's is left out unless the product manages its
 * variants (saying a variant's price makes the platform manage them); visibility is said when it hides
 * a variant, or on an update (a variant hidden before shows again).
 */
const variantOverrides = (line: ProductLine, updating: boolean): Array<Products.VariantOverride> =>
  (line.variants ?? []).flatMap((v) => {
    const managed = line.manageVariants === true
    const own = (key: "price" | "cost" | "weight" | "sku") => {
      const value: unknown = v[key]
      return value !== undefined && (managed || value !== line[key]) ? { [key]: value } : {}
    }
    const override = {
      ...own("price"),
      ...own("cost"),
      ...own("weight"),
      ...own("sku"),
      ...(v.visible !== undefined && (updating || v.visible === false) ? { visible: v.visible } : {})
    }
    return Object.keys(override).length === 0 ? [] : [{ choices: v.choices, ...override }]
  })

/** The inventory a line sets: whether quantities are tracked, and each variant's quantity or in-stock flag. */
const inventoryUpdate = (line: ProductLine, variantIds: ReadonlyMap<string, string>): Inventory.InventoryUpdate | undefined => {
  const tracked = line.inventory?.trackQuantity ?? (line.variants ?? []).some((v) => v.stock?.quantity !== undefined)
  const variants = (line.variants ?? []).flatMap((v): Array<{ variantId: string; quantity?: number; inStock?: boolean }> => {
    const variantId = variantIds.get(choicesKey(v.choices))
    const stock = v.stock
    if (variantId === undefined || stock === undefined) return []
    if (tracked && stock.quantity !== undefined) return [{ variantId, quantity: stock.quantity }]
    if (stock.inStock !== undefined) return [{ variantId, inStock: stock.inStock }]
    return stock.quantity === undefined ? [] : [{ variantId, inStock: stock.quantity > 0 }]
  })
  if (line.inventory === undefined && variants.length === 0) return undefined
  return { trackQuantity: tracked, ...(variants.length === 0 ? {} : { variants }) }
}

/** The product a line names in the store: by id, else by slug. */
const findExisting = (line: ProductLine) =>
  Effect.gen(function*() {
    if (line.id !== undefined && line.id !== "") {
      const byId = yield* Products.get(line.id).pipe(Effect.catchIf(isNotFound, () => Effect.succeed(undefined)))
      if (byId?.id != null) return byId
    }
    if (line.slug !== undefined && line.slug !== "") {
      const page = yield* Products.query().eq("slug", line.slug).limit(1).find
      const bySlug = page.items[0]
      if (bySlug?.id != null) return bySlug
    }
    return undefined
  })

/** One record of a journal: a line's create begun (`s`, the time), its product created (`c`), removed again (`r`), the line done (`d`). */
type JournalRecord =
  | { readonly l: number; readonly s: number }
  | { readonly l: number; readonly c: string }
  | { readonly l: number; readonly r: string }
  | { readonly l: number; readonly d: "created" | "updated"; readonly id: string }

/** Where a line stood when an earlier run ended. */
type LineState =
  | { readonly _tag: "begun"; readonly at: number }
  | { readonly _tag: "created"; readonly id: string }
  | { readonly _tag: "done"; readonly outcome: "created" | "updated"; readonly id: string }

/** What identifies an import's input and its kind, in the journal's first line. */
interface JournalHead {
  readonly journal: "sitefx catalog import"
  readonly version: 1
  readonly site: string
  readonly file: string
  readonly size: number
  readonly mtimeMs: number
  readonly mode: ImportMode
  readonly startedAt: string
}

/**
 * An import's journal: JSON lines appended as the import goes (an append that a kill cuts short is a
 * torn last line, passed over when read), so it is as current as the writes themselves.
 */
interface Journal {
  readonly file: string
  readonly mark: (record: JournalRecord) => void
  /** Where each line stood when the earlier runs ended (lines they never reached are not in it). */
  readonly earlier: ReadonlyMap<number, LineState>
  /** The products lines of this import own (made or updated by it): none of them is another line's. */
  readonly claimed: Set<string>
}

/** How long before a line's create began a product found for it may have been made (clocks differ a little). */
const CLOCK_ALLOWANCE_MS = 2 * 60 * 1000

const readJournal = (file: string): { head: JournalHead | undefined; states: Map<number, LineState>; claimed: Set<string> } => {
  const states = new Map<number, LineState>()
  const claimed = new Set<string>()
  if (!existsSync(file)) return { head: undefined, states, claimed }
  const [first, ...rest] = readFileSync(file, "utf8").split("\n")
  let head: JournalHead | undefined
  try {
    const parsed = JSON.parse(first ?? "") as Partial<JournalHead>
    if (parsed.journal === "sitefx catalog import" && parsed.version === 1) head = parsed as JournalHead
  } catch {
    head = undefined
  }
  for (const text of rest) {
    if (text.trim() === "") continue
    let r: Record<string, unknown>
    try {
      r = JSON.parse(text) as Record<string, unknown>
    } catch {
      continue // torn by a kill mid-append
    }
    const l = r["l"]
    if (typeof l !== "number") continue
    if (typeof r["s"] === "number") states.set(l, { _tag: "begun", at: r["s"] })
    else if (typeof r["c"] === "string") {
      states.set(l, { _tag: "created", id: r["c"] })
      claimed.add(r["c"])
    } else if (typeof r["r"] === "string") states.delete(l)
    else if ((r["d"] === "created" || r["d"] === "updated") && typeof r["id"] === "string") {
      states.set(l, { _tag: "done", outcome: r["d"], id: r["id"] })
      claimed.add(r["id"])
    }
  }
  return { head, states, claimed }
}

/** Why a journal cannot go on for this import, or undefined when it can. */
const journalMismatch = (head: JournalHead, now: Omit<JournalHead, "startedAt" | "journal" | "version">): string | undefined => {
  if (head.site !== now.site) return `it belongs to an import into ${head.site}`
  if (head.mode !== now.mode) return `it belongs to an import with --mode ${head.mode}`
  if (head.file !== now.file) return `it belongs to an import of ${head.file}`
  if (head.size !== now.size || head.mtimeMs !== now.mtimeMs) return `${now.file} changed since the import began`
  return undefined
}

/** Creates (or updates) a line's product and everything it carries; returns what it did and the product's id. */
const writeLine = (n: number, line: ProductLine, existing: Products.Product | undefined, collectionIds: ReadonlyArray<string>, journal: Journal | undefined) =>
  Effect.gen(function*() {
    const updating = existing !== undefined
    // marked before it is sent: if the run dies before the answer, the next one looks for the product
    if (!updating) journal?.mark({ l: n, s: Date.now() })
    const written = updating
      ? yield* step("updating the product", Products.update(existing.id!, productInput(line)))
      : yield* step("creating the product", Products.create(productInput(line)))
    const id = written.id
    if (id == null) return yield* new StepFailure({ step: "creating the product", cause: new Error("the platform answered a product without an id") })
    if (!updating) {
      journal?.claimed.add(id)
      journal?.mark({ l: n, c: id })
    }

    const rest = Effect.gen(function*() {
      // media first: choices can only show media the product has
      const had = new Set((existing?.media?.items ?? []).flatMap((m) => [m.id, m.image?.url].filter((x): x is string => x != null)))
      const media = (line.media ?? [])
        .filter((m) => !(m.mediaId !== undefined && had.has(m.mediaId)) && !(m.mediaId === undefined && m.url !== undefined && had.has(m.url)))
        .map((m): Products.MediaInput => (m.mediaId !== undefined ? { mediaId: m.mediaId } : { url: m.url! }))
      for (const part of chunks(media, 100)) yield* step("adding media", Products.addMedia(id, part))
      const choiceMedia = (line.options ?? []).flatMap((o) =>
        o.choices.flatMap((c) => (c.media === undefined || c.media.length === 0 ? [] : [{ option: o.name, choice: c.description ?? c.value ?? "", mediaIds: c.media }]))
      )
      for (const part of chunks(choiceMedia, 100)) yield* step("adding choice media", Products.addMediaToChoices(id, part))

      const overrides = variantOverrides(line, updating)
      const variants = overrides.length > 0
        ? yield* step("setting variants", Products.updateVariants(id, overrides))
        : written.variants ?? (yield* step("reading variants", Products.variants(id))).variants
      const variantIds = new Map(variants.flatMap((v) => (v.id == null ? [] : [[choicesKey(v.choices ?? {}), v.id] as const])))
      const inventory = inventoryUpdate(line, variantIds)
      if (inventory !== undefined) yield* step("setting inventory", Inventory.update(id, inventory))

      const inAlready = new Set(existing?.collectionIds ?? [])
      for (const collectionId of collectionIds) {
        if (!inAlready.has(collectionId)) yield* step("adding to collections", Collections.addProducts(collectionId, [id]))
      }
    })
    // a new product that could not be completed (or was interrupted) goes again: a failed line leaves nothing
    yield* updating ? rest : rest.pipe(
      Effect.onError(() =>
        Products.remove(id).pipe(
          Effect.tap(() => Effect.sync(() => journal?.mark({ l: n, r: id }))),
          Effect.ignore
        )
      ),
      Effect.mapError((f) => new StepFailure({ step: f.step, cause: f.cause, removed: true }))
    )
    const done = updating ? ("updated" as const) : ("created" as const)
    journal?.mark({ l: n, d: done, id })
    return done
  })

/** Checks, then writes (or with `dryRun` only looks up) one line. Fails only when the whole import must stop. */
const importLine = (n: number, text: string, options: ImportOptions, idBySlug: ReadonlyMap<string, string>, journal: Journal | undefined) =>
  Effect.gen(function*() {
    const checked = checkLine(text)
    if (Result.isFailure(checked)) return { _tag: "failed", line: n, name: nameOf(text), reason: checked.failure } satisfies Outcome
    const line = checked.success
    const name = line.name
    const unknown = (line.collections ?? []).find((slug) => !idBySlug.has(slug))
    if (unknown !== undefined) {
      return { _tag: "failed", line: n, name, reason: `collections: the store has no collection with slug "${unknown}"` } satisfies Outcome
    }
    const collectionIds = (line.collections ?? []).map((slug) => idBySlug.get(slug)!)
    const existing = options.importMode === "upsert" ? yield* step("looking the product up", findExisting(line)) : undefined
    const done = options.dryRun ? (existing === undefined ? "created" : "updated") : yield* writeLine(n, line, existing, collectionIds, journal)
    return (done === "created" ? { _tag: "created", line: n } : { _tag: "updated", line: n }) satisfies Outcome
  }).pipe(
    Effect.catchTag("StepFailure", (f) =>
      Effect.map(itemReason(f.cause), (reason): Outcome => {
        const exists = options.importMode === "create" && reason.includes("SLUG_ALREADY_EXISTS")
        const removed = f.removed === true ? "; the product was removed again" : ""
        return { _tag: "failed", line: n, name: nameOf(text), reason: `${f.step}: ${reason}${removed}`, exists }
      }))
  )

const nameOf = (text: string): string | undefined => {
  try {
    const name = (JSON.parse(text) as { name?: unknown }).name
    return typeof name === "string" ? name : undefined
  } catch {
    return undefined
  }
}

const createdAt = (p: Products.Product): number => {
  const at = p.createdDate
  return at == null ? Number.NaN : new Date(at).getTime()
}

/**
 * The product an earlier run's create made for a line whose answer it never had (killed on the way):
 * by the line's slug (unique in a store), else by its name, made no earlier than just before the line
 * began, and no other line's.
 */
const findBegun = (line: ProductLine, at: number, claimed: ReadonlySet<string>) =>
  Effect.gen(function*() {
    const query = Products.query({ includeHiddenProducts: true })
    const page = line.slug !== undefined && line.slug !== "" ? yield* query.eq("slug", line.slug).limit(100).find : yield* query.eq("name", line.name).limit(100).find
    return page.items.find((p) => p.id != null && !claimed.has(p.id) && createdAt(p) >= at - CLOCK_ALLOWANCE_MS)
  })

/**
 * Lines an earlier run began and did not finish: the product it made (by the id it had, or found) is
 * removed, so that the line is made again, whole, once. Sequential, before any line is written: a
 * product this run makes is never taken for an earlier run's.
 */
const remakeBegun = (file: string, journal: Journal) =>
  Effect.gen(function*() {
    const open = new Map([...journal.earlier].filter(([, s]) => s._tag !== "done"))
    const remade: Array<{ line: number; id: string }> = []
    if (open.size === 0) return remade
    const texts = new Map<number, string>()
    yield* readLines(file).pipe(Stream.runForEach((l) => Effect.sync(() => {
      if (open.has(l.n)) texts.set(l.n, l.text)
    })))
    for (const [n, state] of open) {
      const checked = checkLine(texts.get(n) ?? "")
      let id: string | undefined
      if (state._tag === "created") id = state.id
      else if (state._tag === "begun" && Result.isSuccess(checked)) {
        id = (yield* findBegun(checked.success, state.at, journal.claimed).pipe(Effect.catch((error) => Effect.flatMap(itemReason(error), () => Effect.succeed(undefined)))))?.id ?? undefined
      }
      if (id === undefined) continue
      journal.claimed.add(id)
      const gone = yield* Products.remove(id).pipe(
        Effect.as(true),
        Effect.catchIf(isNotFound, () => Effect.succeed(false)),
        Effect.catch((error) => Effect.flatMap(itemReason(error), () => Effect.succeed(false)))
      )
      journal.mark({ l: n, r: id })
      if (gone) remade.push({ line: n, id })
    }
    return remade.sort((a, b) => a.line - b.line)
  })

const describe = (report: ImportReport, total: number | undefined, journal: Journal | undefined, stdin: boolean): string => {
  const would = report.dryRun ? "would be " : ""
  const counts = `${report.created} ${would}created, ${report.updated} ${would}updated, ${report.failed.length} failed`
  const head = report.interrupted
    ? `interrupted after ${report.lines}${total === undefined ? "" : ` of ${total}`} line${report.lines === 1 ? "" : "s"}: ${counts}`
    : `${report.dryRun ? "checked" : "imported"} ${report.lines} line${report.lines === 1 ? "" : "s"}: ${counts}`
  const earlier = report.earlier === null
    ? []
    : [`  resumed: ${report.earlier.lines} of these lines were done by an earlier run (${report.earlier.created} created, ${report.earlier.updated} updated) and were not sent again`]
  const remade = report.remade.map((r) => `  line ${r.line}: the product an earlier run had begun and not finished (${r.id}) was removed and made again`)
  const failures = report.failed.map((f) => `  line ${f.line}${f.name === undefined ? "" : ` (${f.name})`}: ${f.reason}`)
  const resume = !report.interrupted
    ? []
    : journal !== undefined
    ? [`  the checkpoint is ${journal.file}; to resume, run the same command again: ${commandLine()}`]
    : stdin
    ? ["  an import of standard input keeps no checkpoint and cannot resume: run again, it starts from the first line, and lines without a slug make their products a second time"]
    : ["  no checkpoint was kept: run again, it starts from the first line"]
  return [head, ...earlier, ...remade, ...failures, ...resume].join("\n")
}

/** Takes over Ctrl-C and SIGTERM: the first lets the lines in flight finish, the second quits at once. */
const stopOnSignal = (journal: Journal | undefined, stdin: boolean, release: () => void) => {
  const resume = journal !== undefined
    ? `to resume, run the same command again: ${commandLine()}`
    : stdin
    ? "an import of standard input keeps no checkpoint and cannot resume"
    : "no checkpoint is kept, so it cannot resume"
  return stopOnSignals({
    stopping: () => `the lines in flight finish (Ctrl-C again quits at once); ${resume}`,
    beforeQuit: release,
    quitting: () => `${journal === undefined ? "" : `the checkpoint ${journal.file} holds every line so far; `}${resume}`
  })
}

/** The site the client writes to: its host and site id (what names the journal). */
const currentSite = Effect.gen(function*() {
  const config = yield* Effect.serviceOption(PlatformConfig)
  const auth = yield* Effect.serviceOption(PlatformAuth)
  const headers = Option.isSome(auth) ? yield* Effect.orElseSucceed(auth.value.headers, () => ({} as Readonly<Record<string, string>>)) : {}
  return { baseUrl: Option.isSome(config) ? config.value.apiUrl : "", siteId: headers["wix-site-id"] }
})

/** Opens (or makes) the import's journal; undefined when none is kept. */
const openJournal = (options: ImportOptions) =>
  Effect.gen(function*() {
    if (options.dryRun || options.file === "-" || options.checkpoint === false) return undefined
    const site = options.site ?? (yield* currentSite)
    const path = resolve(options.file)
    const stat = statSync(path)
    const file = automaticCheckpointFile("catalog-imports", basename(path), { site: site.baseUrl, siteId: site.siteId ?? null, file: path }, "jsonl")
    const lock = yield* Effect.try({
      try: () => {
        ensureFolderOf(file)
        return lockCheckpoint(file)
      },
      catch: (error) => usage(`cannot keep the checkpoint ${file} (${(error as Error).message}); SITEFX_STATE_DIR names another folder for it`)
    })
    if (lock._tag === "Held") {
      return yield* usage(`another sitefx (process ${lock.pid}) is running this import, with the checkpoint ${file}; wait for it to end or stop it (if no such import runs, delete ${lock.file})`)
    }
    yield* Effect.addFinalizer(() => Effect.sync(lock.release))
    const identity = { site: site.baseUrl + (site.siteId === undefined ? "" : ` (site ${site.siteId})`), file: path, size: stat.size, mtimeMs: Math.floor(stat.mtimeMs), mode: options.importMode }
    const { head, states, claimed } = readJournal(file)
    if (existsSync(file)) {
      if (head === undefined) return yield* usage(`cannot use the checkpoint ${file}: it is not a sitefx catalog import checkpoint; delete it to start over`)
      const problem = journalMismatch(head, identity)
      if (problem !== undefined) {
        return yield* usage(
          `an unfinished import left the checkpoint ${file}, and it does not fit this one: ${problem}; run that import as it was started to finish it, or delete ${file} to start over (lines without a slug it created would then be created again)`
        )
      }
    } else {
      const first: JournalHead = { journal: "sitefx catalog import", version: 1, ...identity, startedAt: new Date().toISOString() }
      appendFileSync(file, `${JSON.stringify(first)}\n`)
    }
    return {
      file,
      mark: (record: JournalRecord) => appendFileSync(file, `${JSON.stringify(record)}\n`),
      earlier: states,
      claimed,
      release: lock.release
    } satisfies Journal & { release: () => void }
  })

export const importProducts = (options: ImportOptions) =>
  Effect.scoped(Effect.gen(function*() {
    const total = countRecords(options.file, "lines")
    const { idBySlug } = yield* collectionIndex
    const journal = yield* openJournal(options)
    const stdin = options.file === "-"
    const { stop } = yield* stopOnSignal(journal, stdin, journal?.release ?? (() => undefined))
    let created = 0
    let updated = 0
    let lines = 0
    let existing = 0
    let cut = false
    const earlier = { lines: 0, created: 0, updated: 0 }
    for (const state of journal?.earlier.values() ?? []) {
      if (state._tag !== "done") continue
      earlier.lines++
      if (state.outcome === "created") earlier.created++
      else earlier.updated++
    }
    const remade = journal === undefined ? [] : yield* remakeBegun(options.file, journal)
    const failures: Array<LineFailureReport> = []
    const report = (): ImportReport => ({
      file: options.file,
      mode: options.importMode,
      dryRun: options.dryRun,
      lines: earlier.lines + lines,
      created: earlier.created + created,
      updated: earlier.updated + updated,
      failed: [...failures].sort((a, b) => a.line - b.line),
      interrupted: cut,
      earlier: earlier.lines === 0 ? null : earlier,
      remade,
      checkpoint: journal === undefined || !cut ? null : journal.file
    })
    const label = options.dryRun ? "check" : "import"
    const doneBefore = (n: number) => journal?.earlier.get(n)?._tag === "done"

    yield* withProgress(options.mode, label, "lines", total, (progress) =>
      readLines(options.file).pipe(
        Stream.filter((l) => l.text.trim() !== ""),
        // lines done by an earlier run are counted there
        Stream.filter((l) => !doneBefore(l.n)),
        Stream.takeWhile(() => {
          if (stop.requested) cut = true
          return !stop.requested
        }),
        Stream.mapEffect(
          (l) =>
            // asked to stop while it waited its turn: it is not begun
            stop.requested ? Effect.succeed<Outcome>({ _tag: "notStarted", line: l.n }) : importLine(l.n, l.text, options, idBySlug, journal),
          { concurrency: options.concurrency, unordered: true }
        ),
        Stream.runForEach((outcome: Outcome) =>
          Effect.sync(() => {
            if (outcome._tag === "notStarted") {
              cut = true
              return
            }
            lines++
            if (outcome._tag === "created") created++
            else if (outcome._tag === "updated") updated++
            else {
              failures.push({ line: outcome.line, ...(outcome.name === undefined ? {} : { name: outcome.name }), reason: outcome.reason })
              if (outcome.exists === true) existing++
            }
            progress.update(earlier.lines + lines)
          })
        )
      )).pipe(
        // stopped part way (the platform gone, the key refused): say what was done, and how to go on
        Effect.catchCause((cause) =>
          Effect.gen(function*() {
            if (Cause.hasInterruptsOnly(cause)) process.exitCode = ExitCode.interrupted
            if (options.report !== undefined) yield* Effect.ignore(writeJsonFile(options.report, { ...report(), checkpoint: journal?.file ?? null, stopped: true }))
            const done = `${earlier.lines + lines} lines were through (${earlier.created + created} created, ${earlier.updated + updated} updated, ${failures.length} failed)`
            const resume = journal !== undefined
              ? `the checkpoint ${journal.file} keeps them: once that is fixed, run the same command again to resume (${commandLine()})`
              : stdin
              ? "an import of standard input keeps no checkpoint and cannot resume"
              : "no checkpoint was kept"
            const error = Cause.squash(cause)
            if (error instanceof CliFailure) return yield* new CliFailure({ message: `${error.message}; ${done}; ${resume}`, exitCode: error.exitCode })
            return yield* Effect.failCause(cause)
          })
        )
      )

    const final = report()
    // every line is through: the journal has done its work
    if (journal !== undefined && !cut) removeCheckpoint(journal.file)
    if (options.report !== undefined) yield* writeJsonFile(options.report, final)
    yield* printResult(options.mode, final, describe(final, total, journal, stdin))
    if (cut) {
      process.exitCode = ExitCode.interrupted
      return
    }
    if (final.failed.length > 0) {
      // said once for the whole file: importing an export into the store it came from fails every line alike
      const hint = existing === 0
        ? ""
        : `; ${existing === final.failed.length ? (existing === 1 ? "it is" : "all are") : `${existing} are`} products the store already has (slug taken): --mode upsert updates them`
      return yield* failed(`${final.failed.length} of ${final.lines} lines failed${hint}${options.report === undefined ? "" : `; the report is in ${options.report}`}`)
    }
  }))
