/**
 * What site events change in the query atoms' collections (data items, products and their stock, store
 * collections), for `queryAtoms`' `changes` option. A module of its own, so pages whose queries do not
 * follow the site's events carry none of it.
 */
import * as Arr from "effect/Array"
import * as Stream from "effect/Stream"
import type { LiveEvent } from "../events/Live.ts"
import { QueryKeys } from "./keys.ts"
import type { Change } from "./query.ts"

/** A change to a data collection's item. */
export const dataChange = (collection: string, itemId?: string): Change => ({ key: QueryKeys.data(collection), id: itemId })

const PRODUCT_EVENT = /^com\.wix\.ecommerce\.(catalog\.api\.v1\.(Product|Variants)|inventory\.api\.v1\.)/
const COLLECTION_EVENT = /^com\.wix\.ecommerce\.catalog\.api\.v1\.Collection/

/** The change a site event makes to what queries show, if any: data items, products (and their stock), store collections. */
export const changeOfEvent = (live: LiveEvent): ReadonlyArray<Change> => {
  const event = live.event
  if (event === undefined) return []
  if (event._tag === "Domain" && event.entityFqdn === "wix.data.v2.data_item") {
    const entity = event.change._tag === "Action" ? undefined : (event.change.entity as { readonly dataCollectionId?: string } | undefined)
    return entity?.dataCollectionId === undefined ? [] : [dataChange(entity.dataCollectionId, event.entityId)]
  }
  if (event._tag === "Legacy" && PRODUCT_EVENT.test(event.type)) {
    const productId = (event.data as { readonly productId?: unknown }).productId
    return [{ key: QueryKeys.products, id: typeof productId === "string" ? productId : undefined }]
  }
  if (event._tag === "Legacy" && COLLECTION_EVENT.test(event.type)) {
    // a collection's product count follows its products, and its products' collection ids follow it
    return [{ key: QueryKeys.collections }, { key: QueryKeys.products }]
  }
  return []
}

/** The changes of a Stream of site events (`Events.live`): what the `changes` option of `queryAtoms` takes. */
export const changesOfEvents = <E, R>(events: Stream.Stream<LiveEvent, E, R>): Stream.Stream<Change, E, R> =>
  // mapped and flattened rather than flatMapped: no inner streams, and none of flatMap's concurrency machinery
  events.pipe(Stream.map(changeOfEvent), Stream.filter(Arr.isReadonlyArrayNonEmpty), Stream.flattenArray)
