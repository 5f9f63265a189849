/** The token endpoint's requests and answers, and the token set the client keeps. */
import * as Schema from "effect/Schema"
import { TOKEN_ROLES } from "../protocol.ts"

/** Whose tokens they are: `none` (no session yet), a `visitor`, or a signed-in `member`. */
export const TokenRole = Schema.Literals(TOKEN_ROLES)
/** Whose tokens they are: `none` (no session yet), a `visitor`, or a signed-in `member`. */
export type TokenRole = typeof TokenRole.Type

/** `expiresAt` is epoch seconds (now + expires_in). */
export const AccessToken = Schema.Struct({ value: Schema.String, expiresAt: Schema.Number })
/** An access token and when it expires (epoch seconds). */
export type AccessToken = typeof AccessToken.Type

/** The refresh token, and the role it carries: whether a member is signed in. */
export const RefreshToken = Schema.Struct({ value: Schema.String, role: TokenRole })
/** The refresh token, and the role it carries: whether a member is signed in. */
export type RefreshToken = typeof RefreshToken.Type

/** The client's token set, exactly as the platform's own client keeps it. */
export const Tokens = Schema.Struct({ accessToken: AccessToken, refreshToken: RefreshToken })
/** The client's token set: the access token and the refresh token. */
export type Tokens = typeof Tokens.Type

/** The token call's body that asks for visitor tokens (`POST /oauth2/token`, `grantType: "anonymous"`). */
export const AnonymousGrant = Schema.Struct({
  clientId: Schema.String,
  grantType: Schema.Literal("anonymous")
})
/** The token call's body that renews the access token with the refresh token (`grantType: "refresh_token"`). */
export const RefreshGrant = Schema.Struct({
  clientId: Schema.String,
  grantType: Schema.Literal("refresh_token"),
  refreshToken: Schema.String
})
/** The token call's body that exchanges a login's code and PKCE verifier for member tokens (`grantType: "authorization_code"`). */
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
/** Any body `POST /oauth2/token` takes: one of the four grants. */
export const TokenRequest = Schema.Union([AnonymousGrant, RefreshGrant, AuthorizationCodeGrant, AuthorizedClientGrant])
/** Any body `POST /oauth2/token` takes: one of the four grants. */
export type TokenRequest = typeof TokenRequest.Type

/** What `POST /oauth2/token` answers every grant: new access and refresh tokens, and the access token's lifetime in seconds. */
export const TokenResponse = Schema.Struct({
  access_token: Schema.String,
  expires_in: Schema.Number,
  refresh_token: Schema.String,
  token_type: Schema.String,
  scope: Schema.optionalKey(Schema.String)
})
/** What `POST /oauth2/token` answers every grant: new access and refresh tokens, and the access token's lifetime in seconds. */
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
