/** The token endpoint's requests and answers, and the token set the client keeps. */
import * as Schema from "effect/Schema"
import { TOKEN_ROLES } from "../protocol.ts"

export const TokenRole = Schema.Literals(TOKEN_ROLES)
export type TokenRole = typeof TokenRole.Type

/** `expiresAt` is epoch seconds (now + expires_in). */
export const AccessToken = Schema.Struct({ value: Schema.String, expiresAt: Schema.Number })
export type AccessToken = typeof AccessToken.Type

export const RefreshToken = Schema.Struct({ value: Schema.String, role: TokenRole })
export type RefreshToken = typeof RefreshToken.Type

/** The client's token set, exactly as the platform's own client keeps it. */
export const Tokens = Schema.Struct({ accessToken: AccessToken, refreshToken: RefreshToken })
export type Tokens = typeof Tokens.Type

export const AnonymousGrant = Schema.Struct({
  clientId: Schema.String,
  grantType: Schema.Literal("anonymous")
})
export const RefreshGrant = Schema.Struct({
  clientId: Schema.String,
  grantType: Schema.Literal("refresh_token"),
  refreshToken: Schema.String
})
export const AuthorizationCodeGrant = Schema.Struct({
  clientId: Schema.String,
  grantType: Schema.Literal("authorization_code"),
  code: Schema.String,
  codeVerifier: Schema.String,
  redirectUri: Schema.optionalKey(Schema.String)
})
/** External login: snake_case, no client id; the auth header is `<access token>,<api key>`. */
export const AuthorizedClientGrant = Schema.Struct({
  grant_type: Schema.Literal("authorized_client"),
  scope: Schema.optionalKey(Schema.String),
  member_id: Schema.String,
  session_token: Schema.optionalKey(Schema.String)
})
export const TokenRequest = Schema.Union([AnonymousGrant, RefreshGrant, AuthorizationCodeGrant, AuthorizedClientGrant])
export type TokenRequest = typeof TokenRequest.Type

export const TokenResponse = Schema.Struct({
  access_token: Schema.String,
  expires_in: Schema.Number,
  refresh_token: Schema.String,
  token_type: Schema.String,
  scope: Schema.optionalKey(Schema.String)
})
export type TokenResponse = typeof TokenResponse.Type

/** The PKCE data of a login between `loginUrl` and `completeRedirect`, kept by the token store. */
export const OAuthData = Schema.Struct({
  state: Schema.String,
  codeVerifier: Schema.String,
  codeChallenge: Schema.String,
  redirectUri: Schema.String,
  originalUri: Schema.String
})

/** Everything a token store persists, as one JSON document. */
export const StoredSession = Schema.Struct({ tokens: Tokens, oauthData: Schema.optionalKey(OAuthData) })
