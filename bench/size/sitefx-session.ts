// A visitor session in the browser: is anyone signed in?
import * as Effect from "effect/Effect"
import { Session, Site } from "sitefx"

Effect.runPromise(Session.use((s) => s.loggedIn).pipe(Effect.provide(Site.layer({ clientId: "my-client-id", tokens: "localStorage" })))).then(console.log)
