// The official client doing the same: a visitor's client, a direct login with email and password, and the member's tokens.
import { createClient, OAuthStrategy } from "@wix/sdk"

const client = createClient({ auth: OAuthStrategy({ clientId: "my-client-id" }) })
const signIn = async (email: string, password: string) => {
  const result = await client.auth.login({ email, password })
  if (result.loginState !== "SUCCESS") return result.loginState
  client.auth.setTokens(await client.auth.getMemberTokensForDirectLogin(result.data.sessionToken))
  return "signed in"
}
const form = document.querySelector("form")!
form.addEventListener("submit", () => {
  const data = new FormData(form)
  signIn(String(data.get("email")), String(data.get("password"))).then(console.log)
})
