// A visitor session in the browser: visitor tokens, and is anyone signed in? (the token service alone)
import * as Effect from "effect/Effect"
import { SessionTokens, siteTokens } from "sitefx/session"

const page = SessionTokens.use((s) => Effect.flatMap(s.ensureTokens, (tokens) => Effect.map(s.loggedIn, (loggedIn) => ({ loggedIn, tokens }))))
Effect.runPromise(page.pipe(Effect.provide(siteTokens({ clientId: "my-client-id", tokens: "localStorage" })))).then(console.log)
