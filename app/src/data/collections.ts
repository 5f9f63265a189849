/**
 * The collections the data browser offers. Listing a site's collections takes an API key, which a page
 * must not hold, so the browser names the demo seed's collections (`sitefx serve --seed demo`) with the
 * fields and permissions the seed gives them; everything else (items, counts, refusals) comes from the
 * platform, and so do a collection's permissions once its page has read them (reading one collection is
 * open to whoever may read its items), so what the page offers follows the site's owner's changes.
 */
import { collectionAccess, type DataWire, type PermissionAction, type PermissionCaller } from "sitefx/data"

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
  /** The items' name in a sentence: "posts". */
  readonly noun: string
  /** Who may read, insert, update and remove its items, as the seed declares them. */
  readonly permissions: DataWire.Permissions
  readonly displayField: string
  readonly fields: ReadonlyArray<Field>
  /** The default order. */
  readonly sort: { readonly field: string; readonly dir: "asc" | "desc" }
}

export const COLLECTIONS: ReadonlyArray<KnownCollection> = [
  {
    id: "Posts",
    description: "The site's blog posts, each by one of its authors.",
    noun: "posts",
    permissions: { read: "ANYONE", insert: "ADMIN", update: "ADMIN", remove: "ADMIN" },
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
    noun: "authors",
    permissions: { read: "ANYONE", insert: "ADMIN", update: "ADMIN", remove: "ADMIN" },
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
    noun: "notes",
    permissions: { read: "SITE_MEMBER_AUTHOR", insert: "SITE_MEMBER_AUTHOR", update: "SITE_MEMBER_AUTHOR", remove: "SITE_MEMBER_AUTHOR" },
    displayField: "title",
    fields: [
      { key: "title", label: "Title", type: "TEXT" },
      { key: "body", label: "Body", type: "LONG_TEXT" }
    ],
    sort: { field: "_createdDate", dir: "desc" }
  }
]

export const collectionById = (id: string): KnownCollection | undefined => COLLECTIONS.find((c) => c.id === id)

/** Who is browsing as the permissions read it: `visitor` or `member:<id>` (the data browser's identity). */
export const callerOf = (identity: string): PermissionCaller =>
  identity.startsWith("member:") ? { kind: "member", id: identity.slice("member:".length) } : { kind: "visitor" }

/** Whether only signed-in members may read the collection at all (so a visitor need not even ask). */
export const membersOnly = (permissions: DataWire.Permissions): boolean => collectionAccess(permissions, { kind: "visitor" }, "read") === "none"

type Role = NonNullable<DataWire.Permissions["read"]>

/** Who a role lets in, for the collection's "Read by" and "Written by". */
const WHO: Record<Role, string> = {
  ANYONE: "Anyone",
  SITE_MEMBER: "Signed-in members",
  SITE_MEMBER_AUTHOR: "Signed-in members",
  CMS_EDITOR: "The site's owner",
  PRIVILEGED: "The site's owner",
  ADMIN: "The site's owner"
}

const WRITES: ReadonlyArray<readonly [PermissionAction, string]> = [["insert", "add"], ["update", "edit"], ["remove", "remove"]]

/** A list in words: "add, edit and remove". */
export const inWords = (words: ReadonlyArray<string>): string =>
  words.length <= 1 ? words.join("") : `${words.slice(0, -1).join(", ")} and ${words.at(-1)}`

/** Who may read the collection's items, in words. */
export const readersOf = (permissions: DataWire.Permissions): string => {
  const role = permissions.read ?? "ANYONE"
  return role === "SITE_MEMBER_AUTHOR" ? "The member who wrote it" : WHO[role]
}

/** Who may write the collection's items, in words: one phrase when one role writes, else who does what. */
export const writersOf = (c: KnownCollection, permissions: DataWire.Permissions): string => {
  const groups = new Map<string, Array<string>>()
  for (const [action, verb] of WRITES) {
    const role = permissions[action] ?? "ADMIN"
    const who = role === "SITE_MEMBER_AUTHOR" ? `${WHO[role]}, their own ${c.noun}` : WHO[role]
    groups.set(who, [...(groups.get(who) ?? []), verb])
  }
  const all = [...groups]
  if (all.length === 1) return all[0]![0]
  return all.map(([who, verbs]) => `${who} (${inWords(verbs)})`).join("; ")
}
