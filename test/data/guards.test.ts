/**
 * The guards that check the data platform's answers on the client (src/data/guards/): each guard's type
 * is its wire Schema's type (checked by the compiler, so a guard and its Schema cannot drift apart), what
 * a guard refuses is said with its place, and what the platform may leave out or send as null passes.
 */
import { assert, describe, it } from "@effect/vitest"
import * as Guards from "../../src/data/guards/index.ts"
import type * as W from "../../src/data/wire/index.ts"
import * as G from "../../src/http/guard.ts"
import { sameType } from "../support/types.ts"

/** Every guard the type checks below cover, by name: a new guard without its check fails the first test. */
const checked = [
  "ItemData", "DataItem", "PagingMetadata", "paging",
  "DataItemResponse", "SaveDataItemResponse",
  "QueryDataItemsResponse", "CountDataItemsResponse", "QueryDistinctValuesResponse",
  "AggregateDataItemsResponse",
  "DataItemReference", "QueryReferencedResponse", "IsReferencedResponse", "ReplaceReferencesResponse",
  "BulkResponse", "BulkReferencesResponse",
  "AsyncJobResponse", "AsyncJobStatusResponse",
  "CollectionField", "DataCollection", "CollectionResponse", "CollectionsListResponse",
  "DataIndex", "IndexResponse", "IndexesListResponse",
  "Backup", "RestorationCollection", "Restoration", "BackupResponse", "ListBackupsResponse", "RestorationResponse", "ListRestorationsResponse",
  "SandboxState", "SandboxesListResponse", "SandboxResponse", "SyncResponse",
  "DataMovementJob", "MovementJobResponse", "MovementJobsResponse", "CreateFileUploadUrlResponse", "MovementLog", "MovementLogsResponse",
  "MyPermissionsResponse"
]

