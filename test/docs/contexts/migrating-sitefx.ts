/**
 * sitefx's side of docs/guide/migrating.md, as the page's first block sets it up: the imports, a
 * visitor's layer and the owner's layer on the local platform. Each fragment of the page goes in place
 * of the marker line below.
 */
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import * as Stream from "effect/Stream"
import { DataItems, Session, Site } from "sitefx"
import * as Collections from "sitefx/catalog/collections"
import * as Inventory from "sitefx/catalog/inventory"
import * as Products from "sitefx/catalog/products"

const baseUrl = "http://127.0.0.1:8787"
const visitor = Site.layer({ baseUrl, clientId: "sitefx-local-client" })
const owner = Site.apiKey({ baseUrl })

/* fragment */
