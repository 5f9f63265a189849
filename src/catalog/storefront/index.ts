/**
 * Storefront helpers: pure functions over a catalog v1 product as the platform returns it, for the
 * questions every product page asks. Which variant did the shopper choose, and which choices are still
 * worth offering (`resolveVariant`, `availableChoices`); how much is in stock, at the product, choice or
 * variant level (`stockOf`); what price to show (`displayPrice`); and image URLs at a requested size
 * (`mediaUrl`, `mediaUrlResolver`). They need no client, make no request, never throw, and import only
 * types, so a browser page carries a few kilobytes.
 */
export { type MediaFit, mediaId, type MediaSize, type MediaSource, mediaUrl, mediaUrlResolver } from "./media.ts"
export { LOCAL_MEDIA_PATH, PLATFORM_MEDIA_BASE } from "./media.ts"
export type { Chosen } from "./options.ts"
export { type DisplayPrice, displayPrice, type DisplayPriceOptions } from "./price.ts"
export { type StockAnswer, stockOf, type StockStatus } from "./stock.ts"
export {
  availableChoices,
  type ChoiceAvailability,
  type ChoiceState,
  type NoSuchVariant,
  type OptionAvailability,
  resolveVariant,
  type UnknownChoice,
  type VariantIncomplete,
  type VariantResolution,
  type VariantResolved,
  type VariantsNotLoaded,
  type VariantUnknown
} from "./variants.ts"
