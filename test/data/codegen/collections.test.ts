/**
 * The generator of `sitefx data types` (src/data/codegen/collections.ts): a module for collections with
 * every field type the platform has type-checks as written (and its handles insert items without an
 * `_id`), its Schemas decode the items sitefx reads and encode them back unchanged (a property over
 * random items), names that are not identifiers are mapped, and the output is deterministic.
 */
import { assert, describe, it } from "@effect/vitest"
import { execFileSync } from "node:child_process"
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs"
import { join } from "node:path"
import { pathToFileURL } from "node:url"
import * as fc from "fast-check"
import * as Schema from "effect/Schema"
import { generate, typeName, withoutHeader } from "../../../src/data/codegen/collections.ts"
import { FIELD_TYPES } from "../../../src/data/protocol.ts"
import type { DataCollection } from "../../../src/data/wire/index.ts"

/** A collection with a field of every type (references to itself and to Posts), every third required. */
const everyType: DataCollection = {
  id: "every-type",
  displayName: "Every type",
  fields: FIELD_TYPES.map((type, i) => ({
    key: `f_${type.toLowerCase()}`,
    type,
    required: i % 3 === 0,
    ...(type === "REFERENCE"
      ? { typeMetadata: { reference: { referencedCollectionId: "Posts" } } }
      : type === "MULTI_REFERENCE"
      ? { typeMetadata: { multiReference: { referencedCollectionId: "every-type" } } }
      : {})
  }))
}
const posts: DataCollection = { id: "Posts", fields: [{ key: "title", type: "TEXT", required: true }, { key: "likes", type: "NUMBER" }] }
const odd: DataCollection = { id: "2024 sales", fields: [{ key: "my key", type: "NUMBER" }, { key: "class", type: "TEXT" }] }

const repo = new URL("../../../", import.meta.url)
/** A folder under the repository's .tmp (where `effect` resolves, and no type check of the project looks); removed by the test. */
const tempInRepo = () => {
  mkdirSync(new URL(".tmp/", repo).pathname, { recursive: true })
  return mkdtempSync(join(new URL(".tmp/", repo).pathname, "codegen-"))
}
const options = { site: "site-1", readAt: new Date(Date.UTC(2026, 10, 27)), dataModule: new URL("src/data/index.ts", repo).pathname }

/** Writes the module into a folder of the repository (so `effect` resolves) and imports it. */
const load = async (text: string) => {
  const dir = tempInRepo()
  const file = join(dir, "collections.ts")
  writeFileSync(file, text)
  return { dir, file, module: await import(pathToFileURL(file).href) as Record<string, any> }
}

describe("sitefx data types: the generated module", () => {
  it("type-checks as written, for every field type, odd names and references between collections, and its handles insert without an _id", () => {
    const text = generate([everyType, posts, odd], options)
    const dir = tempInRepo()
    try {
      writeFileSync(join(dir, "collections.ts"), text)
      // and its handles insert as a reader would: without an _id, answered with the _id and dates the platform writes
      writeFileSync(join(dir, "use.ts"), [
        "import { Collections } from \"./collections.ts\"",
        "export const post = Collections.Posts.insert({ title: \"Hello\", likes: 1 })",
        "export const posts = Collections.Posts.bulkInsert([{ title: \"A\" }, { _id: \"b\", title: \"B\" }])",
        "export const sales = Collections[\"2024 sales\"].save({ \"my key\": 3 })",
        "export const when = (p: typeof post extends import(\"effect/Effect\").Effect<infer A, infer _E, infer _R> ? A : never): [string, Date, Date] => [p._id, p._createdDate, p._updatedDate]",
        ""
      ].join("\n"))
      writeFileSync(join(dir, "tsconfig.json"), JSON.stringify({ extends: new URL("tsconfig.json", repo).pathname, include: ["collections.ts", "use.ts"], compilerOptions: { noEmit: true } }))
      // throws with the compiler's messages when the module does not type-check
      execFileSync(process.execPath, [new URL("node_modules/typescript/bin/tsc", repo).pathname, "-p", join(dir, "tsconfig.json")], { encoding: "utf8" })
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
    assert.include(text, 'export const C2024Sales: Schema.Codec<C2024SalesItem>')
    assert.include(text, '  readonly "my key"?: number')
    assert.include(text, '  "2024 sales": DataItems.collection("2024 sales", C2024Sales)')
    assert.match(text, /^  readonly f_reference\??: string \| PostsItem$/m)
    assert.match(text, /^  readonly f_multi_reference\??: ReadonlyArray<string \| EveryTypeItem>$/m)
    const required = FIELD_TYPES.filter((_, i) => i % 3 === 0)[1]!.toLowerCase()
    assert.match(text, new RegExp(`^  readonly f_${required}: `, "m"), "a required field is required")
  })

  it("is deterministic: the same collections in any order give the same text; only the header names the time", () => {
    const a = generate([posts, everyType, odd], options)
    const b = generate([odd, everyType, posts], { ...options, readAt: new Date(0) })
    assert.notStrictEqual(a, b)
    assert.strictEqual(withoutHeader(a), withoutHeader(b))
  })

  it("maps names that are not identifiers, and never to a reserved word", () => {
    assert.deepStrictEqual(["Posts", "my-posts", "2024 sales", "class", "a/b@c", "___", "Schema"].map(typeName), ["Posts", "MyPosts", "C2024Sales", "Class", "ABC", "Collection", "SchemaCollection"])
    const text = generate([{ id: "my-posts" }, { id: "my posts" }], options)
    assert.include(text, "export const MyPosts:")
    assert.include(text, "export const MyPosts2:")
  })

  it("its Schemas decode items as sitefx reads them, and encode them back unchanged (random items)", async () => {
    const { dir, module } = await load(generate([posts, odd], options))
    try {
      const Posts = module["Posts"] as Schema.Codec<any, any>
      const decode = Schema.decodeUnknownSync(Posts)
      const encode = Schema.encodeSync(Posts)
      const item = fc.record({
        _id: fc.string({ minLength: 1 }),
        _createdDate: fc.date({ noInvalidDate: true }),
        title: fc.string(),
        likes: fc.double({ noNaN: true, noDefaultInfinity: true }),
        extra: fc.jsonValue()
      }, { requiredKeys: ["_id", "title"] })
      fc.assert(fc.property(item, (value) => {
        const decoded = decode(value)
        assert.deepStrictEqual(encode(decoded), value)
      }))
      assert.throws(() => decode({ _id: "x" }), /title/, "a required field is required")
      assert.throws(() => decode({ _id: "x", title: "t", likes: "many" }), /likes/)
      assert.strictEqual(module["Collections"]["2024 sales"].name, "2024 sales")
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  })
})
