/** The info section calls: the ones every entity service answers (crudRoutes.ts), and get-or-create, one and in bulk. */
import type * as HttpRouter from "effect/http/HttpRouter"
import { EntityPaths, MAX_ENTITY_PAGE } from "../../../catalog/entities/protocol.ts"
import * as W from "../../../catalog/entities/wire/index.ts"
import type { Json } from "../../store/values.ts"
import type { StoreAccess } from "../access.ts"
import { entityCrud, type EntityService, outcome } from "./crudRoutes.ts"
import { bulk, type Engine, Kinds, required } from "./engine.ts"
import type { EntityTableShape } from "./entityTables.ts"
import { infoSectionOps } from "./infoSectionRules.ts"

export const infoSectionRoutes = (table: EntityTableShape, engine: Engine, access: StoreAccess): ReadonlyArray<HttpRouter.Route<never, never>> => {
  const ops = infoSectionOps(table, engine)
  const crud = entityCrud(INFO_SECTIONS, ops, table, engine, access)

  return [
    ...crud.routes,
    crud.write("POST", EntityPaths.infoSectionGetOrCreate, W.GetOrCreateInfoSectionRequest, (request, actor, emit) => {
      if (request.infoSection === undefined) throw required("infoSection")
      return ops.getOrCreate(request.infoSection as Json, "infoSection", actor, emit)
    }),
    crud.bulkWrite(EntityPaths.infoSectionsBulkGetOrCreate, W.BulkGetOrCreateInfoSectionsRequest, (request, actor, emit) =>
      bulk(request.infoSections as ReadonlyArray<Json>, (input, i) => {
        const doc = ops.getOrCreate(input, `infoSections[${i}]`, actor, emit)
        return outcome(doc, crud.shown(doc, request.fields))
      }))
  ]
}

const INFO_SECTIONS: EntityService = {
  key: "infoSection",
  list: "infoSections",
  idParam: "infoSectionId",
  kind: Kinds.infoSection,
  maxLimit: MAX_ENTITY_PAGE.infoSections,
  counted: { request: "ASSIGNED_PRODUCTS_COUNT", field: "assignedProductsCount" },
  paths: {
    collection: EntityPaths.infoSections,
    query: EntityPaths.infoSectionsQuery,
    count: EntityPaths.infoSectionsCount,
    bulkCreate: EntityPaths.infoSectionsBulkCreate,
    bulkUpdate: EntityPaths.infoSectionsBulkUpdate,
    bulkDelete: EntityPaths.infoSectionsBulkDelete
  },
  schemas: { ...W.InfoSectionCalls, bulkResponse: W.BulkInfoSectionsResponse }
}
