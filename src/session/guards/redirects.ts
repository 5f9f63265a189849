/** Guards of a redirect session and of the authorize page's message. */
import * as G from "../../http/guard.ts"

const str = G.string
const optStr = G.optional(str)

export const RedirectSessionResponse = G.struct({
  redirectSession: G.struct({
    id: str,
    fullUrl: str,
    urlDetails: G.struct({ endpoint: str, searchParams: G.record(str) }),
    sessionToken: optStr
  })
})

export const AuthorizeMessage = G.struct({ state: str, code: optStr, error: optStr, error_description: optStr })
