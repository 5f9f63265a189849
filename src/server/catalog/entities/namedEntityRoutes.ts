/**
 * The brand and ribbon calls: the ones every entity service answers (crudRoutes.ts), and get-or-create
 * by name, one and in bulk.
 */
import type * as Schema from "effect/Schema"
import type * as HttpRouter from "effect/http/HttpRouter"
import { EntityPaths, MAX_ENTITY_PAGE } from "../../../catalog/entities/protocol.ts"
import * as W from "../../../catalog/entities/wire/index.ts"
import type { Json } from "../../store/values.ts"
import type { StoreAccess } from "../access.ts"
import { entityCrud, type EntityService, outcome } from "./crudRoutes.ts"
import { bulk, type Engine, Kinds } from "./engine.ts"
import type { EntityTableShape } from "./entityTables.ts"
import { namedOps } from "./namedEntityRules.ts"

export const brandRoutes = (table: EntityTableShape, engine: Engine, access: StoreAccess) => namedRoutes(BRANDS, table, engine, access)
export const ribbonRoutes = (table: EntityTableShape, engine: Engine, access: StoreAccess) => namedRoutes(RIBBONS, table, engine, access)

const namedRoutes = (service: NamedService, table: EntityTableShape, engine: Engine, access: StoreAccess): ReadonlyArray<HttpRouter.Route<never, never>> => {
  const ops = namedOps(service, table, engine)
  const { getOrCreate } = service
  const crud = entityCrud(service, ops, table, engine, access)

  return [
    ...crud.routes,
    crud.write("POST", getOrCreate.path, getOrCreate.schema, (request: Json, actor, emit) =>
      ops.getOrCreate(request[getOrCreate.name], getOrCreate.name, actor, emit)),
    crud.bulkWrite(getOrCreate.bulkPath, getOrCreate.bulkSchema, (request: Json, actor, emit) =>
      bulk(request[getOrCreate.names] as ReadonlyArray<string>, (name, i) => {
        const doc = ops.getOrCreate(name, `${getOrCreate.names}[${i}]`, actor, emit)
        return outcome(doc, crud.shown(doc, request["fields"] as ReadonlyArray<string> | undefined))
      }))
  ]
}

interface NamedService extends EntityService {
  /** Event slug and the wire key of one entity (`brand`). */
  readonly key: "brand" | "ribbon"
  /** Get-or-create by name (`brandName`), and its bulk form over a list of names (`brandNames`). */
  readonly getOrCreate: {
    readonly path: HttpRouter.PathInput
    readonly bulkPath: HttpRouter.PathInput
    readonly schema: Schema.Codec<any, any>
    readonly bulkSchema: Schema.Codec<any, any>
    readonly name: string
    readonly names: string
  }
}

const BRANDS: NamedService = {
  key: "brand",
  list: "brands",
  idParam: "brandId",
  kind: Kinds.brand,
  maxLimit: MAX_ENTITY_PAGE.brands,
  counted: { request: "ASSIGNED_PRODUCTS_COUNT", field: "assignedProductsCount" },
  paths: {
    collection: EntityPaths.brands,
    query: EntityPaths.brandsQuery,
    count: EntityPaths.brandsCount,
    bulkCreate: EntityPaths.brandsBulkCreate,
    bulkUpdate: EntityPaths.brandsBulkUpdate,
    bulkDelete: EntityPaths.brandsBulkDelete
  },
  schemas: W.BrandCalls,
  getOrCreate: {
    path: EntityPaths.brandGetOrCreate,
    bulkPath: EntityPaths.brandsBulkGetOrCreate,
    schema: W.GetOrCreateBrandRequest,
    bulkSchema: W.BulkGetOrCreateBrandsRequest,
    name: "brandName",
    names: "brandNames"
  }
}

const RIBBONS: NamedService = {
  key: "ribbon",
  list: "ribbons",
  idParam: "ribbonId",
  kind: Kinds.ribbon,
  maxLimit: MAX_ENTITY_PAGE.ribbons,
  counted: { request: "ASSIGNED_PRODUCT_COUNT", field: "assignedProductCount" },
  paths: {
    collection: EntityPaths.ribbons,
    query: EntityPaths.ribbonsQuery,
    count: EntityPaths.ribbonsCount,
    bulkCreate: EntityPaths.ribbonsBulkCreate,
    bulkUpdate: EntityPaths.ribbonsBulkUpdate,
    bulkDelete: EntityPaths.ribbonsBulkDelete
  },
  schemas: W.RibbonCalls,
  getOrCreate: {
    path: EntityPaths.ribbonGetOrCreate,
    bulkPath: EntityPaths.ribbonsBulkGetOrCreate,
    schema: W.GetOrCreateRibbonRequest,
    bulkSchema: W.BulkGetOrCreateRibbonsRequest,
    name: "ribbonName",
    names: "ribbonNames"
  }
}
