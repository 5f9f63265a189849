// A visitor session and one data query in the browser.
import * as Effect from "effect/Effect"
import { DataItems, Site } from "sitefx"

Effect.runPromise(DataItems.use((d) => d.query("Posts").limit(10).find).pipe(Effect.provide(Site.layer({ clientId: "my-client-id", tokens: "localStorage" })))).then(console.log)
