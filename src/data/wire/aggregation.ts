/** Aggregations: grouping operations over filtered items, and aggregation pipelines. */
import * as Schema from "effect/Schema"
import { CursorPaging, FilterJson, ItemData, Paging, PagingMetadata, Sorting } from "./common.ts"
import { ReadOptions } from "./fields.ts"

const FieldOp = Schema.Struct({ itemFieldName: Schema.String })
/** One value an aggregation computes per group (item count, or average, min, max or sum of a field), named `resultFieldName`. */
export const AggregateOperation = Schema.Struct({
  resultFieldName: Schema.String,
  average: Schema.optionalKey(FieldOp),
  min: Schema.optionalKey(FieldOp),
  max: Schema.optionalKey(FieldOp),
  sum: Schema.optionalKey(FieldOp),
  itemCount: Schema.optionalKey(Schema.Struct({}))
})
export type AggregateOperation = typeof AggregateOperation.Type

/** The body of `POST /items/aggregate`: filter the items, group them, compute operations per group, then filter, sort and page the groups. */
export const AggregateDataItemsRequest = Schema.Struct({
  dataCollectionId: Schema.String,
  initialFilter: Schema.optionalKey(Schema.NullOr(FilterJson)),
  aggregation: Schema.optionalKey(Schema.Struct({
    groupingFields: Schema.optionalKey(Schema.Array(Schema.String)),
    operations: Schema.optionalKey(Schema.Array(AggregateOperation))
  })),
  finalFilter: Schema.optionalKey(Schema.NullOr(FilterJson)),
  sort: Schema.optionalKey(Schema.Array(Sorting)),
  paging: Schema.optionalKey(Paging),
  cursorPaging: Schema.optionalKey(CursorPaging),
  returnTotalCount: Schema.optionalKey(Schema.Boolean),
  ...ReadOptions
})
export type AggregateDataItemsRequest = typeof AggregateDataItemsRequest.Type

/** The answer of `POST /items/aggregate`: a page of result rows, one per group. */
export const AggregateDataItemsResponse = Schema.Struct({
  results: Schema.Array(ItemData),
  pagingMetadata: Schema.optionalKey(PagingMetadata)
})
export type AggregateDataItemsResponse = typeof AggregateDataItemsResponse.Type

/**
 * Pipeline expressions: a field path, a constant, or an operation on expressions. Stages: group,
 * filter, sort, projection, skip, limit, unwindArray, objectToArray.
 */
export interface PipelineExpression {
  readonly fieldPath?: string
  readonly text?: string
  readonly numeric?: number
  readonly add?: { readonly expressions: ReadonlyArray<PipelineExpression> }
  readonly sum?: { readonly expressions: ReadonlyArray<PipelineExpression> }
  readonly multiply?: { readonly expressions: ReadonlyArray<PipelineExpression> }
  readonly subtract?: { readonly firstExpression: PipelineExpression; readonly secondExpression: PipelineExpression }
  readonly divide?: { readonly firstExpression: PipelineExpression; readonly secondExpression: PipelineExpression }
  readonly mod?: { readonly firstExpression: PipelineExpression; readonly secondExpression: PipelineExpression }
  readonly abs?: { readonly expression: PipelineExpression }
  readonly floor?: { readonly expression: PipelineExpression }
  readonly ceil?: { readonly expression: PipelineExpression }
  readonly concat?: { readonly expressions: ReadonlyArray<PipelineExpression> }
  readonly stringify?: { readonly expression: PipelineExpression }
  readonly toLower?: { readonly expression: PipelineExpression }
  readonly toUpper?: { readonly expression: PipelineExpression }
  readonly length?: { readonly expression: PipelineExpression }
  readonly substring?: {
    readonly expression: PipelineExpression
    readonly startExpression: PipelineExpression
    readonly lengthExpression: PipelineExpression
  }
}
const expr = Schema.suspend((): Schema.Codec<PipelineExpression> => PipelineExpression)
const one = Schema.Struct({ expression: expr })
const many = Schema.Struct({ expressions: Schema.Array(expr) })
const two = Schema.Struct({ firstExpression: expr, secondExpression: expr })
export const PipelineExpression: Schema.Codec<PipelineExpression> = Schema.Struct({
  fieldPath: Schema.optionalKey(Schema.String),
  text: Schema.optionalKey(Schema.String),
  numeric: Schema.optionalKey(Schema.Number),
  add: Schema.optionalKey(many),
  sum: Schema.optionalKey(many),
  multiply: Schema.optionalKey(many),
  subtract: Schema.optionalKey(two),
  divide: Schema.optionalKey(two),
  mod: Schema.optionalKey(two),
  abs: Schema.optionalKey(one),
  floor: Schema.optionalKey(one),
  ceil: Schema.optionalKey(one),
  concat: Schema.optionalKey(many),
  stringify: Schema.optionalKey(one),
  toLower: Schema.optionalKey(one),
  toUpper: Schema.optionalKey(one),
  length: Schema.optionalKey(one),
  substring: Schema.optionalKey(Schema.Struct({ expression: expr, startExpression: expr, lengthExpression: expr }))
})

