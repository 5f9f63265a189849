// The README's first data example in a browser: a visitor session (Site.layer) and one data query.
import * as Effect from "effect/Effect"
import { Site } from "sitefx"
import * as DataItems from "sitefx/data/items"

const page = DataItems.query("Posts").limit(10).find
Effect.runPromise(page.pipe(Effect.provide(Site.layer({ clientId: "my-client-id" })))).then(console.log)
