/**
 * Plain-fetch helpers for driving the local platform over real HTTP in server tests: calls with the
 * platform's auth header, PKCE values, visitor and member tokens, settings that restore themselves.
 */
import * as Effect from "effect/Effect"
import * as Redacted from "effect/Redacted"
import { createHash, randomBytes } from "node:crypto"
import { LocalPlatform } from "../../src/server/index.ts"
import { DatabaseSync } from "node:sqlite"

export interface Answer {
  readonly status: number
  readonly headers: Headers
  readonly text: string
  // answers are JSON of many shapes; tests assert on the fields they care about
  readonly body: any
}

export interface CallOptions {
  readonly body?: unknown
  readonly auth?: string
  readonly headers?: Record<string, string>
  /** A form body (`application/x-www-form-urlencoded`). */
  readonly form?: Record<string, string>
}

const answer = async (res: Response): Promise<Answer> => {
  const text = await res.text()
  let body: unknown = undefined
  try {
    body = text === "" ? undefined : JSON.parse(text)
  } catch {
    body = undefined
  }
  return { status: res.status, headers: res.headers, text, body }
}

/** One HTTP call; redirects are not followed, so tests see every 302. */
export const call = (method: string, path: string, options: CallOptions = {}) =>
  Effect.gen(function*() {
    const platform = yield* LocalPlatform
    const url = path.startsWith("http") ? path : `${platform.url}${path}`
    return yield* Effect.promise(() =>
      fetch(url, {
        method,
        redirect: "manual",
        headers: {
          ...(options.body === undefined ? {} : { "content-type": "application/json" }),
          ...(options.form === undefined ? {} : { "content-type": "application/x-www-form-urlencoded" }),
          ...(options.auth === undefined ? {} : { authorization: options.auth }),
          ...options.headers
        },
        ...(options.body === undefined
          ? options.form === undefined ? {} : { body: new URLSearchParams(options.form).toString() }
          : { body: typeof options.body === "string" ? options.body : JSON.stringify(options.body) })
      }).then(answer)
    )
  })

export const post = (path: string, body: unknown, auth?: string, headers?: Record<string, string>) =>
  call("POST", path, { body, ...(auth === undefined ? {} : { auth }), ...(headers === undefined ? {} : { headers }) })

export const get = (path: string, auth?: string, headers?: Record<string, string>) =>
  call("GET", path, { ...(auth === undefined ? {} : { auth }), ...(headers === undefined ? {} : { headers }) })

/** A dev endpoint that must answer 200. */
export const dev = (method: string, path: string, body?: unknown) =>
  Effect.flatMap(call(method, `/_sitefx${path}`, body === undefined ? {} : { body }), (a) =>
    a.status === 200 ? Effect.succeed(a.body) : Effect.die(new Error(`${method} /_sitefx${path}: ${a.status} ${a.text}`)))

export const apiKey = LocalPlatform.useSync((p) => Redacted.value(p.apiKey))

export const pkce = () => {
  const verifier = randomBytes(32).toString("base64url")
  return { verifier, challenge: createHash("sha256").update(verifier).digest("base64url") }
}

export const randomState = () => randomBytes(16).toString("base64url")

let counter = 0
/** A unique e-mail per call, so tests sharing one platform never collide. */
export const uniqueEmail = (prefix = "member") => `${prefix}-${process.pid}-${counter++}@example.com`

export interface TokenSet {
  readonly access_token: string
  readonly refresh_token: string
  readonly expires_in: number
  readonly token_type: string
  readonly scope?: string
}

const tokens = (answer: Answer): Effect.Effect<TokenSet> =>
  answer.status === 200 ? Effect.succeed(answer.body as TokenSet) : Effect.die(new Error(`token: ${answer.status} ${answer.text}`))

/** Fresh visitor tokens. */
export const visitor = Effect.gen(function*() {
  const platform = yield* LocalPlatform
  return yield* tokens(yield* post("/oauth2/token", { clientId: platform.clientId, grantType: "anonymous" }))
})

/** A redirect session for an auth request; returns its full URL. */
export const authUrl = (
  access: string,
  authRequest: Record<string, unknown>,
  prompt: string = "login"
) =>
  Effect.gen(function*() {
    const platform = yield* LocalPlatform
    const res = yield* post("/_api/redirects-api/v1/redirect-session", {
      auth: {
        authRequest: {
          clientId: platform.clientId,
          codeChallengeMethod: "S256",
          responseType: "code",
          responseMode: "query",
          scope: "offline_access",
          ...authRequest
        },
        prompt
      }
    }, access)
    if (res.status !== 200) return yield* Effect.die(new Error(`redirect-session: ${res.status} ${res.text}`))
    return res.body.redirectSession.fullUrl as string
  })

