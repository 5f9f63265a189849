/**
 * Info sections: a title and a text, found by a unique name (compared without case and surrounding
 * spaces). The text arrives as rich content (`description`) or as HTML (`plainDescription`); the other
 * form is derived, so readers get both: HTML becomes one paragraph per block, rich content's text
 * nodes become `<p>` paragraphs.
 */
import * as Effect from "effect/Effect"
import type * as HttpRouter from "effect/http/HttpRouter"
import { EntityPaths, MAX_ENTITY_PAGE } from "../../../catalog/v3/protocol.ts"
import * as W from "../../../catalog/wire/entities.ts"
import { isObject, type Json } from "../../data/values.ts"
import type { AdminCaller } from "../../oauth/Callers.ts"
import { reply, replyEmpty } from "../../platform/responses.ts"
import { body, pathParam, route } from "../../platform/routing.ts"
import type { StoreAccess } from "../access.ts"
import {
  alreadyExists,
  bulk,
  checkName,
  checkRevision,
  compact,
  createdEvent,
  deletedEvent,
  type Emit,
  type Engine,
  found,
  invalid,
  Kinds,
  masked,
  maskPaths,
  modifiedFields,
  nameKey,
  nextRevision,
  reject,
  required,
  updatedEvent
} from "./engine.ts"
import { pageOf, pagingOf, queryRoutes, withCount, withPathId } from "./http.ts"
import type { EntityTableShape } from "./store.ts"

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

  const create = (input: Json, field: string, actor: AdminCaller, emit: Emit): Json => {
    const uniqueName = checkName(`${field}.uniqueName`, input["uniqueName"])
    const title = checkName(`${field}.title`, input["title"])
    const now = engine.now()
    const doc = compact({ id: engine.newId(), revision: "1", createdDate: now, updatedDate: now, uniqueName, title, ...textFields(input) })
    if (!table.insert(doc, nameKey(uniqueName))) throw taken(uniqueName)
    emit(createdEvent(ENTITY, doc, actor))
    return doc
  }

  const update = (input: Json, mask: ReadonlySet<string> | undefined, actor: AdminCaller, emit: Emit): Json => {
    const id = input["id"]
    if (typeof id !== "string" || id === "") throw required("infoSection.id")
    const current = found(table.get(id), KIND, id)
    checkRevision(KIND, current, input["revision"], "infoSection.revision")
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

  const remove = (id: string, actor: AdminCaller, emit: Emit): void => {
    const current = found(table.get(id), KIND, id)
    table.remove(id)
    emit(deletedEvent(ENTITY, current, actor))
  }

  /** By id (which must exist), or by unique name (created from it and the title when there is none). */
  const getOrCreate = (input: Json, field: string, actor: AdminCaller, emit: Emit): Json => {
    const id = input["id"]
    if (typeof id === "string" && id !== "") return found(table.get(id), KIND, id)
    const uniqueName = checkName(`${field}.uniqueName`, input["uniqueName"])
    const existing = table.byKey(nameKey(uniqueName))
    if (existing !== undefined) return existing
    if (input["title"] === undefined || input["title"] === null) throw required(`${field}.title`)
    return create(input, field, actor, emit)
  }

  return { create, update, remove, getOrCreate }
}

