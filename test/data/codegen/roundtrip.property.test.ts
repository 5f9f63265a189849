/**
 * `sitefx data types` over random sites: for random collection definitions (any field types, keys
 * that are not identifiers, references between the collections and to themselves, required or not),
 * the generated modules type-check, all in one compiler run, and each collection's Schema decodes
 * random items of its fields and encodes them back unchanged.
 */
import { assert, it } from "@effect/vitest"
import { execFileSync } from "node:child_process"
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs"
import { join } from "node:path"
import { pathToFileURL } from "node:url"
import * as fc from "fast-check"
import * as Schema from "effect/Schema"
import { generate, typeName } from "../../../src/data/codegen/collections.ts"
import { FIELD_TYPES } from "../../../src/data/protocol.ts"
import type { CollectionField, DataCollection } from "../../../src/data/wire/index.ts"

const repo = new URL("../../../", import.meta.url)
/** A folder under the repository's .tmp (where `effect` resolves, and no type check of the project looks); removed by the test. */
const tempInRepo = () => {
  mkdirSync(new URL(".tmp/", repo).pathname, { recursive: true })
  return mkdtempSync(join(new URL(".tmp/", repo).pathname, "codegen-"))
}
const RUNS = 12

/** Keys a site may give a field: words, spaces, dashes, digits first, unicode; never a system field's, a path or a prototype's name. */
const fieldKey = fc.oneof(
  fc.stringMatching(/^[a-z][a-zA-Z0-9]{0,8}$/),
  fc.stringMatching(/^[a-z0-9][a-z0-9 _-]{0,8}$/),
  fc.constantFrom("prix €", "größe", "2nd", "with space", "class", "default")
).filter((k) => k.trim() !== "" && !k.startsWith("_") && !["__proto__", "constructor", "prototype"].includes(k))

const collectionId = fc.oneof(fc.stringMatching(/^[A-Z][a-zA-Z0-9]{0,10}$/), fc.stringMatching(/^[a-z][a-z0-9-]{0,10}$/), fc.constantFrom("2024 sales", "my/posts", "Schema"))

/** A site: 1 to 3 collections with distinct ids, each with up to 8 fields whose references name collections of the site. */
const site = fc.uniqueArray(collectionId, { minLength: 1, maxLength: 3 }).chain((ids) =>
  fc.tuple(...ids.map((id) =>
    fc.uniqueArray(fc.record({ key: fieldKey, type: fc.constantFrom(...FIELD_TYPES), required: fc.boolean(), target: fc.constantFrom(...ids) }), {
      maxLength: 8,
      selector: (f) => f.key
    }).map((fields): DataCollection => ({
      id,
      fields: fields.map(({ key, type, required, target }): CollectionField => ({
        key,
        type,
        required,
        ...(type === "REFERENCE" ? { typeMetadata: { reference: { referencedCollectionId: target } } } : {}),
        ...(type === "MULTI_REFERENCE" ? { typeMetadata: { multiReference: { referencedCollectionId: target } } } : {})
      }))
    }))
  )))

const json = fc.jsonValue({ maxDepth: 2 }).filter((v) => v === null || typeof v !== "object" || !Object.keys(v).includes("__proto__"))
const record = fc.dictionary(fc.string().filter((k) => k !== "__proto__"), json, { maxKeys: 3 })

