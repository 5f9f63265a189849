/**
 * A site whose collections hold every kind of field the read types must get right: single and multi
 * references, required and optional, to another collection and to their own, and a field of every type.
 * test/types/generated/collections.ts is what `sitefx data types` writes for it (readTypes.test.ts holds
 * that it still is); `node test/types/site.ts` writes it again after the generator changes.
 */
import { writeFileSync } from "node:fs"
import { fileURLToPath } from "node:url"
import { generate } from "../../src/data/codegen/collections.ts"
import { FIELD_TYPES } from "../../src/data/protocol.ts"
import type { DataCollection } from "../../src/data/wire/index.ts"

const reference = (referencedCollectionId: string) => ({ typeMetadata: { reference: { referencedCollectionId } } })
const multiReference = (referencedCollectionId: string) => ({ typeMetadata: { multiReference: { referencedCollectionId } } })

export const SITE: ReadonlyArray<DataCollection> = [
  { id: "Authors", fields: [{ key: "name", type: "TEXT", required: true }, { key: "bio", type: "TEXT" }] },
  {
    id: "Posts",
    fields: [
      { key: "title", type: "TEXT", required: true },
      { key: "likes", type: "NUMBER" },
      { key: "author", type: "REFERENCE", ...reference("Authors") },
      { key: "editor", type: "REFERENCE", required: true, ...reference("Authors") },
      { key: "previous", type: "REFERENCE", ...reference("Posts") },
      { key: "related", type: "MULTI_REFERENCE", ...multiReference("Posts") },
      { key: "reviewers", type: "MULTI_REFERENCE", required: true, ...multiReference("Authors") }
    ]
  },
  {
    id: "every-type",
    fields: FIELD_TYPES.map((type, i) => ({
      key: `f ${type.toLowerCase()}`,
      type,
      required: i % 2 === 0,
      ...(type === "REFERENCE" ? reference("Posts") : type === "MULTI_REFERENCE" ? multiReference("every-type") : {})
    }))
  }
]

export const FIXTURE = fileURLToPath(new URL("generated/collections.ts", import.meta.url))

/** The module `sitefx data types` writes for the site (the header's time fixed, so it changes only with the generator). */
export const generated = (): string => generate(SITE, { site: "test/types/site.ts", readAt: new Date(Date.UTC(2026, 0, 1)) })

if (process.argv[1] === fileURLToPath(import.meta.url)) writeFileSync(FIXTURE, generated())
