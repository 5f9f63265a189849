/**
 * A typed Effect pipeline: a visitor session that signs a member in and reads their profile.
 * Run against the local platform: `npm start`, then `npm run example examples/member-session.ts`.
 */
import * as Effect from "effect/Effect"
import { decodeJson, Session, SessionWire, Site } from "sitefx"

export const signIn = (email: string, password: string) =>
  Effect.gen(function*() {
    const session = yield* Session
    const result = yield* session.login({ email, password })
    if (result.loginState !== "SUCCESS") return { signedIn: false as const, result }
    yield* session.completeDirectLogin(result.data.sessionToken)
    const me = yield* decodeJson({ method: "GET", path: SessionWire.Paths.myMember }, SessionWire.MyMemberResponse)
    return { signedIn: true as const, email: me.member.loginEmail }
  })

export const SiteLive = (baseUrl: string, clientId: string) => Site.layer({ baseUrl, clientId })

if (import.meta.main) {
  const [email = "demo@sitefx.dev", password = "sitefx-demo"] = process.argv.slice(2)
  signIn(email, password).pipe(
    Effect.provide(SiteLive(process.env.SITEFX_BASE_URL ?? "http://127.0.0.1:8787", process.env.SITEFX_CLIENT_ID ?? "sitefx-local-client")),
    Effect.runPromise
  ).then((r) => console.log(r), (e) => { console.error(String(e)); process.exitCode = 1 })
}
