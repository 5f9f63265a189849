/** Guards of the customizations service's answers. */
import * as G from "../../../http/guard.ts"
import { CHOICE_TYPES, CUSTOMIZATION_RENDER_TYPES, CUSTOMIZATION_TYPES } from "../protocol.ts"
import { BulkActionMetadata, CursorPagingMetadata, ItemMetadata, nullable, opt, system } from "./common.ts"

export const CustomizationChoice = G.struct({
  id: opt(G.string),
  choiceType: opt(G.literals(CHOICE_TYPES)),
  key: nullable(G.string),
  name: opt(G.string),
  colorCode: opt(G.string),
  colorCodes: opt(G.array(G.string)),
  image: opt(G.object),
  defaultAddedPrice: nullable(G.string),
  displayImage: opt(G.object),
  primaryChoiceIds: opt(G.array(G.string))
})
export type CustomizationChoice = G.TypeOf<typeof CustomizationChoice>
export const FreeTextSettings = G.struct({
  minCharCount: opt(G.number),
  maxCharCount: opt(G.number),
  defaultAddedPrice: nullable(G.string),
  title: opt(G.string),
  key: nullable(G.string)
})
export const Customization = G.struct({
  ...system,
  key: nullable(G.string),
  name: opt(G.string),
  customizationType: opt(G.literals(CUSTOMIZATION_TYPES)),
  customizationRenderType: opt(G.literals(CUSTOMIZATION_RENDER_TYPES)),
  modifierSettings: opt(G.struct({})),
  freeTextInput: opt(FreeTextSettings),
  choicesSettings: opt(G.struct({ choices: opt(G.array(CustomizationChoice)) })),
  assignedProductsCount: nullable(G.number)
})
export type Customization = G.TypeOf<typeof Customization>
export const CustomizationResponse = G.struct({ customization: Customization })
export const QueryCustomizationsResponse = G.struct({ customizations: G.array(Customization), pagingMetadata: CursorPagingMetadata })
export const BulkCustomizationsResponse = G.struct({
  results: G.array(G.struct({ itemMetadata: ItemMetadata, customization: opt(Customization) })),
  bulkActionMetadata: BulkActionMetadata
})
export type BulkCustomizationResults = G.TypeOf<typeof BulkCustomizationsResponse>
