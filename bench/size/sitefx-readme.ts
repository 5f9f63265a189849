// The README's first data example in a browser: a visitor session (Site.layer) and one data query, from sitefx.
import * as Effect from "effect/Effect"
import { DataItems, Site } from "sitefx"

const page = DataItems.query("Posts").limit(10).find
Effect.runPromise(page.pipe(Effect.provide(Site.layer({ clientId: "my-client-id" })))).then(console.log)
