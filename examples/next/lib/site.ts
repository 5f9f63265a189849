// The site on the server: the session's cookies (kept fresh by proxy.ts, saved by app/api/sitefx), the
// request's visitor or member for server components, and one visitor per server for cached public data.
import { nextSite } from "sitefx/next"

export const site = nextSite({
  clientId: process.env.NEXT_PUBLIC_SITEFX_CLIENT_ID!,
  baseUrl: process.env.NEXT_PUBLIC_SITEFX_BASE_URL
})
