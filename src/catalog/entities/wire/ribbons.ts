/** Ribbons on the wire: a short label shown over products ("Sale", "New"), unique in the store. */
import { NAME_LIMITS, RIBBON_FIELDS } from "../protocol.ts"
import { namedEntity } from "./common.ts"

/** The Schemas of every ribbons call, as one record (the local platform serves them from it). */
export const RibbonCalls = namedEntity("ribbon", "ribbons", "assignedProductCount", NAME_LIMITS.ribbon, RIBBON_FIELDS)

/** A ribbon: a short label shown over products ("Sale", "New"), unique in the store. */
export const RibbonV3 = RibbonCalls.entity
export type RibbonV3 = typeof RibbonV3.Type
export const { fields: RibbonFields, request: RibbonRequest, updateRequest: RibbonUpdateRequest, response: RibbonResponse } = RibbonCalls
export const { getRequest: GetRibbonRequest, deleteRequest: DeleteRibbonRequest, queryRequest: QueryRibbonsRequest, queryResponse: QueryRibbonsResponse } = RibbonCalls
export const { bulkCreateRequest: BulkCreateRibbonsRequest, masked: MaskedRibbon, bulkUpdateRequest: BulkUpdateRibbonsRequest } = RibbonCalls
export const { bulkDeleteRequest: BulkDeleteRibbonsRequest, bulkResponse: BulkRibbonsResponse } = RibbonCalls
export const { getOrCreateRequest: GetOrCreateRibbonRequest, bulkGetOrCreateRequest: BulkGetOrCreateRibbonsRequest } = RibbonCalls
export type RibbonResponse = typeof RibbonResponse.Type
export type QueryRibbonsResponse = typeof QueryRibbonsResponse.Type
export type BulkRibbonsResponse = typeof BulkRibbonsResponse.Type
