/**
 * The paths of the catalog calls, as the platform's official client sends them: one export each, read as
 * `CatalogPaths.<name>` (protocol.ts), so a page bundles only the paths of the calls it makes.
 */
export const version = "/stores/v3/provision/version"

// catalog v1: readers
export const productsQuery = "/stores-reader/v1/products/query-platformized"
export const product = (id: string) => `/stores-reader/v1/products/${encodeURIComponent(id)}`
export const optionsAvailability = (id: string) => `/stores-reader/v1/products/${encodeURIComponent(id)}/productOptionsAvailability`
export const productVariantsQuery = (id: string) => `/stores-reader/v1/products/${encodeURIComponent(id)}/variants/query`
export const storeVariantsQuery = "/stores-reader/v1/variants/query"
export const storeVariant = (id: string) => `/stores-reader/v1/variants/${encodeURIComponent(id)}`
export const collectionBySlugV1 = (slug: string) => `/stores-reader/v1/collections/slug/${encodeURIComponent(slug)}`
export const collectionsQuery = "/v2/collections/query"
export const collection = (id: string) => `/v2/collections/${encodeURIComponent(id)}`
export const collectionBySlug = (slug: string) => `/v2/collections/slug/${encodeURIComponent(slug)}`

// catalog v1: writers
export const products = "/stores/v1/products"
export const writeProduct = (id: string) => `/stores/v1/products/${encodeURIComponent(id)}`
export const variants = (id: string) => `/stores/v1/products/${encodeURIComponent(id)}/variants`
export const resetVariants = (id: string) => `/stores/v1/products/${encodeURIComponent(id)}/variants/resetToDefault`
export const media = (id: string) => `/stores/v1/products/${encodeURIComponent(id)}/media`
export const removeMedia = (id: string) => `/stores/v1/products/${encodeURIComponent(id)}/media/delete`
export const choicesMedia = (id: string) => `/stores/v1/products/${encodeURIComponent(id)}/choices/media`
export const removeChoicesMedia = (id: string) => `/stores/v1/products/${encodeURIComponent(id)}/choices/media/delete`
export const options = (id: string) => `/stores/v1/products/${encodeURIComponent(id)}/options`
export const removeBrand = (id: string) => `/stores/v1/products/${encodeURIComponent(id)}/remove-brand`
export const removeRibbon = (id: string) => `/stores/v1/products/${encodeURIComponent(id)}/remove-ribbon`
export const collections = "/stores/v1/collections"
export const writeCollection = (id: string) => `/stores/v1/collections/${encodeURIComponent(id)}`
export const collectionProducts = (id: string) => `/stores/v1/collections/${encodeURIComponent(id)}/productIds`
export const removeCollectionProducts = (id: string) => `/stores/v1/collections/${encodeURIComponent(id)}/productIds/delete`
export const bulkUpdate = "/stores/v1/bulk/products/update"
export const bulkAdjust = "/stores/v1/bulk/products/adjust-properties"

// catalog v1 inventory (the v2 inventory items service)
export const inventoryUpdate = (productId: string) => `/stores/v2/inventoryItems/product/${encodeURIComponent(productId)}`
export const inventoryDecrement = "/stores/v2/inventoryItems/decrement"
export const inventoryIncrement = "/stores/v2/inventoryItems/increment"
export const inventoryVariants = (inventoryId: string) => `/stores-reader/v2/inventoryItems/${encodeURIComponent(inventoryId)}/getVariants`
export const inventoryQuery = "/stores-reader/v2/inventoryItems/query"
