/** Redirect sessions (the authorize and logout pages) and what the authorize page posts back. */
import * as Schema from "effect/Schema"
import { PROMPTS, RESPONSE_MODES } from "../protocol.ts"

/** How the authorize page hands back the code: in the callback URL's `fragment` or `query`, or posted to the parent window (`web_message`). */
export const ResponseMode = Schema.Literals(RESPONSE_MODES)
/** How the authorize page hands back the code: in the callback URL's `fragment` or `query`, or posted to the parent window (`web_message`). */
export type ResponseMode = typeof ResponseMode.Type

/** What the authorize page shows: the login form, nothing (`none`, a silent login), a consent or an account choice. */
export const Prompt = Schema.Literals(PROMPTS)
/** What the authorize page shows: the login form, nothing (`none`, a silent login), a consent or an account choice. */
export type Prompt = typeof Prompt.Type

/** The login part of a redirect session's request: client id, PKCE challenge, response mode, state, and a silent login's session token. */
export const AuthRequest = Schema.Struct({
  redirectUri: Schema.optionalKey(Schema.String),
  clientId: Schema.String,
  codeChallenge: Schema.String,
  codeChallengeMethod: Schema.Literal("S256"),
  responseMode: ResponseMode,
  responseType: Schema.Literal("code"),
  scope: Schema.String,
  state: Schema.String,
  sessionToken: Schema.optionalKey(Schema.String),
  idp: Schema.optionalKey(Schema.String)
})
/** The login part of a redirect session's request: client id, PKCE challenge, response mode, state, and a silent login's session token. */
export type AuthRequest = typeof AuthRequest.Type

/** The body of `POST /_api/redirects-api/v1/redirect-session`, sent by `loginUrl` (`auth`), `logout`, the pre-warm (`login`) and a checkout's redirect (`ecomCheckout`). */
export const RedirectSessionRequest = Schema.Struct({
  auth: Schema.optionalKey(Schema.Struct({ authRequest: AuthRequest, prompt: Schema.optionalKey(Prompt) })),
  logout: Schema.optionalKey(Schema.Struct({ clientId: Schema.String })),
  login: Schema.optionalKey(Schema.Struct({})),
  ecomCheckout: Schema.optionalKey(Schema.Struct({ checkoutId: Schema.String })),
  callbacks: Schema.optionalKey(Schema.Struct({
    postFlowUrl: Schema.optionalKey(Schema.String),
    thankYouPageUrl: Schema.optionalKey(Schema.String)
  }))
})
/** The body of `POST /_api/redirects-api/v1/redirect-session`, sent by `loginUrl` (`auth`), `logout`, the pre-warm (`login`) and a checkout's redirect (`ecomCheckout`). */
export type RedirectSessionRequest = typeof RedirectSessionRequest.Type

/** A redirect session the platform created: `fullUrl` is the page to send the browser (or a hidden iframe) to. */
export const RedirectSession = Schema.Struct({
  id: Schema.String,
  fullUrl: Schema.String,
  urlDetails: Schema.Struct({
    endpoint: Schema.String,
    searchParams: Schema.Record(Schema.String, Schema.String)
  }),
  sessionToken: Schema.optionalKey(Schema.String)
})
/** A redirect session the platform created: `fullUrl` is the page to send the browser (or a hidden iframe) to. */
export type RedirectSession = typeof RedirectSession.Type

/** What `POST /_api/redirects-api/v1/redirect-session` answers `loginUrl`, `logout` and the pre-warm: the redirect session. */
export const RedirectSessionResponse = Schema.Struct({ redirectSession: RedirectSession })

/** What the authorize page posts to the parent window in `web_message` mode. */
export const AuthorizeMessage = Schema.Struct({
  state: Schema.String,
  code: Schema.optionalKey(Schema.String),
  error: Schema.optionalKey(Schema.String),
  error_description: Schema.optionalKey(Schema.String)
})
/** What the authorize page posts to the parent window in `web_message` mode. */
export type AuthorizeMessage = typeof AuthorizeMessage.Type