export const REDIRECT_URI = "http://localhost:5173/callback"

/** A complete, valid auth request of a client (query mode, a fresh PKCE challenge and state); `extra` overrides any field. */
export const authRequestOf = (clientId: string, extra: Record<string, unknown> = {}) => ({
  redirectUri: REDIRECT_URI,
  clientId,
  codeChallenge: pkce().challenge,
  codeChallengeMethod: "S256",
  responseMode: "query",
  responseType: "code",
  scope: "offline_access",
  state: randomState(),
  ...extra
})

/** Member tokens for a session token: authorize (prompt none, query mode), then the code exchange. */
export const memberTokensFor = (sessionToken: string) =>
  Effect.gen(function*() {
    const platform = yield* LocalPlatform
    const guest = yield* visitor
    const { verifier, challenge } = pkce()
    const state = randomState()
    const url = yield* authUrl(guest.access_token, { redirectUri: REDIRECT_URI, codeChallenge: challenge, state, sessionToken }, "none")
    const page = yield* call("GET", url)
    const location = new URL(page.headers.get("location") ?? "")
    const code = location.searchParams.get("code")
    if (code === null) return yield* Effect.die(new Error(`no code: ${page.status} ${page.headers.get("location")}`))
    return yield* tokens(yield* post("/oauth2/token", {
      clientId: platform.clientId,
      grantType: "authorization_code",
      code,
      codeVerifier: verifier,
      redirectUri: REDIRECT_URI
    }))
  })

/** Logs in with a password (the login must succeed at once) and returns member tokens. */
export const login = (email: string, password: string) =>
  Effect.gen(function*() {
    const guest = yield* visitor
    const res = yield* post("/_api/iam/authentication/v2/login", { loginId: { email }, password }, guest.access_token)
    if (res.status !== 200 || res.body.state !== "SUCCESS") return yield* Effect.die(new Error(`login: ${res.status} ${res.text}`))
    return { ...(yield* memberTokensFor(res.body.sessionToken)), identity: res.body.identity }
  })

/** Registers an active member (with the site's default settings) and returns its e-mail and id. */
export const registerMember = (password = "secret-pass-1") =>
  Effect.gen(function*() {
    const email = uniqueEmail()
    const guest = yield* visitor
    const res = yield* post("/_api/iam/authentication/v2/register", { loginId: { email }, password }, guest.access_token)
    if (res.status !== 200) return yield* Effect.die(new Error(`register: ${res.status} ${res.text}`))
    return { email, password, id: res.body.identity.id as string, response: res.body }
  })

/** Runs `effect` with some site settings, restoring the previous values afterwards. */
export const withSettings = <A, E, R>(patch: Record<string, unknown>, effect: Effect.Effect<A, E, R>) =>
  Effect.acquireUseRelease(
    Effect.flatMap(dev("GET", "/settings"), (before) => Effect.as(dev("PATCH", "/settings", patch), before)),
    () => effect,
    (before) => Effect.orDie(dev("PATCH", "/settings", before))
  )

/** The newest outbox message to an address. */
export const lastMessage = (to: string, kind?: string) =>
  Effect.flatMap(dev("GET", `/outbox?to=${encodeURIComponent(to)}`), (r) => {
    const found = (r.messages as Array<any>).filter((m) => kind === undefined || m.kind === kind)
    const last = found[found.length - 1]
    return last === undefined ? Effect.die(new Error(`no ${kind ?? ""} message to ${to}`)) : Effect.succeed(last)
  })

/** The application code of an error answer. */
export const codeOf = (answer: Answer): string | undefined => answer.body?.details?.applicationError?.code

/** A table's rows in a fixed order, whatever its keys (some tables have no rowid). */
const sortedRows = (rows: ReadonlyArray<Record<string, unknown>>) =>
  rows.map((r) => [JSON.stringify(r, (_, v) => (v instanceof Uint8Array ? Buffer.from(v).toString("hex") : v)), r] as const)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([, r]) => r)

/** Every row of every table whose name starts with `prefix`, through a second (read-only) connection. */
export const snapshotTables = (file: string, prefix = ""): Record<string, unknown> => {
  const db = new DatabaseSync(file, { readOnly: true })
  try {
    const tables = db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name").all()
      .map(({ name }) => String(name))
      .filter((name) => name.startsWith(prefix))
    return Object.fromEntries(tables.map((name) => [name, sortedRows(db.prepare(`SELECT * FROM "${name}"`).all())]))
  } finally {
    db.close()
  }
}
