// A visitor session in the browser: is anyone signed in?
import * as Effect from "effect/Effect"
import { Session, siteSession } from "sitefx/session"

Effect.runPromise(Session.use((s) => s.loggedIn).pipe(Effect.provide(siteSession({ clientId: "my-client-id", tokens: "localStorage" })))).then(console.log)
