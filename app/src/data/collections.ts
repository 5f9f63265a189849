/**
 * The collections the data browser offers. Listing a site's collections takes an API key, which a page
 * must not hold, so the browser names the demo seed's collections (`sitefx serve --seed demo`) with the
 * fields and permissions the seed gives them; everything else (items, counts, refusals) comes from the
 * platform.
 */

export type FieldType = "TEXT" | "LONG_TEXT" | "NUMBER" | "ARRAY_STRING" | "DATETIME" | "REFERENCE"

export interface Field {
  readonly key: string
  readonly label: string
  readonly type: FieldType
  /** For a reference: the collection it points into, and the field naming its items. */
  readonly references?: { readonly collection: string; readonly displayField: string }
}

export interface KnownCollection {
  readonly id: string
  readonly description: string
  /** Who may read and who may write, as the collection's permissions say. */
  readonly reads: string
  readonly writes: string
  /** Whether only signed-in members may use it at all. */
  readonly membersOnly: boolean
  readonly displayField: string
  readonly fields: ReadonlyArray<Field>
  /** The default order. */
  readonly sort: { readonly field: string; readonly dir: "asc" | "desc" }
}

export const COLLECTIONS: ReadonlyArray<KnownCollection> = [
  {
    id: "Posts",
    description: "The site's blog posts, each by one of its authors.",
    reads: "Anyone",
    writes: "The site's owner (an API key)",
    membersOnly: false,
    displayField: "title",
    fields: [
      { key: "title", label: "Title", type: "TEXT" },
      { key: "body", label: "Body", type: "LONG_TEXT" },
      { key: "likes", label: "Likes", type: "NUMBER" },
      { key: "tags", label: "Tags", type: "ARRAY_STRING" },
      { key: "published", label: "Published", type: "DATETIME" },
      { key: "author", label: "Author", type: "REFERENCE", references: { collection: "Authors", displayField: "name" } }
    ],
    sort: { field: "published", dir: "desc" }
  },
  {
    id: "Authors",
    description: "Who writes the posts.",
    reads: "Anyone",
    writes: "The site's owner (an API key)",
    membersOnly: false,
    displayField: "name",
    fields: [
      { key: "name", label: "Name", type: "TEXT" },
      { key: "bio", label: "Bio", type: "LONG_TEXT" }
    ],
    sort: { field: "name", dir: "asc" }
  },
  {
    id: "Notes",
    description: "Private notes: each member reads and writes only their own.",
    reads: "The member who wrote it",
    writes: "Signed-in members, their own notes",
    membersOnly: true,
    displayField: "title",
    fields: [
      { key: "title", label: "Title", type: "TEXT" },
      { key: "body", label: "Body", type: "LONG_TEXT" }
    ],
    sort: { field: "_createdDate", dir: "desc" }
  }
]

export const collectionById = (id: string): KnownCollection | undefined => COLLECTIONS.find((c) => c.id === id)
