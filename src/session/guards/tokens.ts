/** Guards of the token endpoint's answer and of the session a token store keeps. */
import * as G from "../../http/guard.ts"
import { TOKEN_ROLES } from "../protocol.ts"

const str = G.string

export const Tokens = G.struct({
  accessToken: G.struct({ value: str, expiresAt: G.number }),
  refreshToken: G.struct({ value: str, role: G.literals(TOKEN_ROLES) })
})

export const OAuthData = G.struct({ state: str, codeVerifier: str, codeChallenge: str, redirectUri: str, originalUri: str })
export const StoredSession = G.struct({ tokens: Tokens, oauthData: G.optional(OAuthData) })

export const TokenResponse = G.struct({
  access_token: str,
  expires_in: G.number,
  refresh_token: str,
  token_type: str,
  scope: G.optional(str)
})
