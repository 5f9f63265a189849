/** Info sections on the wire: titled texts ("Care instructions") products show, found by their unique name. */
import * as Schema from "effect/Schema"
import { nullable, opt } from "../../wire/common.ts"
import { INFO_SECTION_FIELDS, MAX_ENTITY_BULK, NAME_LIMITS } from "../protocol.ts"
import { bulkResults, entityCalls, list, system, text } from "./common.ts"

export const InfoSectionField = Schema.Literals(INFO_SECTION_FIELDS)

/** A document's parts, kept as the client sends them. */
const Json = Schema.Record(Schema.String, Schema.Unknown)

/** Rich content (a document of nodes), kept as the client sends it. */
export const RichContent = Schema.Struct({
  nodes: opt(Schema.Array(Json)),
  metadata: opt(Json),
  documentStyle: opt(Json)
})
export type RichContent = typeof RichContent.Type

const UniqueName = text(NAME_LIMITS.infoSectionUniqueName)
const Title = text(NAME_LIMITS.infoSectionTitle, 1)
const PlainText = text(16000)

/** An info section: a titled text ("Care instructions") products show, found by its unique name. */
export const InfoSection = Schema.Struct({
  ...system,
  uniqueName: opt(UniqueName),
  title: opt(Title),
  description: opt(RichContent),
  plainDescription: nullable(PlainText),
  assignedProductsCount: nullable(Schema.Number)
})
export type InfoSection = typeof InfoSection.Type

/** What get-or-create takes: an id or unique name to find, and what to create when there is none. */
export const InfoSectionForGetOrCreate = Schema.Struct({
  id: nullable(Schema.String),
  uniqueName: nullable(UniqueName),
  title: nullable(Title),
  description: opt(RichContent),
  plainDescription: nullable(PlainText)
})
export type InfoSectionForGetOrCreate = typeof InfoSectionForGetOrCreate.Type

/** The Schemas of the info sections calls every entity service has, as one record (the local platform serves them from it). */
export const InfoSectionCalls = entityCalls("infoSection", "infoSections", InfoSection, InfoSectionField)
export const { fields: InfoSectionFields, request: InfoSectionRequest, updateRequest: InfoSectionUpdateRequest, response: InfoSectionResponse } = InfoSectionCalls
export const { getRequest: GetInfoSectionRequest, deleteRequest: DeleteInfoSectionRequest, queryRequest: QueryInfoSectionsRequest, queryResponse: QueryInfoSectionsResponse } = InfoSectionCalls
export const { bulkCreateRequest: BulkCreateInfoSectionsRequest, masked: MaskedInfoSection, bulkUpdateRequest: BulkUpdateInfoSectionsRequest } = InfoSectionCalls
export const { bulkDeleteRequest: BulkDeleteInfoSectionsRequest } = InfoSectionCalls
export type InfoSectionResponse = typeof InfoSectionResponse.Type
export type QueryInfoSectionsResponse = typeof QueryInfoSectionsResponse.Type

export const GetOrCreateInfoSectionRequest = Schema.Struct({ infoSection: opt(InfoSectionForGetOrCreate), fields: InfoSectionFields })
export const BulkGetOrCreateInfoSectionsRequest = Schema.Struct({
  infoSections: list(InfoSectionForGetOrCreate, MAX_ENTITY_BULK, 1),
  fields: InfoSectionFields
})
export const BulkInfoSectionsResponse = bulkResults(InfoSection)
export type BulkInfoSectionsResponse = typeof BulkInfoSectionsResponse.Type
