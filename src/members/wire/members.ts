/**
 * Wire shapes of the members admin API (see `../protocol.ts` for the calls), used by the local platform to
 * read requests and write answers and by typed tests. The member itself is the session wire's `Member`
 * (the same record a member reads at `/members/v1/members/my`).
 */
import * as Schema from "effect/Schema"
import { Member } from "../../session/wire/index.ts"
import { Paging } from "../../http/wire.ts"
import { FIELDSETS } from "../protocol.ts"

export { Member }

/** Offset paging of a members query. */
export { Paging }

export const Fieldset = Schema.Literals(FIELDSETS)
export type Fieldset = typeof Fieldset.Type

export const Sorting = Schema.Struct({
  fieldName: Schema.optionalKey(Schema.String),
  order: Schema.optionalKey(Schema.Literals(["ASC", "DESC"]))
})
export type Sorting = typeof Sorting.Type

/** `GET /members/v1/members` (from `.r` or flat parameters). */
export const ListMembersRequest = Schema.Struct({
  paging: Schema.optionalKey(Paging),
  fieldsets: Schema.optionalKey(Schema.Array(Fieldset)),
  sorting: Schema.optionalKey(Schema.Array(Sorting))
})
export type ListMembersRequest = typeof ListMembersRequest.Type

/** `GET /members/v1/members/{id}` (the id again as a parameter). */
export const GetMemberRequest = Schema.Struct({
  id: Schema.optionalKey(Schema.String),
  fieldsets: Schema.optionalKey(Schema.Array(Fieldset))
})

/** `POST /members/v1/members/query`: the query builder sends `sort`, the typed request `sorting`. */
export const QueryMembersRequest = Schema.Struct({
  query: Schema.optionalKey(Schema.Struct({
    filter: Schema.optionalKey(Schema.NullOr(Schema.Record(Schema.String, Schema.Unknown))),
    paging: Schema.optionalKey(Paging),
    sort: Schema.optionalKey(Schema.Array(Sorting)),
    sorting: Schema.optionalKey(Schema.Array(Sorting))
  })),
  fieldsets: Schema.optionalKey(Schema.Array(Fieldset)),
  search: Schema.optionalKey(Schema.Struct({
    expression: Schema.optionalKey(Schema.NullOr(Schema.String)),
    fields: Schema.optionalKey(Schema.Array(Schema.String))
  }))
})
export type QueryMembersRequest = typeof QueryMembersRequest.Type

/** `POST /members/v1/members/{id}/approve` and `/block`: the id again in the body. */
export const MemberIdRequest = Schema.Struct({ id: Schema.optionalKey(Schema.String) })

export const PagingMetadata = Schema.Struct({
  count: Schema.optionalKey(Schema.Number),
  offset: Schema.optionalKey(Schema.Number),
  total: Schema.optionalKey(Schema.Number),
  tooManyToCount: Schema.optionalKey(Schema.Boolean)
})
export type PagingMetadata = typeof PagingMetadata.Type

export const MemberResponse = Schema.Struct({ member: Member })
export type MemberResponse = typeof MemberResponse.Type

export const MembersPageResponse = Schema.Struct({
  members: Schema.optionalKey(Schema.Array(Member)),
  metadata: Schema.optionalKey(PagingMetadata)
})
export type MembersPageResponse = typeof MembersPageResponse.Type
