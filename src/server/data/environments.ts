/**
 * Data environments on the local platform. A collection's items live in its LIVE environment; once its
 * sandbox is enabled, it also has a SANDBOX copy that calls reach with `environment: "SANDBOX"` (or
 * `"SANDBOX_PREFERRED"`, which falls back to LIVE where no sandbox is enabled). The two never see each
 * other's items.
 *
 * The engine keeps one collection definition (fields, permissions, indexes, hooks) and stores sandbox
 * items under a storage key of their own: the collection's id with {@link SANDBOX_MARK}, a character
 * that no collection id may hold. A sandboxed collection is the definition with that key as its id and
 * its reference fields pointing at the sandboxes of their targets (where enabled), so every storage
 * path (items, references, queries, bulk writes) keeps to its environment without knowing of it. What
 * leaves the engine (items on the wire, error messages) names the collection by its public id.
 */
import type { DataEnvironment } from "../../data/protocol.ts"
import type { CollectionField, DataCollection } from "../../data/wire/index.ts"

export type { DataEnvironment }

export const SANDBOX_MARK = "#sandbox"

export const sandboxKey = (id: string): string => `${id}${SANDBOX_MARK}`

export const isSandboxKey = (key: string): boolean => key.endsWith(SANDBOX_MARK)

/** The collection id a storage key stands for. */
export const publicId = (key: string): string => (isSandboxKey(key) ? key.slice(0, -SANDBOX_MARK.length) : key)

/** A collection as error messages name it: its id, and `(sandbox)` for its sandbox. */
export const describeCollection = (key: string): string => (isSandboxKey(key) ? `${publicId(key)} (sandbox)` : key)

/** `field` with its referenced collection replaced by `target(id)`. */
const retarget = (field: CollectionField, target: (id: string) => string): CollectionField => {
  const meta = field.typeMetadata
  if (meta?.reference !== undefined) {
    return { ...field, typeMetadata: { ...meta, reference: { ...meta.reference, referencedCollectionId: target(meta.reference.referencedCollectionId) } } }
  }
  if (meta?.multiReference !== undefined) {
    return {
      ...field,
      typeMetadata: { ...meta, multiReference: { ...meta.multiReference, referencedCollectionId: target(meta.multiReference.referencedCollectionId) } }
    }
  }
  return field
}

/**
 * The sandbox of `collection`: its definition under the sandbox storage key, its references aimed at
 * the sandboxes of their targets where `hasSandbox` says one is enabled, and at LIVE otherwise.
 */
export const sandboxed = (collection: DataCollection, hasSandbox: (id: string) => boolean): DataCollection => ({
  ...collection,
  id: sandboxKey(collection.id),
  ...(collection.fields === undefined ? {} : { fields: collection.fields.map((f) => retarget(f, (id) => (hasSandbox(id) ? sandboxKey(id) : id))) })
})