describe("data answer guards have their Schemas' types", () => {
  it("every guard of src/data/guards is held to its Schema below", () => {
    assert.deepStrictEqual(Object.keys(Guards).sort(), [...checked].sort())
  })

  it("shared shapes and single items", () => {
    sameType<G.TypeOf<typeof Guards.ItemData>, W.ItemData>(true)
    sameType<G.TypeOf<typeof Guards.DataItem>, W.DataItem>(true)
    sameType<G.TypeOf<typeof Guards.PagingMetadata>, W.PagingMetadata>(true)
    sameType<G.TypeOf<typeof Guards.paging>, W.PagingMetadata>(true)
    sameType<G.TypeOf<typeof Guards.DataItemResponse>, typeof W.DataItemResponse.Type>(true)
    sameType<G.TypeOf<typeof Guards.SaveDataItemResponse>, typeof W.SaveDataItemResponse.Type>(true)
  })

  it("queries and aggregations", () => {
    sameType<G.TypeOf<typeof Guards.QueryDataItemsResponse>, W.QueryDataItemsResponse>(true)
    sameType<G.TypeOf<typeof Guards.CountDataItemsResponse>, typeof W.CountDataItemsResponse.Type>(true)
    sameType<G.TypeOf<typeof Guards.QueryDistinctValuesResponse>, W.QueryDistinctValuesResponse>(true)
    sameType<G.TypeOf<typeof Guards.AggregateDataItemsResponse>, W.AggregateDataItemsResponse>(true)
  })

  it("references, bulk writes and jobs", () => {
    sameType<G.TypeOf<typeof Guards.DataItemReference>, W.DataItemReference>(true)
    sameType<G.TypeOf<typeof Guards.QueryReferencedResponse>, typeof W.QueryReferencedResponse.Type>(true)
    sameType<G.TypeOf<typeof Guards.IsReferencedResponse>, typeof W.IsReferencedResponse.Type>(true)
    sameType<G.TypeOf<typeof Guards.ReplaceReferencesResponse>, typeof W.ReplaceReferencesResponse.Type>(true)
    sameType<G.TypeOf<typeof Guards.BulkResponse>, W.BulkResponse>(true)
    sameType<G.TypeOf<typeof Guards.BulkReferencesResponse>, typeof W.BulkReferencesResponse.Type>(true)
    sameType<G.TypeOf<typeof Guards.AsyncJobResponse>, typeof W.AsyncJobResponse.Type>(true)
    sameType<G.TypeOf<typeof Guards.AsyncJobStatusResponse>, typeof W.AsyncJobStatusResponse.Type>(true)
  })

  it("collections", () => {
    sameType<G.TypeOf<typeof Guards.CollectionField>, W.CollectionField>(true)
    sameType<G.TypeOf<typeof Guards.DataCollection>, W.DataCollection>(true)
    sameType<G.TypeOf<typeof Guards.CollectionResponse>, typeof W.CollectionResponse.Type>(true)
    sameType<G.TypeOf<typeof Guards.CollectionsListResponse>, typeof W.CollectionsListResponse.Type>(true)
  })

  it("indexes", () => {
    sameType<G.TypeOf<typeof Guards.DataIndex>, W.DataIndex>(true)
    sameType<G.TypeOf<typeof Guards.IndexResponse>, typeof W.IndexResponse.Type>(true)
    sameType<G.TypeOf<typeof Guards.IndexesListResponse>, typeof W.IndexesListResponse.Type>(true)
  })

  it("permissions", () => {
    sameType<G.TypeOf<typeof Guards.MyPermissionsResponse>, typeof W.MyPermissionsResponse.Type>(true)
  })

  it("backups and restorations", () => {
    sameType<G.TypeOf<typeof Guards.Backup>, W.Backup>(true)
    sameType<G.TypeOf<typeof Guards.RestorationCollection>, W.RestorationCollection>(true)
    sameType<G.TypeOf<typeof Guards.Restoration>, W.Restoration>(true)
    sameType<G.TypeOf<typeof Guards.BackupResponse>, typeof W.BackupResponse.Type>(true)
    sameType<G.TypeOf<typeof Guards.ListBackupsResponse>, typeof W.ListBackupsResponse.Type>(true)
    sameType<G.TypeOf<typeof Guards.RestorationResponse>, typeof W.RestorationResponse.Type>(true)
    sameType<G.TypeOf<typeof Guards.ListRestorationsResponse>, typeof W.ListRestorationsResponse.Type>(true)
  })

  it("sandboxes (the local platform's dev endpoints)", () => {
    sameType<G.TypeOf<typeof Guards.SandboxState>, W.SandboxState>(true)
    sameType<G.TypeOf<typeof Guards.SandboxesListResponse>, typeof W.ListSandboxesResponse.Type>(true)
    sameType<G.TypeOf<typeof Guards.SandboxResponse>, typeof W.SandboxResponse.Type>(true)
    sameType<G.TypeOf<typeof Guards.SyncResponse>, typeof W.SyncSandboxResponse.Type>(true)
  })

  it("movement jobs", () => {
    sameType<G.TypeOf<typeof Guards.DataMovementJob>, W.DataMovementJob>(true)
    sameType<G.TypeOf<typeof Guards.MovementJobResponse>, typeof W.MovementJobResponse.Type>(true)
    sameType<G.TypeOf<typeof Guards.MovementJobsResponse>, typeof W.MovementJobsResponse.Type>(true)
    sameType<G.TypeOf<typeof Guards.CreateFileUploadUrlResponse>, typeof W.CreateFileUploadUrlResponse.Type>(true)
    sameType<G.TypeOf<typeof Guards.MovementLog>, W.MovementLog>(true)
    sameType<G.TypeOf<typeof Guards.MovementLogsResponse>, typeof W.MovementLogsResponse.Type>(true)
  })
})

describe("a data guard", () => {
  it("says where an answer is wrong and what was expected", () => {
    assert.strictEqual(G.describe(Guards.QueryDataItemsResponse({ dataItems: [{ id: "a", data: {} }, { id: 7 }] })!), ".dataItems[1].id: expected a string")
    assert.strictEqual(
      G.describe(Guards.QueryDistinctValuesResponse({ distinctValues: [], pagingMetadata: { cursors: { next: 1 } } })!),
      ".pagingMetadata.cursors.next: expected a string"
    )
    assert.strictEqual(G.describe(Guards.AsyncJobStatusResponse({ status: "DONE" })!), ".status: expected one of UNKNOWN_STATUS, INITIALIZED, PROCESSING, SUCCEEDED, FAILED")
  })

  it("accepts what the platform may leave out or send as null, and keeps keys it does not know", () => {
    const answer = { dataItems: [{ data: null }, { id: "x", extra: true }], pagingMetadata: { total: null, cursors: { next: null } }, more: 1 }
    assert.isUndefined(Guards.QueryDataItemsResponse(answer))
    assert.isUndefined(Guards.DataCollection({ id: "Posts", displayName: null, maxPageSize: null, fields: [{ key: "title", type: "TEXT", displayName: null }] }))
  })
})
