/** The store's entities: its services and routes (filled in by the entities work). */
import * as Layer from "effect/Layer"

export type EntitiesServices = never

export const entitiesLayer = Layer.empty

export const entitiesRoutes = Layer.empty
