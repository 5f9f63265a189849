/** Ribbons on the wire: a short label shown over products ("Sale", "New"), unique in the store. */
import { NAME_LIMITS, RIBBON_FIELDS } from "../protocol.ts"
import { namedEntity } from "./common.ts"

const ribbons = namedEntity("ribbon", "ribbons", "assignedProductCount", NAME_LIMITS.ribbon, RIBBON_FIELDS)

/** A ribbon: a short label shown over products ("Sale", "New"), unique in the store. */
export const RibbonV3 = ribbons.entity
export type RibbonV3 = typeof RibbonV3.Type
export const { fields: RibbonFields, request: RibbonRequest, updateRequest: RibbonUpdateRequest, response: RibbonResponse } = ribbons
export const { getRequest: GetRibbonRequest, deleteRequest: DeleteRibbonRequest, queryRequest: QueryRibbonsRequest, queryResponse: QueryRibbonsResponse } = ribbons
export const { bulkCreateRequest: BulkCreateRibbonsRequest, masked: MaskedRibbon, bulkUpdateRequest: BulkUpdateRibbonsRequest } = ribbons
export const { bulkDeleteRequest: BulkDeleteRibbonsRequest, bulkResponse: BulkRibbonsResponse } = ribbons
export const { getOrCreateRequest: GetOrCreateRibbonRequest, bulkGetOrCreateRequest: BulkGetOrCreateRibbonsRequest } = ribbons
export type RibbonResponse = typeof RibbonResponse.Type
export type QueryRibbonsResponse = typeof QueryRibbonsResponse.Type
export type BulkRibbonsResponse = typeof BulkRibbonsResponse.Type
