/**
 * `sitefx catalog import`: products from JSONL (the form `sitefx catalog export` writes), a few at a
 * time. Each line is checked before anything is written for it; a product is created with its
 * options, then gets its media, its variants' own values, its inventory and its collections. A line
 * that fails after its product was created has the product removed again, so a failed line leaves
 * nothing behind in create mode. `upsert` updates the product with the line's id (or slug) instead.
 */
import * as Cause from "effect/Cause"
import * as Data from "effect/Data"
import * as Effect from "effect/Effect"
import * as Result from "effect/Result"
import * as Stream from "effect/Stream"
import * as Collections from "../../catalog/Collections.ts"
import * as Inventory from "../../catalog/Inventory.ts"
import * as Products from "../../catalog/Products.ts"
import { ExitCode, failed, note, type OutputMode, printResult, withProgress } from "../output.ts"
import { countRecords, readLines, writeJsonFile } from "../files.ts"
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
  /** Lines that hold something (blank lines are passed over). */
  readonly lines: number
  readonly created: number
  readonly updated: number
  readonly failed: ReadonlyArray<LineFailureReport>
}

type Outcome =
  | { readonly _tag: "created"; readonly line: number }
  | { readonly _tag: "updated"; readonly line: number }
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

/** Creates (or updates) a line's product and everything it carries; returns what it did. */
const writeLine = (line: ProductLine, existing: Products.Product | undefined, collectionIds: ReadonlyArray<string>) =>
  Effect.gen(function*() {
    const updating = existing !== undefined
    const written = updating
      ? yield* step("updating the product", Products.update(existing.id!, productInput(line)))
      : yield* step("creating the product", Products.create(productInput(line)))
    const id = written.id
    if (id == null) return yield* new StepFailure({ step: "creating the product", cause: new Error("the platform answered a product without an id") })

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
      Effect.onError(() => Effect.ignore(Products.remove(id))),
      Effect.mapError((f) => new StepFailure({ step: f.step, cause: f.cause, removed: true }))
    )
    return updating ? ("updated" as const) : ("created" as const)
  })

/** Checks, then writes (or with `dryRun` only looks up) one line. Fails only when the whole import must stop. */
const importLine = (n: number, text: string, options: ImportOptions, idBySlug: ReadonlyMap<string, string>) =>
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
    const done = options.dryRun ? (existing === undefined ? "created" : "updated") : yield* writeLine(line, existing, collectionIds)
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

const describe = (report: ImportReport): string => {
  const would = report.dryRun ? "would be " : ""
  const head = `${report.dryRun ? "checked" : "imported"} ${report.lines} line${report.lines === 1 ? "" : "s"}: ${report.created} ${would}created, ${report.updated} ${would}updated, ${report.failed.length} failed`
  const failures = report.failed.map((f) => `  line ${f.line}${f.name === undefined ? "" : ` (${f.name})`}: ${f.reason}`)
  return [head, ...failures].join("\n")
}

export const importProducts = (options: ImportOptions) =>
  Effect.gen(function*() {
    const total = countRecords(options.file, "lines")
    const { idBySlug } = yield* collectionIndex
    let created = 0
    let updated = 0
    let lines = 0
    let existing = 0
    const failures: Array<LineFailureReport> = []
    const report = (): ImportReport => ({
      file: options.file,
      mode: options.importMode,
      dryRun: options.dryRun,
      lines,
      created,
      updated,
      failed: [...failures].sort((a, b) => a.line - b.line)
    })
    const label = options.dryRun ? "check" : "import"

    yield* withProgress(options.mode, label, "lines", total, (progress) =>
      readLines(options.file).pipe(
        Stream.filter((l) => l.text.trim() !== ""),
        Stream.mapEffect((l) => importLine(l.n, l.text, options, idBySlug), { concurrency: options.concurrency, unordered: true }),
        Stream.runForEach((outcome: Outcome) =>
          Effect.sync(() => {
            lines++
            if (outcome._tag === "created") created++
            else if (outcome._tag === "updated") updated++
            else {
              failures.push({ line: outcome.line, ...(outcome.name === undefined ? {} : { name: outcome.name }), reason: outcome.reason })
              if (outcome.exists === true) existing++
            }
            progress.update(lines)
          })
        )
      )).pipe(
        // stopped part way (the platform gone, Ctrl-C): say what was done, and keep the report
        Effect.onError((cause) =>
          Effect.gen(function*() {
            if (Cause.hasInterruptsOnly(cause)) process.exitCode = ExitCode.interrupted
            yield* note(options.mode, `import stopped after ${lines} lines: ${created} created, ${updated} updated, ${failures.length} failed`)
            if (options.report !== undefined) yield* Effect.ignore(writeJsonFile(options.report, { ...report(), stopped: true }))
          })
        )
      )

    const final = report()
    if (options.report !== undefined) yield* writeJsonFile(options.report, final)
    yield* printResult(options.mode, final, describe(final))
    if (final.failed.length > 0) {
      // said once for the whole file: importing an export into the store it came from fails every line alike
      const hint = existing === 0
        ? ""
        : `; ${existing === final.failed.length ? (existing === 1 ? "it is" : "all are") : `${existing} are`} products the store already has (slug taken): --mode upsert updates them`
      return yield* failed(`${final.failed.length} of ${final.lines} lines failed${hint}${options.report === undefined ? "" : `; the report is in ${options.report}`}`)
    }
  })
