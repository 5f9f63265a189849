/**
 * Every route the local platform serves, with a request of the shape it expects, for the hostile-input
 * suite: the fuzzer damages these samples and sends them as every kind of caller. `:name` marks a path
 * parameter the fuzzer fills in.
 */
import { CatalogPaths } from "../../../src/catalog/protocol.ts"
import { CHECKOUT_PAGE_PATH, CheckoutPaths } from "../../../src/ecom/checkoutProtocol.ts"
import { OrderPaths } from "../../../src/ecom/orderProtocol.ts"
import { CartV1Paths, CartV2Paths, STORES_APP_ID } from "../../../src/ecom/protocol.ts"
import { DataPaths, MovementJobPaths, PermissionPaths } from "../../../src/data/protocol.ts"
import { EventPaths } from "../../../src/events/protocol.ts"
import { MembersPaths } from "../../../src/members/protocol.ts"
import { Paths } from "../../../src/session/wire/index.ts"

export interface RouteCase {
  readonly method: "GET" | "POST" | "PUT" | "PATCH" | "DELETE"
  readonly path: string
  /** `json` bodies, a `form` body, or parameters in the query string (`query`). */
  readonly input: "json" | "form" | "query"
  readonly sample: Record<string, unknown>
  /** Answers an HTML page rather than the platform's JSON. */
  readonly page?: boolean
  /** A valid request changes state for everyone (reset, seed): sent nothing that could be valid. */
  readonly wipes?: boolean
  /** Does its work whatever it is sent (it reads no body or parameter that could make the request invalid). */
  readonly takesNothing?: boolean
  /** A valid request changes how the platform answers later ones (settings, clock, injected faults, hooks). */
  readonly steers?: boolean
}

const C = "Posts"
const item = { id: "fuzz-item", data: { title: "t", likes: 1, tags: ["a"], when: { $date: "2024-01-02T03:04:05.000Z" } } }
const filter = { $and: [{ likes: { $gt: 1 } }, { title: { $startsWith: "t" } }] }
const query = { filter, sort: [{ fieldName: "likes", order: "DESC" }], fields: ["title"], paging: { limit: 5, offset: 0 } }
const patch = { dataItemId: "welcome", fieldModifications: [{ fieldPath: "likes", action: "INCREMENT_FIELD", incrementFieldOptions: { value: 1 } }] }
const stages = [{ filter }, { group: { groupIds: [{ key: "t", expression: { fieldPath: "title" } }], accumulators: [{ resultFieldName: "n", sum: { expression: { numeric: 1 } } }] } }, { sort: { values: [{ fieldName: "n" }] } }, { skip: 0 }, { limit: 10 }]
const reference = { referringItemFieldName: "author", referringItemId: "welcome", referencedItemId: "ada" }
const productQuery = { query: { filter: { "priceData.price": { $gt: 5 } }, sort: [{ fieldName: "name", order: "ASC" }], paging: { limit: 5, offset: 0 } } }
const product = {
  name: "Fuzz Shirt",
  priceData: { price: 10 },
  discount: { type: "PERCENT", value: 10 },
  productOptions: [{ name: "Size", choices: [{ value: "S", description: "S" }] }],
  stock: { trackInventory: true, quantity: 2 }
}
const authRequest = {
  clientId: "sitefx-local-client",
  redirectUri: "http://localhost:5173/callback",
  codeChallenge: "x".repeat(43),
  codeChallengeMethod: "S256",
  responseMode: "query",
  responseType: "code",
  scope: "offline_access",
  state: "s"
}
const catalogReference = { appId: STORES_APP_ID, catalogItemId: "p", options: { variantId: "v" } }
const address = { addressLine1: "1 Main St", city: "London", country: "GB", postalCode: "N1" }
const contact = { address, contactDetails: { firstName: "Ada", lastName: "Lovelace", phone: "1" } }
const checkoutUpdate = { buyerInfo: { email: "ada@example.com" }, billingInfo: contact, shippingInfo: { shippingDestination: contact }, buyerNote: "n" }
const checkoutId = "00000000-0000-4000-8000-000000000000"
const checkoutForm = {
  token: "t",
  email: "ada@example.com",
  firstName: "Ada",
  lastName: "Lovelace",
  phone: "1",
  addressLine1: "1 Main St",
  addressLine2: "",
  city: "London",
  subdivision: "",
  postalCode: "N1",
  country: "GB"
}

