/** Brands on the wire: a name shown with products, unique in the store. */
import { BRAND_FIELDS, NAME_LIMITS } from "../protocol.ts"
import { namedEntity } from "./common.ts"

const brands = namedEntity("brand", "brands", "assignedProductsCount", NAME_LIMITS.brand, BRAND_FIELDS)

/** A brand: a name shown with products (unique in the store). */
export const Brand = brands.entity
export type Brand = typeof Brand.Type
export const { fields: BrandFields, request: BrandRequest, updateRequest: BrandUpdateRequest, response: BrandResponse } = brands
export const { getRequest: GetBrandRequest, deleteRequest: DeleteBrandRequest, queryRequest: QueryBrandsRequest, queryResponse: QueryBrandsResponse } = brands
export const { bulkCreateRequest: BulkCreateBrandsRequest, masked: MaskedBrand, bulkUpdateRequest: BulkUpdateBrandsRequest } = brands
export const { bulkDeleteRequest: BulkDeleteBrandsRequest, bulkResponse: BulkBrandsResponse } = brands
export const { getOrCreateRequest: GetOrCreateBrandRequest, bulkGetOrCreateRequest: BulkGetOrCreateBrandsRequest } = brands
export type BrandResponse = typeof BrandResponse.Type
export type QueryBrandsResponse = typeof QueryBrandsResponse.Type
export type BulkBrandsResponse = typeof BulkBrandsResponse.Type