export const infoSectionRoutes = (table: EntityTableShape, engine: Engine, access: StoreAccess): ReadonlyArray<HttpRouter.Route<never, never>> => {
  const ops = infoSectionOps(table, engine)
  const count = (doc: Json, fields: ReadonlyArray<string> | undefined) => withCount(doc, fields, "ASSIGNED_PRODUCTS_COUNT", "assignedProductsCount")
  const one = (doc: Json, fields?: ReadonlyArray<string>) => reply(W.InfoSectionResponse, { infoSection: count(doc, fields) as W.InfoSection })
  const item = `${EntityPaths.infoSections}/:infoSectionId` as const

  return [
    route("POST", EntityPaths.infoSections, Effect.gen(function*() {
      const actor = yield* access.writer
      const request = yield* body(W.InfoSectionRequest)
      return one(yield* engine.commit((emit) => ops.create(request.infoSection as Json, "infoSection", actor, emit)))
    })),
    route("GET", item, Effect.gen(function*() {
      yield* access.reader
      const request = yield* withPathId(W.GetInfoSectionRequest, "infoSectionId")
      return one(yield* engine.read(() => found(table.get(request.infoSectionId), KIND, request.infoSectionId)), request.fields)
    })),
    route("PATCH", item, Effect.gen(function*() {
      const actor = yield* access.writer
      const id = yield* pathParam("infoSectionId")
      const request = yield* body(W.InfoSectionUpdateRequest)
      const doc = yield* engine.commit((emit) => ops.update({ ...request.infoSection, id }, undefined, actor, emit))
      return one(doc, request.fields)
    })),
    route("DELETE", item, Effect.gen(function*() {
      const actor = yield* access.writer
      const id = yield* pathParam("infoSectionId")
      yield* engine.commit((emit) => ops.remove(id, actor, emit))
      return replyEmpty()
    })),
    ...queryRoutes(EntityPaths.infoSectionsQuery, W.QueryInfoSectionsRequest, (request) =>
      Effect.gen(function*() {
        yield* access.reader
        const page = yield* pageOf(engine, table, request.query, MAX_ENTITY_PAGE.infoSections)
        return reply(W.QueryInfoSectionsResponse, {
          infoSections: page.items.map((d) => count(d, request.fields) as W.InfoSection),
          pagingMetadata: pagingOf(page)
        })
      })),
    route("POST", EntityPaths.infoSectionsCount, Effect.gen(function*() {
      yield* access.reader
      const request = yield* body(W.CountRequest)
      return reply(W.CountResponse, { count: yield* engine.read(() => table.count(request.filter ?? undefined)) })
    })),
    route("POST", EntityPaths.infoSectionGetOrCreate, Effect.gen(function*() {
      const actor = yield* access.writer
      const request = yield* body(W.GetOrCreateInfoSectionRequest)
      if (request.infoSection === undefined) return yield* reject(required("infoSection"))
      const input = request.infoSection as Json
      return one(yield* engine.commit((emit) => ops.getOrCreate(input, "infoSection", actor, emit)), request.fields)
    })),
    route("POST", EntityPaths.infoSectionsBulkCreate, Effect.gen(function*() {
      const actor = yield* access.writer
      const request = yield* body(W.BulkCreateInfoSectionsRequest)
      const answer = yield* engine.commit((emit) =>
        bulk(request.infoSections as ReadonlyArray<Json>, (input, i) => {
          const doc = ops.create(input, `infoSections[${i}]`, actor, emit)
          return { id: doc["id"] as string, entity: request.returnEntity === true ? doc : undefined }
        }))
      return reply(W.BulkInfoSectionsResponse, answer as W.BulkInfoSectionsResponse)
    })),
    route("POST", EntityPaths.infoSectionsBulkUpdate, Effect.gen(function*() {
      const actor = yield* access.writer
      const request = yield* body(W.BulkUpdateInfoSectionsRequest)
      const answer = yield* engine.commit((emit) =>
        bulk(request.infoSections, (m) => {
          const doc = ops.update((m.infoSection ?? {}) as Json, maskPaths(m.fieldMask), actor, emit)
          return { id: doc["id"] as string, entity: request.returnEntity === true ? count(doc, request.fields) : undefined }
        }))
      return reply(W.BulkInfoSectionsResponse, answer as W.BulkInfoSectionsResponse)
    })),
    route("POST", EntityPaths.infoSectionsBulkGetOrCreate, Effect.gen(function*() {
      const actor = yield* access.writer
      const request = yield* body(W.BulkGetOrCreateInfoSectionsRequest)
      const answer = yield* engine.commit((emit) =>
        bulk(request.infoSections as ReadonlyArray<Json>, (input, i) => {
          const doc = ops.getOrCreate(input, `infoSections[${i}]`, actor, emit)
          return { id: doc["id"] as string, entity: count(doc, request.fields) }
        }))
      return reply(W.BulkInfoSectionsResponse, answer as W.BulkInfoSectionsResponse)
    })),
    route("POST", EntityPaths.infoSectionsBulkDelete, Effect.gen(function*() {
      const actor = yield* access.writer
      const request = yield* body(W.BulkDeleteInfoSectionsRequest)
      const answer = yield* engine.commit((emit) =>
        bulk(request.infoSectionIds, (id) => {
          ops.remove(id, actor, emit)
          return { id }
        }))
      return reply(W.BulkDeleteResponse, answer)
    }))
  ]
}
