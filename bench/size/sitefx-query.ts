// A visitor session and one data query in the browser.
import * as Effect from "effect/Effect"
import * as DataItems from "sitefx/data/items"
import { siteSession } from "sitefx/session"

Effect.runPromise(DataItems.query("Posts").limit(10).find.pipe(Effect.provide(siteSession({ clientId: "my-client-id", tokens: "localStorage" })))).then(console.log)
