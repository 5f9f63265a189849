/** Brands on the wire: a name shown with products, unique in the store. */
import { BRAND_FIELDS, NAME_LIMITS } from "../protocol.ts"
import { namedEntity } from "./common.ts"

/** The Schemas of every brands call, as one record (the local platform serves them from it). */
export const BrandCalls = namedEntity("brand", "brands", "assignedProductsCount", NAME_LIMITS.brand, BRAND_FIELDS)

/** A brand: a name shown with products (unique in the store). */
export const Brand = BrandCalls.entity
export type Brand = typeof Brand.Type
export const { fields: BrandFields, request: BrandRequest, updateRequest: BrandUpdateRequest, response: BrandResponse } = BrandCalls
export const { getRequest: GetBrandRequest, deleteRequest: DeleteBrandRequest, queryRequest: QueryBrandsRequest, queryResponse: QueryBrandsResponse } = BrandCalls
export const { bulkCreateRequest: BulkCreateBrandsRequest, masked: MaskedBrand, bulkUpdateRequest: BulkUpdateBrandsRequest } = BrandCalls
export const { bulkDeleteRequest: BulkDeleteBrandsRequest, bulkResponse: BulkBrandsResponse } = BrandCalls
export const { getOrCreateRequest: GetOrCreateBrandRequest, bulkGetOrCreateRequest: BulkGetOrCreateBrandsRequest } = BrandCalls
export type BrandResponse = typeof BrandResponse.Type
export type QueryBrandsResponse = typeof QueryBrandsResponse.Type
export type BulkBrandsResponse = typeof BulkBrandsResponse.Type