/** Values of a field's type, as sitefx reads them (dates as `Date`; references as ids). */
const valueOf = (type: CollectionField["type"]): fc.Arbitrary<unknown> => {
  switch (type) {
    case "NUMBER":
      return fc.double({ noNaN: true, noDefaultInfinity: true })
    case "BOOLEAN":
      return fc.boolean()
    case "DATE":
    case "DATETIME":
      return fc.date({ noInvalidDate: true })
    case "ARRAY_STRING":
    case "ARRAY_DOCUMENT":
    case "MULTI_REFERENCE":
      return fc.array(fc.string(), { maxLength: 3 })
    case "ARRAY":
      return fc.array(json, { maxLength: 3 })
    case "OBJECT":
    case "RICH_CONTENT":
      return record
    case "ADDRESS":
      return fc.record({ formatted: fc.string(), city: fc.string(), location: fc.record({ latitude: fc.double({ noNaN: true, noDefaultInfinity: true }), longitude: fc.double({ noNaN: true, noDefaultInfinity: true }) }) }, { requiredKeys: [] })
    case "MEDIA_GALLERY":
      return fc.array(fc.record({ src: fc.string(), title: fc.string() }, { requiredKeys: ["src"] }), { maxLength: 2 })
    case "ANY":
    case "UNKNOWN_FIELD_TYPE":
    case "LEGACY_BROKEN_REFERENCE":
      return json
    default:
      return fc.string()
  }
}

/** Random items of a collection: `_id`, maybe the system dates, each required field, some optional ones. */
const itemOf = (collection: DataCollection): fc.Arbitrary<Record<string, unknown>> => {
  const fields = collection.fields ?? []
  const model: Record<string, fc.Arbitrary<unknown>> = {
    _id: fc.string({ minLength: 1, maxLength: 8 }),
    _createdDate: fc.date({ noInvalidDate: true }),
    _owner: fc.uuid(),
    ...Object.fromEntries(fields.map((f) => [f.key, valueOf(f.type)]))
  }
  return fc.record(model, { requiredKeys: ["_id", ...fields.filter((f) => f.required === true).map((f) => f.key)] })
}

it("random sites: the generated modules type-check, and every Schema round-trips random items", async () => {
  const sites = fc.sample(site, { numRuns: RUNS, seed: 20261127 })
  // the sample covers what makes generation hard, or it proves little
  const fields = sites.flat().flatMap((c) => c.fields ?? [])
  assert.isAtLeast(new Set(fields.map((f) => f.type)).size, 20, "field types covered")
  assert.isTrue(fields.some((f) => f.type === "REFERENCE" || f.type === "MULTI_REFERENCE"), "a reference")
  assert.isTrue(fields.some((f) => !/^[A-Za-z_$][A-Za-z0-9_$]*$/.test(f.key)), "a key that is not an identifier")
  const dir = tempInRepo()
  try {
    const dataModule = new URL("src/data/index.ts", repo).pathname
    sites.forEach((collections, i) => writeFileSync(join(dir, `site${i}.ts`), generate(collections, { site: `site-${i}`, readAt: new Date(0), dataModule })))
    writeFileSync(join(dir, "tsconfig.json"), JSON.stringify({ extends: new URL("tsconfig.json", repo).pathname, include: ["*.ts"], compilerOptions: { noEmit: true } }))
    // one compiler run for every module; it throws with the compiler's messages when one does not type-check
    execFileSync(process.execPath, [new URL("node_modules/typescript/bin/tsc", repo).pathname, "-p", join(dir, "tsconfig.json")], { encoding: "utf8" })

    for (const [i, collections] of sites.entries()) {
      const module = await import(pathToFileURL(join(dir, `site${i}.ts`)).href) as Record<string, unknown>
      const names = new Map<string, number>()
      for (const collection of [...collections].sort((a, b) => (a.id < b.id ? -1 : 1))) {
        // the Schema's name, as the generator numbers two ids that map to one name
        const base = typeName(collection.id)
        const seen = names.get(base) ?? 0
        names.set(base, seen + 1)
        const schema = module[seen === 0 ? base : `${base}${seen + 1}`] as Schema.Codec<unknown, unknown>
        assert.isDefined(schema, `site ${i}: the Schema of ${collection.id}`)
        const decode = Schema.decodeUnknownSync(schema)
        const encode = Schema.encodeSync(schema)
        fc.assert(fc.property(itemOf(collection), (item) => {
          assert.deepStrictEqual(encode(decode(item)), item)
        }), { numRuns: 50, seed: 20261127 + i })
      }
    }
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}, 120_000)