/** One value a pipeline's group stage computes per group (avg, min, max, sum, first, last, or push of an expression), named `resultFieldName`. */
export const PipelineAccumulator = Schema.Struct({
  resultFieldName: Schema.String,
  avg: Schema.optionalKey(one),
  min: Schema.optionalKey(one),
  max: Schema.optionalKey(one),
  sum: Schema.optionalKey(one),
  first: Schema.optionalKey(one),
  last: Schema.optionalKey(one),
  push: Schema.optionalKey(one)
})

/** One field of a pipeline's projection stage: a field kept, a field dropped, or a field computed from an expression. */
export const PipelineProjectionField = Schema.Struct({
  include: Schema.optionalKey(Schema.Struct({ fieldName: Schema.String })),
  exclude: Schema.optionalKey(Schema.Struct({ fieldName: Schema.String })),
  reshape: Schema.optionalKey(Schema.Struct({ resultFieldName: Schema.String, expression: expr }))
})

/** One stage of an aggregation pipeline (group, filter, sort, projection, objectToArray, unwindArray, skip or limit). */
export const PipelineStage = Schema.Struct({
  group: Schema.optionalKey(Schema.Struct({
    groupIds: Schema.optionalKey(Schema.Array(Schema.Struct({ key: Schema.String, expression: expr }))),
    accumulators: Schema.optionalKey(Schema.Array(PipelineAccumulator))
  })),
  filter: Schema.optionalKey(FilterJson),
  sort: Schema.optionalKey(Schema.Struct({ values: Schema.Array(Sorting) })),
  projection: Schema.optionalKey(Schema.Struct({ fields: Schema.Array(PipelineProjectionField) })),
  objectToArray: Schema.optionalKey(Schema.Struct({ objectFieldName: Schema.String, destinationFieldName: Schema.String })),
  unwindArray: Schema.optionalKey(Schema.Struct({ arrayFieldName: Schema.String })),
  skip: Schema.optionalKey(Schema.Number),
  limit: Schema.optionalKey(Schema.Number)
})
export type PipelineStage = typeof PipelineStage.Type

/** The body of `POST /items/aggregate-pipeline`: stages run in order over a collection's items, and the paging of the result. */
export const AggregatePipelineRequest = Schema.Struct({
  dataCollectionId: Schema.String,
  pipeline: Schema.Struct({
    stages: Schema.Array(PipelineStage),
    paging: Schema.optionalKey(Paging),
    cursorPaging: Schema.optionalKey(CursorPaging)
  }),
  returnTotalCount: Schema.optionalKey(Schema.Boolean),
  ...ReadOptions
})
export type AggregatePipelineRequest = typeof AggregatePipelineRequest.Type
/** Pipeline results have the aggregate answer's shape. */
export const AggregatePipelineResponse = AggregateDataItemsResponse
