/**
 * What the `demo` seed puts in the store's entity services: five brands, four ribbons, two info
 * sections and a "Gift wrap" modifier with two choices. Fixed ids, names and dates, and an entity
 * already there (by id or by name) is left as it is, so seeding again changes nothing.
 */
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import type { Json } from "../../store/values.ts"
import { Seeder } from "../../accounts/seed.ts"
import { nameKey } from "./engine.ts"
import { EntityStore } from "./EntityStore.ts"
import { richFromHtml } from "./infoSectionRules.ts"

const SEEDED_AT = "2026-01-01T00:00:00.000Z"

/** `5eed0000-0000-4000-800K-00000000000N`: a GUID-shaped id per kind (K) and number (N). */
export const seedId = (kind: number, n: number): string => `5eed0000-0000-4000-800${kind}-${String(n).padStart(12, "0")}`

const system = (id: string): Json => ({ id, revision: "1", createdDate: SEEDED_AT, updatedDate: SEEDED_AT })

export const DEMO_BRANDS = ["Northwind", "Alder & Co", "Fjord Supply", "Kestrel", "Lumen"] as const
export const DEMO_RIBBONS = ["New", "Sale", "Limited", "Bestseller"] as const

const INFO_SECTIONS = [
  {
    uniqueName: "shipping-and-returns",
    title: "Shipping & returns",
    plainDescription: "<p>Orders ship within two working days.</p><p>Return anything unused within 30 days for a full refund.</p>"
  },
  {
    uniqueName: "care-instructions",
    title: "Care instructions",
    plainDescription: "<p>Machine wash cold with like colors.</p><p>Dry flat; do not tumble dry.</p>"
  }
] as const

const GIFT_WRAP: Json = {
  ...system(seedId(4, 1)),
  key: "gift wrap",
  name: "Gift wrap",
  customizationType: "MODIFIER",
  customizationRenderType: "TEXT_CHOICES",
  modifierSettings: {},
  choicesSettings: {
    choices: [
      { id: seedId(5, 1), choiceType: "CHOICE_TEXT", key: "recycled paper", name: "Recycled paper", defaultAddedPrice: "3" },
      { id: seedId(5, 2), choiceType: "CHOICE_TEXT", key: "linen wrap", name: "Linen wrap", defaultAddedPrice: "6.5" }
    ]
  }
}

/** Registers the entity part of the `demo` seed. */
export const entitiesSeed: Layer.Layer<never, never, Seeder | EntityStore> = Layer.effectDiscard(
  Effect.gen(function*() {
    const seeder = yield* Seeder
    const store = yield* EntityStore
    seeder.extend((name) =>
      Effect.sync(() => {
        if (name !== "demo") return
        store.engine.db.transaction(() => {
          DEMO_BRANDS.forEach((brand, i) => store.brands.insert({ ...system(seedId(1, i + 1)), name: brand }, nameKey(brand)))
          DEMO_RIBBONS.forEach((ribbon, i) => store.ribbons.insert({ ...system(seedId(2, i + 1)), name: ribbon }, nameKey(ribbon)))
          INFO_SECTIONS.forEach((section, i) =>
            store.infoSections.insert(
              { ...system(seedId(3, i + 1)), ...section, description: richFromHtml(section.plainDescription) },
              nameKey(section.uniqueName)
            )
          )
          store.customizations.insert(GIFT_WRAP, null)
        })
      })
    )
  })
)
