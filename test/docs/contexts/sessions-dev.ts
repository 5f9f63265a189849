// docs/guide/sessions.md: the program of "The local platform's switches", whose body each fragment replaces.
import * as Effect from "effect/Effect"
import { Session, Site } from "sitefx"

const platform = "http://127.0.0.1:8787"

/** Calls a dev endpoint of the local platform: `dev("PATCH", "/settings", { captcha: true })`. */
const dev = (method: "GET" | "POST" | "PATCH", path: string, body?: object) =>
  Effect.promise(async (): Promise<any> => {
    const res = await fetch(`${platform}/_sitefx${path}`, {
      method,
      headers: { "content-type": "application/json" },
      ...(body === undefined ? {} : { body: JSON.stringify(body) })
    })
    if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${await res.text()}`)
    return res.json()
  })

const program = Effect.gen(function*() {
  const session = yield* Session
  const demo = { email: "demo@sitefx.dev", password: "sitefx-demo" }

  /* fragment */
})

await Effect.runPromise(program.pipe(Effect.provide(Site.layer({ clientId: "sitefx-local-client", baseUrl: platform }))))
