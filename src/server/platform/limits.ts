/**
 * What the local platform accepts, in one place. Each bound keeps a request inside what the server can
 * answer without failing: node:sqlite refuses JSON nested over 1000 levels, expressions over 1000
 * levels, more than 32 766 statement parameters and functions of more than 1000 arguments, and deep
 * values would overflow the stack of the code that walks them. Over a bound, a request gets a 400
 * with a field violation naming the bound (413 for bodies), before anything is written.
 */

/** Bodies of the OAuth, identity, redirect-session and dev routes (data routes: `DataSettings`). */
export const MAX_BODY_BYTES = 1024 * 1024

/** A file uploaded for a data movement job (CSV or JSONL text). */
export const MAX_MOVEMENT_FILE_BYTES = 50 * 1024 * 1024
/** Nesting of any JSON a client sends (a body, a `.r` parameter), objects and arrays counted alike. */
export const MAX_JSON_DEPTH = 256

/** Nesting of an item's data as stored (`{}` is one level, `{"a": {}}` two). */
export const MAX_ITEM_DEPTH = 100

/** Nesting of a filter's JSON (`{"a": 1}` is one level, `{"$and": [{"a": 1}]}` three). */
export const MAX_FILTER_DEPTH = 50

/** Field conditions in one request's filters (`{"a": 1, "b": {"$gt": 2, "$lt": 5}}` holds three). */
export const MAX_FILTER_CONDITIONS = 1000

/** Values listed by `$in`, `$hasSome` and `$hasAll` in one request's filters, together. */
export const MAX_FILTER_VALUES = 5000

/** Sort fields of a query or a pipeline's sort stage. */
export const MAX_SORT_FIELDS = 50

/** Fields of a projection (`fields` of a query, a pipeline's projection). */
export const MAX_PROJECTED_FIELDS = 1000

/** Reference fields a query includes the referenced items of. */
export const MAX_INCLUDED_REFERENCES = 50

/** Distinct words of a search expression. */
export const MAX_SEARCH_WORDS = 100

/** Stages of an aggregation pipeline. */
export const MAX_PIPELINE_STAGES = 100

/** Nesting of a pipeline expression (`{"add": {"expressions": [...]}}` is one level per operation). */
export const MAX_EXPRESSION_DEPTH = 32

/** Operations and operands in one pipeline's expressions, together. */
export const MAX_EXPRESSION_NODES = 1000

/** Group ids, and accumulators, of one group stage. */
export const MAX_GROUP_FIELDS = 100

/** Skips, offsets and limits: whole numbers a double holds exactly (2^53 - 1), as SQLite takes them. */
export const MAX_INTEGER = Number.MAX_SAFE_INTEGER