export const ROUTES: ReadonlyArray<RouteCase> = [
  // OAuth, redirect sessions, pages
  { method: "POST", path: Paths.token, input: "json", sample: { grantType: "anonymous", clientId: "sitefx-local-client" } },
  { method: "POST", path: Paths.redirectSession, input: "json", sample: { auth: { authRequest, prompt: "login" } } },
  { method: "GET", path: "/oauth2/authorize", input: "query", sample: { redirectSession: "r" }, page: true },
  { method: "POST", path: "/oauth2/authorize", input: "form", sample: { redirectSession: "r", email: "a@b.c", password: "p" }, page: true },
  { method: "GET", path: "/oauth2/logout", input: "query", sample: { redirectSession: "r" }, page: true },
  { method: "GET", path: "/oauth2/session", input: "query", sample: { redirectSession: "r" }, page: true },
  { method: "GET", path: Paths.logout, input: "query", sample: { redirectSession: "r" }, page: true, takesNothing: true },
  { method: "POST", path: Paths.redirectSession, input: "json", sample: { ecomCheckout: { checkoutId }, callbacks: { postFlowUrl: "http://localhost:3000/cart", thankYouPageUrl: "http://localhost:3000/thanks" } } },
  // identity
  { method: "POST", path: Paths.register, input: "json", sample: { loginId: { email: "fuzz@example.com" }, password: "secret-pass", profile: { nickname: "n" } } },
  { method: "POST", path: Paths.login, input: "json", sample: { loginId: { email: "demo@sitefx.dev" }, password: "wrong" } },
  { method: "POST", path: Paths.signOn, input: "json", sample: { loginId: { email: "fuzz-sign-on@example.com" } } },
  { method: "POST", path: Paths.changePassword, input: "json", sample: { newPassword: "another-pass" } },
  { method: "POST", path: "/_api/iam/authentication/v2/:factorType/verify", input: "json", sample: { stateToken: "t", factorData: { code: "1" } } },
  { method: "POST", path: Paths.verifyDuringAuth, input: "json", sample: { stateToken: "t", verificationCode: "123456" } },
  { method: "POST", path: Paths.startVerification, input: "json", sample: { identityId: "x", target: "EMAIL" } },
  { method: "POST", path: Paths.sendRecoveryEmail, input: "json", sample: { email: "nobody@example.com" } },
  { method: "POST", path: Paths.activationEmail, input: "json", sample: { email: "nobody@example.com" } },
  { method: "POST", path: Paths.recover, input: "json", sample: { recoveryToken: "t", password: "new-secret" } },
  { method: "GET", path: Paths.myMember, input: "query", sample: { fieldsets: "FULL" } },
  // members admin (API keys): the fuzzer knows no member's id, so approve and block find nobody to change
  { method: "GET", path: MembersPaths.members, input: "query", sample: { paging: { limit: 5, offset: 0 }, fieldsets: ["FULL"], sorting: [{ fieldName: "createdDate", order: "DESC" }] } },
  {
    method: "POST",
    path: MembersPaths.query,
    input: "json",
    sample: {
      fieldsets: ["FULL"],
      query: { filter: { $and: [{ status: "APPROVED" }, { loginEmail: { $startsWith: "demo" } }] }, paging: { limit: 5, offset: 0 }, sort: [{ fieldName: "loginEmail", order: "ASC" }] },
      search: { expression: "demo", fields: ["loginEmail"] }
    }
  },
  { method: "GET", path: "/members/v1/members/:id", input: "query", sample: { id: "nobody", fieldsets: ["PUBLIC", "FULL"] } },
  { method: "POST", path: "/members/v1/members/:id/approve", input: "json", sample: { id: "nobody" } },
  { method: "POST", path: "/members/v1/members/:id/block", input: "json", sample: { id: "nobody" } },
  // data items
  { method: "GET", path: "/wix-data/v2/items/:dataItemId", input: "query", sample: { dataCollectionId: C, fields: "title" } },
  { method: "POST", path: DataPaths.insert, input: "json", sample: { dataCollectionId: C, dataItem: item } },
  { method: "POST", path: DataPaths.update, input: "json", sample: { dataCollectionId: C, dataItem: { ...item, id: "welcome" } } },
  { method: "POST", path: DataPaths.save, input: "json", sample: { dataCollectionId: C, dataItem: item } },
  { method: "POST", path: DataPaths.patch, input: "json", sample: { dataCollectionId: C, patch } },
  { method: "POST", path: DataPaths.remove, input: "json", sample: { dataCollectionId: C, dataItemId: "welcome" } },
  { method: "POST", path: DataPaths.truncate, input: "json", sample: { dataCollectionId: C } },
  { method: "GET", path: DataPaths.query, input: "query", sample: { dataCollectionId: C, query } },
  { method: "POST", path: DataPaths.query, input: "json", sample: { dataCollectionId: C, query, returnTotalCount: true, includeReferences: [{ field: "author" }] } },
  { method: "POST", path: DataPaths.count, input: "json", sample: { dataCollectionId: C, filter, environment: "SANDBOX_PREFERRED" } },
  { method: "POST", path: DataPaths.distinct, input: "json", sample: { dataCollectionId: C, fieldName: "tags", filter, paging: { limit: 5, offset: 0 } } },
  { method: "POST", path: DataPaths.search, input: "json", sample: { dataCollectionId: C, search: { ...query, search: { expression: "hello world", fuzzy: true } } } },
  { method: "POST", path: DataPaths.aggregate, input: "json", sample: { dataCollectionId: C, initialFilter: filter, aggregation: { groupingFields: ["title"], operations: [{ resultFieldName: "n", itemCount: {} }] }, paging: { limit: 5, offset: 0 } } },
  { method: "POST", path: DataPaths.aggregatePipeline, input: "json", sample: { dataCollectionId: C, pipeline: { stages, paging: { limit: 5, offset: 0 } } } },
  // references
  { method: "POST", path: DataPaths.queryReferenced, input: "json", sample: { dataCollectionId: C, referringItemFieldName: "author", referringItemIds: ["welcome"], paging: { limit: 5, offset: 0 } } },
  { method: "POST", path: DataPaths.isReferenced, input: "json", sample: { dataCollectionId: C, ...reference } },
  { method: "POST", path: DataPaths.replaceReferences, input: "json", sample: { dataCollectionId: C, referringItemFieldName: "author", referringItemId: "welcome", newReferencedItemIds: ["ada"] } },
  { method: "POST", path: DataPaths.bulkInsertReferences, input: "json", sample: { dataCollectionId: C, dataItemReferences: [reference] } },
  { method: "POST", path: DataPaths.bulkRemoveReferences, input: "json", sample: { dataCollectionId: C, dataItemReferences: [reference] } },
  // bulk and async jobs
  { method: "POST", path: DataPaths.bulkInsert, input: "json", sample: { dataCollectionId: C, dataItems: [item, { data: { title: "u" } }], environment: "SANDBOX_PREFERRED" } },
  { method: "POST", path: DataPaths.bulkUpdate, input: "json", sample: { dataCollectionId: C, dataItems: [{ ...item, id: "welcome" }] } },
  { method: "POST", path: DataPaths.bulkSave, input: "json", sample: { dataCollectionId: C, dataItems: [item] } },
  { method: "POST", path: DataPaths.bulkPatch, input: "json", sample: { dataCollectionId: C, patches: [patch] } },
  { method: "POST", path: DataPaths.bulkRemove, input: "json", sample: { dataCollectionId: C, dataItemIds: ["welcome"] } },
  { method: "POST", path: DataPaths.asyncPatchByFilter, input: "json", sample: { dataCollectionId: C, filter, fieldModifications: patch.fieldModifications } },
  { method: "POST", path: DataPaths.asyncRemoveByFilter, input: "json", sample: { dataCollectionId: C, filter } },
  { method: "GET", path: "/wix-data/v2/async-jobs/:jobId/status", input: "query", sample: {} },
  // collections and indexes
  { method: "GET", path: DataPaths.collections, input: "query", sample: { paging: { limit: 5, offset: 0 } } },
  { method: "GET", path: DataPaths.collectionsQuery, input: "query", sample: { query: { filter: { _id: C } } } },
  { method: "GET", path: "/wix-data/v2/collections/:id", input: "query", sample: {} },
  { method: "GET", path: "/wix-data/v2/collections/slug/:slug", input: "query", sample: {} },
  { method: "POST", path: DataPaths.collections, input: "json", sample: { collection: { id: "FuzzNew", fields: [{ key: "title", type: "TEXT" }] } } },
  { method: "PUT", path: DataPaths.collections, input: "json", sample: { collection: { id: C, revision: "1", fields: [{ key: "title", type: "TEXT" }] } } },
  { method: "DELETE", path: "/wix-data/v2/collections/:id", input: "query", sample: {} },
  { method: "POST", path: DataPaths.createField, input: "json", sample: { dataCollectionId: C, field: { key: "extra", type: "TEXT" } } },
  { method: "POST", path: DataPaths.updateField, input: "json", sample: { dataCollectionId: C, field: { key: "title", type: "TEXT" } } },
  { method: "POST", path: DataPaths.deleteField, input: "json", sample: { dataCollectionId: C, fieldKey: "extra" } },
  { method: "GET", path: DataPaths.indexes, input: "query", sample: { dataCollectionId: C, paging: { limit: 5 } } },
  { method: "POST", path: DataPaths.indexes, input: "json", sample: { dataCollectionId: C, index: { name: "byLikes", fields: [{ path: "likes", order: "ASC" }] } } },
  { method: "DELETE", path: DataPaths.indexes, input: "query", sample: { dataCollectionId: C, indexName: "byLikes" } },
  // permissions
  { method: "GET", path: PermissionPaths.mine, input: "query", sample: { dataCollectionId: C } },
  // backups
  { method: "POST", path: DataPaths.backups, input: "json", sample: {} },
  { method: "GET", path: DataPaths.backups, input: "query", sample: { status: "READY", type: "ON_DEMAND", paging: { limit: 5, offset: 0 } } },
  { method: "GET", path: DataPaths.restorations, input: "query", sample: { status: "COMPLETED", paging: { limit: 5 } } },
  { method: "POST", path: "/wix-data/v2/backups/:backupId/restore", input: "json", sample: { backupId: "nope" } },
  { method: "POST", path: "/wix-data/v2/backups/:backupId/partial-restore", input: "json", sample: { backupId: "nope", restorationCollections: [{ dataCollectionId: C, restoreDestination: { dataCollectionId: "PostsCopy" } }] } },
  { method: "DELETE", path: "/wix-data/v2/backups/:backupId", input: "query", sample: { backupId: "nope" } },
  // data movement jobs, and the file URLs they give out
  {
    method: "POST",
    path: MovementJobPaths.jobs,
    input: "json",
    sample: {
      source: { wixDataCollection: { collectionId: C, filterQuery: { filter, fields: ["title", "likes"] } } },
      destination: { wixDataCollection: { collectionId: "Authors", writePolicy: "SKIP_EXISTING" } },
      name: "fuzz"
    }
  },
  { method: "POST", path: MovementJobPaths.uploadUrl, input: "json", sample: { fileName: "fuzz.csv" } },
  { method: "GET", path: MovementJobPaths.jobs, input: "query", sample: { paging: { limit: 5, cursor: "c" } } },
  { method: "POST", path: "/data-mover/v1/jobs/list", input: "json", sample: { paging: { limit: 5 } } },
  { method: "GET", path: MovementJobPaths.query, input: "query", sample: { query: { filter: { status: "COMPLETED" }, sort: [{ fieldName: "startedAt", order: "DESC" }], cursorPaging: { limit: 5 } } } },
  { method: "POST", path: MovementJobPaths.query, input: "json", sample: { query: { filter: { name: { $startsWith: "f" } }, cursorPaging: { limit: 5 } } } },
  { method: "GET", path: "/data-mover/v1/jobs/:jobId", input: "query", sample: {} },
  { method: "POST", path: "/data-mover/v1/jobs/:jobId/terminate", input: "json", sample: { jobId: "j" } },
  { method: "GET", path: "/data-mover/v1/jobs/:jobId/logs", input: "query", sample: { paging: { limit: 5, cursor: "c" } } },
  { method: "PUT", path: "/data-mover/v1/temporary-files/:fileId", input: "json", sample: { title: "t" } },
  { method: "GET", path: "/data-mover/v1/files/:fileId", input: "query", sample: { token: "t" } },
  // the store: catalog v1 products, collections, inventory, media
  { method: "GET", path: CatalogPaths.productsQuery, input: "query", sample: productQuery },
  { method: "POST", path: CatalogPaths.productsQuery, input: "json", sample: { ...productQuery, includeVariants: true } },
  { method: "GET", path: "/stores-reader/v1/products/:id", input: "query", sample: {} },
  { method: "POST", path: "/stores-reader/v1/products/:id/productOptionsAvailability", input: "json", sample: { options: { Size: "S" } } },
  { method: "POST", path: "/stores-reader/v1/products/:id/variants/query", input: "json", sample: { choices: { Size: "S" }, paging: { limit: 5 } } },
  { method: "POST", path: CatalogPaths.storeVariantsQuery, input: "json", sample: productQuery },
  { method: "GET", path: "/stores-reader/v1/variants/:id", input: "query", sample: {} },
  { method: "POST", path: CatalogPaths.products, input: "json", sample: { product } },
  { method: "PATCH", path: "/stores/v1/products/:id", input: "json", sample: { product: { name: "Renamed" } } },
  { method: "DELETE", path: "/stores/v1/products/:id", input: "query", sample: {} },
  { method: "PATCH", path: "/stores/v1/products/:id/variants", input: "json", sample: { variants: [{ choices: { Size: "S" }, price: 3 }] } },
  { method: "POST", path: "/stores/v1/products/:id/variants/resetToDefault", input: "json", sample: {}, takesNothing: true },
  { method: "POST", path: "/stores/v1/products/:id/media", input: "json", sample: { media: [{ mediaId: "fuzz.svg" }] } },
  { method: "POST", path: "/stores/v1/products/:id/media/delete", input: "json", sample: { mediaIds: ["fuzz.svg"] } },
  { method: "PATCH", path: "/stores/v1/products/:id/choices/media", input: "json", sample: { media: [{ option: "Size", choice: "S", mediaIds: ["fuzz.svg"] }] } },
  { method: "DELETE", path: "/stores/v1/products/:id/options", input: "query", sample: {} },
  { method: "POST", path: "/stores/v1/products/:id/remove-brand", input: "json", sample: {}, takesNothing: true },
  { method: "POST", path: CatalogPaths.bulkUpdate, input: "json", sample: { ids: ["x"], set: { price: 3 } } },
  { method: "POST", path: CatalogPaths.bulkAdjust, input: "json", sample: { ids: ["x"], adjust: { price: { percentage: { rate: 5 } } } } },
  { method: "GET", path: CatalogPaths.collectionsQuery, input: "query", sample: productQuery },
  { method: "GET", path: "/v2/collections/:id", input: "query", sample: {} },
  { method: "GET", path: "/stores-reader/v1/collections/slug/:slug", input: "query", sample: {} },
  { method: "POST", path: CatalogPaths.collections, input: "json", sample: { collection: { name: "Fuzz" } } },
  { method: "PATCH", path: "/stores/v1/collections/:id", input: "json", sample: { collection: { name: "Fuzz 2" } } },
  { method: "POST", path: "/stores/v1/collections/:id/productIds", input: "json", sample: { productIds: ["x"] } },
  { method: "PATCH", path: "/stores/v2/inventoryItems/product/:productId", input: "json", sample: { inventoryItem: { trackQuantity: true, variants: [{ variantId: "v", quantity: 1 }] } } },
  { method: "POST", path: CatalogPaths.inventoryDecrement, input: "json", sample: { decrementData: [{ productId: "p", variantId: "v", decrementBy: 1 }] } },
  { method: "POST", path: CatalogPaths.inventoryIncrement, input: "json", sample: { incrementData: [{ productId: "p", variantId: "v", incrementBy: 1 }] } },
  { method: "POST", path: "/stores-reader/v2/inventoryItems/:inventoryId/getVariants", input: "json", sample: { variantIds: ["v"] } },
  { method: "POST", path: CatalogPaths.inventoryQuery, input: "json", sample: { query: { filter: "{}", paging: { limit: 5 } } } },
  { method: "GET", path: "/media/:id", input: "query", sample: {}, takesNothing: true },
  // ecom: current carts V1 and V2 (the caller's own), checkouts, the hosted checkout page, orders (API keys)
  // the current cart's GETs read no parameter; a member's also takes over the carts of visitors who signed in as them
  { method: "GET", path: CartV1Paths.current, input: "query", sample: {}, takesNothing: true },
  { method: "PATCH", path: CartV1Paths.current, input: "json", sample: { lineItems: [{ catalogReference, quantity: 1 }], couponCode: "c" } },
  { method: "DELETE", path: CartV1Paths.current, input: "query", sample: {}, takesNothing: true },
  { method: "POST", path: CartV1Paths.addToCart, input: "json", sample: { lineItems: [{ catalogReference, quantity: 2 }], businessLocationId: "l" } },
  { method: "POST", path: CartV1Paths.updateQuantities, input: "json", sample: { lineItems: [{ id: "l", quantity: 3 }] } },
  { method: "POST", path: CartV1Paths.removeLineItems, input: "json", sample: { lineItemIds: ["l"] } },
  { method: "POST", path: CartV1Paths.estimateTotals, input: "json", sample: { shippingAddress: address, calculateTax: true, calculateShipping: true } },
  { method: "POST", path: CartV1Paths.createCheckout, input: "json", sample: { channelType: "WEB", email: "ada@example.com", shippingAddress: address } },
  { method: "POST", path: CartV2Paths.current, input: "json", sample: { cart: { note: "n" }, catalogItems: [{ catalogReference, quantity: 1 }] } },
  { method: "GET", path: CartV2Paths.current, input: "query", sample: {}, takesNothing: true },
  { method: "DELETE", path: CartV2Paths.current, input: "query", sample: {}, takesNothing: true },
  { method: "POST", path: CartV2Paths.addLineItems, input: "json", sample: { catalogItems: [{ catalogReference, quantity: 1 }] } },
  { method: "POST", path: CartV2Paths.updateLineItems, input: "json", sample: { lineItems: [{ lineItemId: "l", quantity: { newQuantity: 2 } }] } },
  { method: "POST", path: CartV2Paths.removeLineItems, input: "json", sample: { lineItemIds: ["l"] } },
  { method: "POST", path: CartV2Paths.estimate, input: "json", sample: {} },
  { method: "POST", path: CartV2Paths.calculate, input: "json", sample: {} },
  { method: "POST", path: CheckoutPaths.create, input: "json", sample: { lineItems: [{ catalogReference, quantity: 1 }], channelType: "WEB", checkoutInfo: checkoutUpdate } },
  { method: "GET", path: "/ecom/v1/checkouts/:id", input: "query", sample: {} },
  { method: "PATCH", path: "/ecom/v1/checkouts/:id", input: "json", sample: { checkout: checkoutUpdate, couponCode: "c" } },
  { method: "GET", path: "/ecom/v1/checkouts/:id/checkout-url", input: "query", sample: {} },
  { method: "POST", path: "/ecom/v1/checkouts/:id/mark-as-completed", input: "json", sample: {}, takesNothing: true },
  { method: "GET", path: CHECKOUT_PAGE_PATH, input: "query", sample: { checkoutId }, page: true },
  { method: "GET", path: CHECKOUT_PAGE_PATH, input: "query", sample: { redirectSession: "r" }, page: true },
  { method: "GET", path: CHECKOUT_PAGE_PATH, input: "query", sample: { cartId: checkoutId }, page: true },
  { method: "POST", path: CHECKOUT_PAGE_PATH, input: "form", sample: checkoutForm, page: true },
  { method: "GET", path: "/ecom/v1/orders/:id", input: "query", sample: {} },
  {
    method: "POST",
    path: OrderPaths.search,
    input: "json",
    sample: { search: { filter: { status: "APPROVED", "priceSummary.total.amount": { $gt: "1" } }, sort: [{ fieldName: "number", order: "ASC" }], cursorPaging: { limit: 5, cursor: "c" } } }
  },
  { method: "POST", path: "/ecom/v1/orders/:id/cancel", input: "json", sample: { sendOrderCanceledEmail: false, customMessage: "m", restockAllItems: true } },
  { method: "POST", path: "/ecom/v1/payments-collector/orders/:ecomOrderId/mark-as-paid", input: "json", sample: { userDefinedPaymentMethodName: { predefined: "CASH" } } },
  { method: "GET", path: "/ecom/v1/fulfillments/orders/:orderId", input: "query", sample: {} },
  {
    method: "POST",
    path: "/ecom/v1/fulfillments/orders/:orderId/create-fulfillment",
    input: "json",
    sample: { fulfillment: { lineItems: [{ id: "l", quantity: 1 }], trackingInfo: { trackingNumber: "1", shippingProvider: "ups" }, status: "s", completed: true } }
  },
  // events (the live stream answers forever: its refusals are tested in test/events/live.test.ts)
  { method: "GET", path: EventPaths.publicKey, input: "query", sample: {}, takesNothing: true },
  { method: "POST", path: EventPaths.webhooks, input: "json", sample: { url: "http://127.0.0.1:9/hook", eventTypes: ["wix.data.v2.data_item_created"] } },
  { method: "GET", path: EventPaths.webhooks, input: "query", sample: {}, takesNothing: true },
  { method: "DELETE", path: `${EventPaths.webhooks}/:id`, input: "query", sample: {} },
  { method: "POST", path: "/_sitefx/webhooks", input: "json", sample: { url: "http://127.0.0.1:9/hook" }, steers: true },
  { method: "GET", path: "/_sitefx/webhooks", input: "query", sample: {}, takesNothing: true },
  { method: "GET", path: "/_sitefx/webhooks/public-key", input: "query", sample: {}, takesNothing: true },
  { method: "GET", path: "/_sitefx/webhooks/dead-letters", input: "query", sample: { webhookId: "w" } },
  { method: "POST", path: "/_sitefx/webhooks/dead-letters/:id/redeliver", input: "query", sample: {}, steers: true, takesNothing: true },
  { method: "POST", path: "/_sitefx/webhooks/dead-letters/redeliver", input: "query", sample: {}, steers: true, takesNothing: true },
  { method: "DELETE", path: "/_sitefx/webhooks/dead-letters", input: "query", sample: { webhookId: "w" }, steers: true },
  // dev endpoints
  { method: "GET", path: "/_sitefx/health", input: "query", sample: {} },
  { method: "GET", path: "/_sitefx/outbox", input: "query", sample: { to: "demo@sitefx.dev" } },
  { method: "GET", path: "/_sitefx/whoami", input: "query", sample: {} },
  { method: "GET", path: "/_sitefx/members", input: "query", sample: {} },
  { method: "GET", path: "/_sitefx/clock", input: "query", sample: {} },
  { method: "GET", path: "/_sitefx/settings", input: "query", sample: {} },
  { method: "GET", path: "/_sitefx/profile", input: "query", sample: {} },
  { method: "GET", path: "/_sitefx/stats", input: "query", sample: {} },
  // the filters keep matching earlier refused member calls, so a `wait` the fuzzer sets never holds the request
  {
    method: "GET",
    path: "/_sitefx/requests",
    input: "query",
    sample: { status: "4xx", caller: "member", path: "/wix-data", method: "POST", after: 0, limit: 10, wait: 0, dev: "true", advice: "false" }
  },
  { method: "POST", path: "/_sitefx/reset", input: "json", sample: {}, wipes: true, takesNothing: true },
  { method: "POST", path: "/_sitefx/seed", input: "json", sample: { seed: "demo" }, wipes: true },
  { method: "POST", path: "/_sitefx/clock", input: "json", sample: { skewSeconds: 0 }, steers: true },
  { method: "PATCH", path: "/_sitefx/settings", input: "json", sample: { captcha: false }, steers: true },
  { method: "POST", path: "/_sitefx/profile", input: "json", sample: { profile: "none", plan: "free" }, steers: true },
  { method: "POST", path: "/_sitefx/captcha", input: "json", sample: {}, takesNothing: true },
  { method: "POST", path: "/_sitefx/faults", input: "json", sample: { path: "/nowhere", status: 503, count: 1 }, steers: true },
  {
    method: "POST",
    path: "/_sitefx/faults",
    input: "json",
    sample: { path: "/nowhere", method: "POST", kind: "latency", ms: 5, count: 2, rate: 0.5, seed: 3 },
    steers: true
  },
  { method: "POST", path: "/_sitefx/faults", input: "json", sample: { path: "/nowhere", kind: "reset", when: "after", count: 1 }, steers: true },
  { method: "DELETE", path: "/_sitefx/faults/:id", input: "query", sample: {}, steers: true },
  { method: "DELETE", path: "/_sitefx/faults", input: "query", sample: {}, steers: true },
  { method: "GET", path: "/_sitefx/faults", input: "query", sample: {}, takesNothing: true },
  // the console's page and assets: a name the fuzzer fills must never reach a file outside the console's build
  { method: "GET", path: "/_sitefx/console/:name", input: "query", sample: {}, page: true },
  { method: "GET", path: "/_sitefx/console/assets/:name", input: "query", sample: {}, page: true },
  { method: "POST", path: "/_sitefx/members/:id/approve", input: "json", sample: {}, steers: true },
  { method: "POST", path: "/_sitefx/members/:id/block", input: "json", sample: {}, steers: true },
  { method: "POST", path: "/_sitefx/members/:id/require-reset", input: "json", sample: {}, steers: true },
  { method: "POST", path: "/_sitefx/members/:id/factors", input: "json", sample: { factorType: "TOTP" }, steers: true },
  { method: "DELETE", path: "/_sitefx/members/:id/factors/:factorId", input: "query", sample: {}, steers: true },
  { method: "POST", path: "/_sitefx/data/hooks", input: "json", sample: { dataCollectionId: C, hook: "beforeInsert", error: { name: "Error", message: "m" } }, steers: true },
  { method: "DELETE", path: "/_sitefx/data/hooks", input: "query", sample: {}, steers: true },
  { method: "GET", path: "/_sitefx/data/sandboxes", input: "query", sample: {}, takesNothing: true },
  { method: "POST", path: "/_sitefx/data/sandboxes", input: "json", sample: { dataCollectionId: C, empty: true }, steers: true },
  { method: "DELETE", path: "/_sitefx/data/sandboxes/:dataCollectionId", input: "query", sample: { dataCollectionId: C }, steers: true },
  { method: "POST", path: "/_sitefx/data/sandboxes/:dataCollectionId/sync", input: "json", sample: { dataCollectionId: C, direction: "LIVE_TO_SANDBOX" }, steers: true },
  { method: "POST", path: "/_sitefx/data/movement-jobs/hold", input: "json", sample: { batches: 1 }, steers: true },
  { method: "DELETE", path: "/_sitefx/data/movement-jobs/hold", input: "query", sample: {}, steers: true, takesNothing: true },
  { method: "GET", path: "/_sitefx/snapshots", input: "query", sample: {}, takesNothing: true },
  { method: "POST", path: "/_sitefx/snapshots", input: "json", sample: { name: "fuzz", overwrite: true }, steers: true },
  { method: "GET", path: "/_sitefx/snapshots/:name", input: "query", sample: {} },
  { method: "GET", path: "/_sitefx/snapshots/:name/file", input: "query", sample: {} },
  { method: "POST", path: "/_sitefx/snapshots/:name/restore", input: "json", sample: {}, wipes: true },
  { method: "DELETE", path: "/_sitefx/snapshots/:name", input: "query", sample: {}, steers: true }
]
