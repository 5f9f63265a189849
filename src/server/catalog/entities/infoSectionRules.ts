/**
 * Info sections: a title and a text, found by a unique name (compared without case and surrounding
 * spaces). The text arrives as rich content (`description`) or as HTML (`plainDescription`); the other
 * form is derived, so readers get both: HTML becomes one paragraph per block, rich content's text
 * nodes become `<p>` paragraphs.
 */
import * as W from "../../../catalog/entities/wire/index.ts"
import { isObject, type Json } from "../../store/values.ts"
import type { AdminCaller } from "../../platform/Caller.ts"
import {
  alreadyExists,
  checkName,
  compact,
  createdEvent,
  type Emit,
  type Engine,
  found,
  invalid,
  Kinds,
  masked,
  modifiedFields,
  nameKey,
  nextRevision,
  removal,
  required,
  revising,
  updatedEvent
} from "./engine.ts"
import type { EntityTableShape } from "./entityTables.ts"

const ENTITY = "info_section"
/** The longest `plainDescription` the platform keeps. */
const MAX_PLAIN = 16000
const KIND = Kinds.infoSection

const ENTITIES: Record<string, string> = { "&amp;": "&", "&lt;": "<", "&gt;": ">", "&quot;": "\"", "&#39;": "'", "&nbsp;": " " }
const decodeEntities = (text: string) => text.replace(/&(amp|lt|gt|quot|#39|nbsp);/g, (m) => ENTITIES[m] ?? m)
const escapeHtml = (text: string) => text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;")

/** HTML as rich content: one paragraph per block (`<p>`, `<br>`, `<li>`, headings), tags dropped. */
export const richFromHtml = (html: string): W.RichContent => {
  const blocks = html
    .split(/<\/(?:p|div|li|h[1-6])>|<br\s*\/?>/i)
    .map((block) => decodeEntities(block.replace(/<[^>]*>/g, "")).trim())
    .filter((text) => text !== "")
  return {
    nodes: blocks.map((text, i) => ({
      type: "PARAGRAPH",
      id: `p${i}`,
      nodes: [{ type: "TEXT", id: "", nodes: [], textData: { text, decorations: [] } }],
      paragraphData: {}
    })),
    metadata: { version: 1 }
  }
}

/** Rich content as HTML: the text of each top-level node in a `<p>`. */
export const htmlFromRich = (rich: W.RichContent): string => {
  const textOf = (node: unknown): string => {
    if (!isObject(node)) return ""
    const data = node["textData"]
    const own = isObject(data) && typeof data["text"] === "string" ? data["text"] : ""
    const children = Array.isArray(node["nodes"]) ? node["nodes"].map(textOf).join("") : ""
    return own + children
  }
  return (rich.nodes ?? []).map(textOf).filter((t) => t !== "").map((t) => `<p>${escapeHtml(t)}</p>`).join("")
}

/** The text fields of a write: both forms, one derived from the other (rich content wins when both come). */
const textFields = (input: Json): Json => {
  const description = input["description"]
  const plain = input["plainDescription"]
  if (isObject(description)) {
    const html = htmlFromRich(description as W.RichContent)
    if (html.length > MAX_PLAIN) throw invalid("infoSection.description", `The description's text is over ${MAX_PLAIN} characters as HTML`, "MAX_LENGTH")
    return { description, plainDescription: html }
  }
  if (typeof plain === "string") return { description: richFromHtml(plain), plainDescription: plain }
  return {}
}

export const infoSectionOps = (table: EntityTableShape, engine: Engine) => {
  const taken = (uniqueName: string) => alreadyExists(`An info section with unique name ${JSON.stringify(uniqueName)} already exists`, { uniqueName })

  const create = (input: Json, actor: AdminCaller, emit: Emit, field: string): Json => {
    const uniqueName = checkName(`${field}.uniqueName`, input["uniqueName"])
    const title = checkName(`${field}.title`, input["title"])
    const now = engine.now()
    const doc = compact({ id: engine.newId(), revision: "1", createdDate: now, updatedDate: now, uniqueName, title, ...textFields(input) })
    if (!table.insert(doc, nameKey(uniqueName))) throw taken(uniqueName)
    emit(createdEvent(ENTITY, doc, actor))
    return doc
  }

  const update = (input: Json, mask: ReadonlySet<string> | undefined, actor: AdminCaller, emit: Emit): Json => {
    const current = revising(table, KIND, input, "infoSection")
    const patch = masked(
      Object.fromEntries(["uniqueName", "title", "description", "plainDescription"].filter((k) => input[k] !== undefined).map((k) => [k, input[k]])),
      mask
    )
    const uniqueName = patch["uniqueName"] === undefined ? current["uniqueName"] as string : checkName("infoSection.uniqueName", patch["uniqueName"])
    const title = patch["title"] === undefined ? current["title"] : checkName("infoSection.title", patch["title"])
    const next = compact({ ...current, uniqueName, title, ...textFields(patch), revision: nextRevision(current), updatedDate: engine.now() })
    if (!table.replace(next, nameKey(uniqueName))) throw taken(uniqueName)
    emit(updatedEvent(ENTITY, next, modifiedFields(current, next), actor))
    return next
  }

  const remove = removal(table, KIND, ENTITY)

  /** By id (which must exist), or by unique name (created from it and the title when there is none). */
  const getOrCreate = (input: Json, field: string, actor: AdminCaller, emit: Emit): Json => {
    const id = input["id"]
    if (typeof id === "string" && id !== "") return found(table.get(id), KIND, id)
    const uniqueName = checkName(`${field}.uniqueName`, input["uniqueName"])
    const existing = table.byKey(nameKey(uniqueName))
    if (existing !== undefined) return existing
    if (input["title"] === undefined || input["title"] === null) throw required(`${field}.title`)
    return create(input, actor, emit, field)
  }

  return { create, update, remove, getOrCreate }
}
