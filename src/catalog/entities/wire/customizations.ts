/**
 * Customizations on the wire: product options (size, color: they make variants) and modifiers (gift
 * wrap, an engraving: chosen at purchase without making variants), with their choices.
 */
import * as Schema from "effect/Schema"
import { nullable, opt } from "../../wire/common.ts"
import {
  CHOICE_TYPES,
  CUSTOMIZATION_FIELDS,
  CUSTOMIZATION_RENDER_TYPES,
  CUSTOMIZATION_TYPES,
  MAX_CHOICES,
  MAX_ENTITY_BULK,
  NAME_LIMITS
} from "../protocol.ts"
import { bulkResults, Decimal, entityCalls, int, list, system, text } from "./common.ts"

export const CustomizationType = Schema.Literals(CUSTOMIZATION_TYPES)
export const CustomizationRenderType = Schema.Literals(CUSTOMIZATION_RENDER_TYPES)
export const ChoiceType = Schema.Literals(CHOICE_TYPES)
export const CustomizationField = Schema.Literals(CUSTOMIZATION_FIELDS)

/** An image as the platform describes it (id, url, size, alt text). */
export const EntityImage = Schema.Record(Schema.String, Schema.Unknown)

const ColorCode = text(20, 3)

/** One choice of a customization: a text, or a color swatch. */
export const CustomizationChoice = Schema.Struct({
  id: opt(Schema.String),
  choiceType: opt(ChoiceType),
  key: nullable(Schema.String),
  name: opt(text(NAME_LIMITS.choice, 1)),
  colorCode: opt(ColorCode),
  colorCodes: opt(list(ColorCode, 2)),
  image: opt(EntityImage),
  defaultAddedPrice: nullable(Decimal),
  displayImage: opt(EntityImage),
  primaryChoiceIds: opt(list(Schema.String, 4))
})
export type CustomizationChoice = typeof CustomizationChoice.Type

export const FreeTextSettings = Schema.Struct({
  minCharCount: opt(int(0, 500)),
  maxCharCount: opt(int(0, 500)),
  defaultAddedPrice: nullable(Decimal),
  title: opt(text(NAME_LIMITS.freeTextTitle, 1)),
  key: nullable(Schema.String)
})
export type FreeTextSettings = typeof FreeTextSettings.Type

export const ChoicesSettings = Schema.Struct({ choices: opt(list(CustomizationChoice, MAX_CHOICES)) })
export type ChoicesSettings = typeof ChoicesSettings.Type

/**
 * A customization: a product option (size, color: it makes variants) or a modifier (gift wrap, an
 * engraving: chosen at purchase without making variants), shown as free text, text choices or swatches.
 */
export const Customization = Schema.Struct({
  ...system,
  key: nullable(Schema.String),
  name: opt(text(NAME_LIMITS.customization, 1)),
  customizationType: opt(CustomizationType),
  customizationRenderType: opt(CustomizationRenderType),
  modifierSettings: opt(Schema.Struct({})),
  freeTextInput: opt(FreeTextSettings),
  choicesSettings: opt(ChoicesSettings),
  assignedProductsCount: nullable(Schema.Number)
})
export type Customization = typeof Customization.Type

/** The Schemas of the customizations calls every entity service has, as one record (the local platform serves them from it). */
export const CustomizationCalls = entityCalls("customization", "customizations", Customization, CustomizationField)
export const { fields: CustomizationFields, request: CustomizationRequest, updateRequest: CustomizationUpdateRequest, response: CustomizationResponse } = CustomizationCalls
export const { getRequest: GetCustomizationRequest, deleteRequest: DeleteCustomizationRequest, queryRequest: QueryCustomizationsRequest, queryResponse: QueryCustomizationsResponse } = CustomizationCalls
export const { bulkCreateRequest: BulkCreateCustomizationsRequest, masked: MaskedCustomization, bulkUpdateRequest: BulkUpdateCustomizationsRequest } = CustomizationCalls
export type CustomizationResponse = typeof CustomizationResponse.Type
export type QueryCustomizationsResponse = typeof QueryCustomizationsResponse.Type

/** Customization bulk results carry the entity under `customization`, not `item`. */
export const BulkCustomizationsResponse = bulkResults(Customization, "customization")
export type BulkCustomizationsResponse = typeof BulkCustomizationsResponse.Type

/** Choices of one customization, named by its id (in the path, and again in the body). */
const onCustomization = { customizationId: opt(Schema.String), fields: CustomizationFields }

export const AddChoicesRequest = Schema.Struct({ ...onCustomization, choices: list(CustomizationChoice, MAX_CHOICES, 1) })
export const SetChoicesRequest = AddChoicesRequest
export const RemoveChoicesRequest = Schema.Struct({
  ...onCustomization,
  choiceIds: list(Schema.String, MAX_ENTITY_BULK, 1),
  revision: opt(Schema.String)
})
export const UpdateChoicesRequest = Schema.Struct({
  ...onCustomization,
  revision: Schema.String,
  choices: list(Schema.Struct({ choice: opt(CustomizationChoice), fieldMask: opt(Schema.String) }), MAX_ENTITY_BULK, 1)
})
export const ReorderChoicesRequest = Schema.Struct({ ...onCustomization, revision: Schema.String, choiceIds: list(Schema.String, MAX_CHOICES, 1) })
export const BulkAddChoicesRequest = Schema.Struct({
  customizationsChoices: list(
    Schema.Struct({ customizationId: opt(Schema.String), choices: opt(list(CustomizationChoice, MAX_ENTITY_BULK, 1)) }),
    MAX_CHOICES,
    1
  ),
  returnEntity: opt(Schema.Boolean),
  fields: CustomizationFields
})
