/** Redirect sessions (the authorize and logout pages) and what the authorize page posts back. */
import * as Schema from "effect/Schema"
import { PROMPTS, RESPONSE_MODES } from "../protocol.ts"

export const ResponseMode = Schema.Literals(RESPONSE_MODES)
export type ResponseMode = typeof ResponseMode.Type

export const Prompt = Schema.Literals(PROMPTS)
export type Prompt = typeof Prompt.Type

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
export type AuthRequest = typeof AuthRequest.Type

export const RedirectSessionRequest = Schema.Struct({
  auth: Schema.optionalKey(Schema.Struct({ authRequest: AuthRequest, prompt: Schema.optionalKey(Prompt) })),
  logout: Schema.optionalKey(Schema.Struct({ clientId: Schema.String })),
  login: Schema.optionalKey(Schema.Struct({})),
  callbacks: Schema.optionalKey(Schema.Struct({ postFlowUrl: Schema.optionalKey(Schema.String) }))
})
export type RedirectSessionRequest = typeof RedirectSessionRequest.Type

export const RedirectSession = Schema.Struct({
  id: Schema.String,
  fullUrl: Schema.String,
  urlDetails: Schema.Struct({
    endpoint: Schema.String,
    searchParams: Schema.Record(Schema.String, Schema.String)
  }),
  sessionToken: Schema.optionalKey(Schema.String)
})
export type RedirectSession = typeof RedirectSession.Type

export const RedirectSessionResponse = Schema.Struct({ redirectSession: RedirectSession })

/** What the authorize page posts to the parent window in `web_message` mode. */
export const AuthorizeMessage = Schema.Struct({
  state: Schema.String,
  code: Schema.optionalKey(Schema.String),
  error: Schema.optionalKey(Schema.String),
  error_description: Schema.optionalKey(Schema.String)
})
export type AuthorizeMessage = typeof AuthorizeMessage.Type
