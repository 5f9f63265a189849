/**
 * The customization calls: the ones every entity service answers (crudRoutes.ts), and the choices' own
 * (add, set, remove, update, reorder, and bulk add), each a revision of the customization.
 */
import type * as HttpRouter from "effect/http/HttpRouter"
import { EntityPaths, MAX_ENTITY_PAGE } from "../../../catalog/entities/protocol.ts"
import * as W from "../../../catalog/entities/wire/index.ts"
import type { Json } from "../../store/values.ts"
import type { StoreAccess } from "../access.ts"
import { entityCrud, type EntityService } from "./crudRoutes.ts"
import { customizationOps } from "./customizationRules.ts"
import { bulk, type Engine, Kinds, required } from "./engine.ts"
import type { EntityTableShape } from "./entityTables.ts"

export const customizationRoutes = (table: EntityTableShape, engine: Engine, access: StoreAccess): ReadonlyArray<HttpRouter.Route<never, never>> => {
  const ops = customizationOps(table, engine)
  const { routes, item, write, bulkWrite, bulkResult } = entityCrud(CUSTOMIZATIONS, ops, table, engine, access)

  return [
    ...routes,
    bulkWrite(EntityPaths.customizationsBulkAddChoices, W.BulkAddChoicesRequest, (request, actor, emit) =>
      bulk(request.customizationsChoices, (m, i) => {
        const choices = (m.choices ?? []) as ReadonlyArray<Json>
        if (choices.length === 0) throw required(`customizationsChoices[${i}].choices`)
        const doc = ops.addChoices(m.customizationId, choices, `customizationsChoices[${i}].choices`, actor, emit)
        return bulkResult(request, doc)
      }, "customization")),
    write("POST", `${item}/add-choices`, W.AddChoicesRequest, (r, actor, emit, id) => ops.addChoices(id, r.choices as ReadonlyArray<Json>, "choices", actor, emit)),
    write("POST", `${item}/set-choices`, W.SetChoicesRequest, (r, actor, emit, id) => ops.setChoices(id, r.choices as ReadonlyArray<Json>, actor, emit)),
    write("POST", `${item}/remove-choices`, W.RemoveChoicesRequest, (r, actor, emit, id) => ops.removeChoices(id, r.choiceIds, r.revision, actor, emit)),
    write("POST", `${item}/update-choices`, W.UpdateChoicesRequest, (r, actor, emit, id) =>
      ops.updateChoices(id, r.revision, r.choices.map((c) => ({ choice: c.choice as Json | undefined, fieldMask: c.fieldMask })), actor, emit)),
    write("POST", `${item}/reorder-choices`, W.ReorderChoicesRequest, (r, actor, emit, id) => ops.reorderChoices(id, r.revision, r.choiceIds, actor, emit))
  ]
}

const CUSTOMIZATIONS: EntityService = {
  key: "customization",
  list: "customizations",
  idParam: "customizationId",
  kind: Kinds.customization,
  maxLimit: MAX_ENTITY_PAGE.customizations,
  counted: { request: "ASSIGNED_PRODUCTS_COUNT", field: "assignedProductsCount" },
  bulkKey: "customization",
  paths: {
    collection: EntityPaths.customizations,
    query: EntityPaths.customizationsQuery,
    count: EntityPaths.customizationsCount,
    bulkCreate: EntityPaths.customizationsBulkCreate,
    bulkUpdate: EntityPaths.customizationsBulkUpdate
  },
  schemas: { ...W.CustomizationCalls, bulkResponse: W.BulkCustomizationsResponse }
}
