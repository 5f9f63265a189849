// A visitor session, one data query and one product query in the browser.
import * as Effect from "effect/Effect"
import * as Products from "sitefx/catalog/products"
import * as Items from "sitefx/data/items"
import { siteSession } from "sitefx/session"

const session = siteSession({ clientId: "my-client-id", tokens: "localStorage" })
Effect.runPromise(Items.query("Posts").limit(10).find.pipe(Effect.provide(session))).then(console.log)
Effect.runPromise(Products.query().gt("priceData.price", 20).limit(24).find.pipe(Effect.provide(session))).then(console.log)
