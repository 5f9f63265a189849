// A member's sign-in page on Effect: the token service and the member flows (siteMembers), a direct login with email and password, and the member's tokens.
import * as Effect from "effect/Effect"
import * as Redacted from "effect/Redacted"
import { MemberFlows, siteMembers } from "sitefx/session"

const session = siteMembers({ clientId: "my-client-id", tokens: "localStorage" })
const signIn = (email: string, password: string) =>
  MemberFlows.use((members) =>
    Effect.flatMap(members.login({ email, password: Redacted.make(password) }), (result) =>
      result.loginState === "SUCCESS" ? Effect.as(members.completeDirectLogin(result.data.sessionToken), "signed in") : Effect.succeed(result.loginState)))
const form = document.querySelector("form")!
form.addEventListener("submit", () => {
  const data = new FormData(form)
  Effect.runPromise(signIn(String(data.get("email")), String(data.get("password"))).pipe(Effect.provide(session))).then(console.log)
})
