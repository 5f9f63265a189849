/**
 * What the catalog batch jobs share: collections by slug (a slug the store does not have is a usage
 * error naming it), the store's collections as a slug index, a failed call as one line, and lists cut
 * to what one call takes.
 */
import * as Effect from "effect/Effect"
import * as Stream from "effect/Stream"
import { CatalogCodes, CatalogError } from "../../catalog/CatalogError.ts"
import * as Collections from "../../catalog/Collections.ts"
import { explain, stopsTheCommand } from "../failures.ts"
import { type CliFailure, usage } from "../output.ts"

/** A CatalogError saying there is no such thing. */
export const isNotFound = (error: unknown): boolean =>
  error instanceof CatalogError &&
  (error.code === CatalogCodes.productNotFound || error.code === CatalogCodes.collectionNotFound || error.code === CatalogCodes.notFound)

/** Every collection of the store, by id and by slug ("All Products" left out: every product is in it). */
export const collectionIndex = Collections.query().stream.pipe(
  Stream.runFold(
    () => ({ slugById: new Map<string, string>(), idBySlug: new Map<string, string>() }),
    (index, c) => {
      if (c.id != null && c.slug != null && c.id !== Collections.ALL_PRODUCTS_COLLECTION_ID) {
        index.slugById.set(c.id, c.slug)
        index.idBySlug.set(c.slug, c.id)
      }
      return index
    }
  )
)

/** The id of the collection with this slug; a usage error naming the slug when the store has none. */
export const collectionIdBySlug = (slug: string) =>
  Collections.bySlug(slug).pipe(
    Effect.catchIf(isNotFound, () =>
      Effect.flatMap(collectionIndex, ({ idBySlug }) => {
        const known = [...idBySlug.keys()].sort()
        const some = known.length > 20 ? `${known.slice(0, 20).join(", ")}, ...` : known.join(", ")
        return Effect.fail(usage(`the store has no collection with slug "${slug}"${known.length === 0 ? "" : `; its collections: ${some}`}`))
      })),
    Effect.flatMap((collection) =>
      collection.id == null ? Effect.fail(usage(`the platform answered collection "${slug}" without an id`)) : Effect.succeed(collection.id))
  )

/**
 * A failed call of one item as one line, or, when the failure is not the item's but the command's
 * (the platform unreachable, the key refused), the failure that stops the command.
 */
export const itemReason = (error: unknown): Effect.Effect<string, CliFailure> => {
  const explained = explain(error)
  return stopsTheCommand(error) ? Effect.fail(explained) : Effect.succeed(oneLine(explained.message))
}

/** A platform message with its field violations on one line. */
export const oneLine = (text: string): string => {
  const parts = text.split(/\r?\n/).map((s) => s.trim()).filter((s) => s !== "")
  // a field violation that repeats the message under the field's name says nothing new
  const said = (part: string) => part.slice(part.indexOf(": ") + 2)
  return parts.filter((part, i) => !parts.slice(0, i).some((before) => said(before) === said(part))).join("; ")
}

/** A list in parts of at most `size` (what one bulk call takes). */
export const chunks = <A>(list: ReadonlyArray<A>, size: number): Array<ReadonlyArray<A>> =>
  Array.from({ length: Math.ceil(list.length / size) }, (_, i) => list.slice(i * size, (i + 1) * size))
