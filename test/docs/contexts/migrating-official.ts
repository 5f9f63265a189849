/**
 * The official client's side of docs/guide/migrating.md, as the page's first block sets it up: the
 * client's fixed hosts pointed at the local platform, a visitor's client and the owner's client. Each
 * fragment of the page goes in place of the marker line below.
 */
import { items } from "@wix/data"
import { ApiKeyStrategy, createClient, OAuthStrategy } from "@wix/sdk"
import { collections, inventory, products } from "@wix/stores"

const officialHosts = /^https:\/\/(www|edge)\.wixapis\.com/
const realFetch = globalThis.fetch
globalThis.fetch = (input, init) => {
  const request = new Request(input, init)
  const url = request.url.replace(officialHosts, "http://127.0.0.1:8787")
  return realFetch(new Request(url, request))
}

const client = createClient({
  modules: { items, products, collections },
  auth: OAuthStrategy({ clientId: "sitefx-local-client" })
})
const admin = createClient({
  modules: { items, products, inventory },
  auth: ApiKeyStrategy({ apiKey: process.env.SITEFX_API_KEY!, siteId: "sitefx-local-site" })
})

/* fragment */
