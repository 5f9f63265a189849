/**
 * Where the examples find their site: `SITEFX_BASE_URL` (default: the local platform `npm start` runs),
 * and, when `SITEFX_API_KEY` is not set, the local platform's own dev endpoint, which tells scripts on
 * this machine its client id, site id and API key (the same values `npm start` prints).
 */
export interface SiteConnection {
  readonly baseUrl: string
  readonly clientId: string
  readonly siteId: string | undefined
  readonly apiKey: string
}

export const siteConnection = async (): Promise<SiteConnection> => {
  const baseUrl = process.env.SITEFX_BASE_URL ?? "http://127.0.0.1:8787"
  const apiKey = process.env.SITEFX_API_KEY
  if (apiKey !== undefined) {
    return { baseUrl, apiKey, clientId: process.env.SITEFX_CLIENT_ID ?? "sitefx-local-client", siteId: process.env.SITEFX_SITE_ID }
  }
  const res = await fetch(`${baseUrl}/_sitefx/site`).catch(() => undefined)
  if (res === undefined || !res.ok) {
    throw new Error(`No SITEFX_API_KEY, and no local platform with dev endpoints at ${baseUrl} (start one: npm start)`)
  }
  const site = (await res.json()) as { readonly clientId: string; readonly siteId: string; readonly apiKey: string }
  return { baseUrl, ...site }
}
