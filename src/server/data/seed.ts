/**
 * What the `demo` seed puts in the data engine: `Authors` and `Posts` (read by anyone, written with an
 * API key; each post references its author) and `Notes`, a member-author collection holding one note
 * of the demo member. Fixed ids and dates, and nothing is overwritten, so seeding again changes nothing.
 */
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import type { CollectionField, DataCollection } from "../../data/wire/index.ts"
import { MemberStore } from "../accounts/MemberStore.ts"
import { DEMO_MEMBER_EMAIL, Seeder } from "../accounts/seed.ts"
import { DataCollections } from "./DataCollections.ts"
import { ItemStore } from "./ItemStore.ts"
import type { Json } from "../store/values.ts"

const text = (key: string, displayName: string): CollectionField => ({ key, displayName, type: "TEXT" })

export const DEMO_COLLECTIONS: ReadonlyArray<DataCollection> = [
  {
    id: "Authors",
    displayName: "Authors",
    displayField: "name",
    fields: [text("name", "Name"), text("bio", "Bio")],
    permissions: { read: "ANYONE", insert: "ADMIN", update: "ADMIN", remove: "ADMIN" }
  },
  {
    id: "Posts",
    displayName: "Posts",
    displayField: "title",
    fields: [
      text("title", "Title"),
      text("body", "Body"),
      { key: "likes", displayName: "Likes", type: "NUMBER" },
      { key: "tags", displayName: "Tags", type: "ARRAY_STRING" },
      { key: "published", displayName: "Published", type: "DATETIME" },
      { key: "author", displayName: "Author", type: "REFERENCE", typeMetadata: { reference: { referencedCollectionId: "Authors" } } }
    ],
    permissions: { read: "ANYONE", insert: "ADMIN", update: "ADMIN", remove: "ADMIN" }
  },
  {
    id: "Notes",
    displayName: "Notes",
    displayField: "title",
    fields: [text("title", "Title"), text("body", "Body")],
    permissions: { read: "SITE_MEMBER_AUTHOR", insert: "SITE_MEMBER_AUTHOR", update: "SITE_MEMBER_AUTHOR", remove: "SITE_MEMBER_AUTHOR" }
  }
]

const SEEDED_AT = { $date: "2026-01-01T00:00:00.000Z" }
const at = (date: string) => ({ $date: date })

const AUTHORS: ReadonlyArray<Json> = [
  { _id: "ada", name: "Ada Lovelace", bio: "Wrote the first program." },
  { _id: "grace", name: "Grace Hopper", bio: "Taught computers English." }
]

const POSTS: ReadonlyArray<Json> = [
  {
    _id: "welcome",
    title: "Welcome to sitefx",
    body: "A local platform for headless sites.",
    likes: 12,
    tags: ["news", "sitefx"],
    published: at("2026-01-05T09:00:00.000Z"),
    author: "ada"
  },
  {
    _id: "cursors",
    title: "Stable cursors",
    body: "Paging that survives concurrent writes.",
    likes: 30,
    tags: ["data", "paging"],
    published: at("2026-02-10T12:30:00.000Z"),
    author: "grace"
  },
  {
    _id: "filters",
    title: "Filters in SQL",
    body: "Every filter runs inside the database.",
    likes: 7,
    tags: ["data"],
    published: at("2026-03-15T18:45:00.000Z"),
    author: "ada"
  }
]

/** Registers the data part of the seeds with the Seeder. */
export const dataSeed: Layer.Layer<never, never, Seeder | DataCollections | ItemStore | MemberStore> = Layer.effectDiscard(
  Effect.gen(function*() {
    const seeder = yield* Seeder
    const collections = yield* DataCollections
    const items = yield* ItemStore
    const members = yield* MemberStore
    seeder.extend((name) =>
      Effect.sync(() => {
        if (name !== "demo") return
        for (const collection of DEMO_COLLECTIONS) {
          if (collections.get(collection.id) === undefined) collections.create(collection)
        }
        const put = (collectionId: string, data: Json, owner?: string) => {
          const stored = { ...data, _createdDate: SEEDED_AT, _updatedDate: SEEDED_AT, ...(owner === undefined ? {} : { _owner: owner }) }
          items.insertMany(collectionId, [{ id: String(data["_id"]), data: stored, text: JSON.stringify(stored), owner }])
        }
        for (const author of AUTHORS) put("Authors", author)
        for (const post of POSTS) put("Posts", post)
        const demo = members.byEmail(DEMO_MEMBER_EMAIL)
        if (demo !== undefined) put("Notes", { _id: "demo-note", title: "My first note", body: "Only I can read this." }, demo.id)
      })
    )
  })
)
