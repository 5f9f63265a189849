/**
 * The data browser's atoms: a collection's items as paginated query atoms (sitefx/react), kept fresh by
 * the writes made here and by the site's live events; the writes as atom functions; a collection's
 * description (its permissions); and who is browsing, since what a collection shows and allows depends on it.
 */
import { AsyncResult, Atom } from "effect/reactivity"
import * as DataItems from "sitefx/data/items"
import { queryAtoms, writeAtoms } from "sitefx/react"
import { session } from "../member/atoms.ts"
import { runtime } from "../site.ts"
import type { Field, FieldType, KnownCollection } from "./collections.ts"
import { dataChanges } from "./live.ts"

/** Items per page. */
export const PAGE_SIZE = 5

export const queries = queryAtoms(runtime, { changes: dataChanges })

export const writes = writeAtoms(runtime)

/**
 * Who is browsing: `visitor`, `member:<id>`, or undefined while that is not known yet: what the page
 * offers depends on it. The queries need no key for it: they load again by themselves as whoever signs
 * in or out (here or in another tab).
 */
export const identityAtom = Atom.make((get): string | undefined => {
  const state = get(session.state)
  if (!AsyncResult.isSuccess(state)) return undefined
  if (!state.value.loggedIn) return "visitor"
  const member = get(session.member)
  return AsyncResult.isSuccess(member) && member.value !== undefined ? `member:${member.value.id}` : undefined
})

/**
 * A collection as the platform describes it to whoever is browsing (`<collection>|<identity>`): its
 * permissions, which decide what the collection's page offers. None when the platform has no such
 * collection. Asked again for each identity, as a sign-in may change what the platform tells.
 */
export const collectionAtom = Atom.family((key: string) => runtime.atom(DataItems.collections.get(key.slice(0, key.lastIndexOf("|")))))

/** The signed-in member's login email, for the "browsing as" line. */
export const memberEmailAtom = Atom.make((get): string | undefined => {
  const member = get(session.member)
  return AsyncResult.isSuccess(member) ? member.value?.loginEmail : undefined
})

export type Operator = "contains" | "startsWith" | "eq" | "gt" | "lt" | "hasSome"

export const OPERATORS: Record<FieldType, ReadonlyArray<readonly [Operator, string]>> = {
  TEXT: [["contains", "contains"], ["startsWith", "starts with"], ["eq", "is"]],
  LONG_TEXT: [["contains", "contains"], ["startsWith", "starts with"]],
  NUMBER: [["eq", "="], ["gt", ">"], ["lt", "<"]],
  ARRAY_STRING: [["hasSome", "has"]],
  DATETIME: [["gt", "after"], ["lt", "before"]],
  REFERENCE: [["eq", "is"]]
}

/** What the item list shows, as the URL says it. */
export interface View {
  readonly field: string
  readonly op: Operator
  readonly value: string
  readonly sort: string
  readonly dir: "asc" | "desc"
}

export const viewOf = (c: KnownCollection, params: URLSearchParams): View => {
  const field = c.fields.find((f) => f.key === params.get("f")) ?? c.fields[0]!
  const ops = OPERATORS[field.type]
  const op = ops.find(([o]) => o === params.get("op"))?.[0] ?? ops[0]![0]
  const sort = params.get("sort") ?? c.sort.field
  const sortable = sort === "_createdDate" || c.fields.some((f) => f.key === sort && f.type !== "ARRAY_STRING")
  return {
    field: field.key,
    op,
    value: params.get("v") ?? "",
    sort: sortable ? sort : c.sort.field,
    dir: params.get("dir") === "asc" ? "asc" : params.get("dir") === "desc" ? "desc" : sortable && params.get("sort") !== null ? "asc" : c.sort.dir
  }
}

export const paramsOfView = (c: KnownCollection, v: View): Record<string, string | undefined> => ({
  // the field and condition stay chosen while the value is still empty (defaults left out)
  f: v.field === c.fields[0]!.key ? undefined : v.field,
  op: v.op === OPERATORS[c.fields.find((f) => f.key === v.field)?.type ?? "TEXT"][0]![0] ? undefined : v.op,
  v: v.value === "" ? undefined : v.value,
  sort: v.sort === c.sort.field && v.dir === c.sort.dir ? undefined : v.sort,
  dir: v.sort === c.sort.field && v.dir === c.sort.dir ? undefined : v.dir
})

/** A filter value as its field's type reads it; undefined when it does not read as one. */
const valueOf = (field: Field, text: string): unknown => {
  if (field.type === "NUMBER") {
    const n = Number(text)
    return text.trim() === "" || !Number.isFinite(n) ? undefined : n
  }
  if (field.type === "DATETIME") {
    const d = new Date(text)
    return Number.isNaN(d.getTime()) ? undefined : d
  }
  return text
}

/** The items query of a view: its filter, its sort (then by id, so pages never share an item), a page at a time, counted. */
export const itemsQuery = (c: KnownCollection, v: View) => {
  let q = DataItems.query(c.id).limit(PAGE_SIZE).withTotalCount()
  const field = c.fields.find((f) => f.key === v.field)
  const value = field === undefined || v.value.trim() === "" ? undefined : valueOf(field, v.value.trim())
  if (field !== undefined && value !== undefined) {
    switch (v.op) {
      case "contains":
        q = q.contains(field.key, String(value))
        break
      case "startsWith":
        q = q.startsWith(field.key, String(value))
        break
      case "hasSome":
        q = q.hasSome(field.key, [String(value)])
        break
      case "gt":
        q = q.gt(field.key, value as number | Date)
        break
      case "lt":
        q = q.lt(field.key, value as number | Date)
        break
      default:
        q = q.eq(field.key, value)
    }
  }
  q = v.dir === "asc" ? q.ascending(v.sort) : q.descending(v.sort)
  return v.sort === "_id" ? q : q.ascending("_id")
}

/** The items of a collection a reference points into, for showing and choosing references (the first 100). */
export const referencedAtom = (collection: string) => queries.items(DataItems.query(collection).ascending("_id").limit(100))
