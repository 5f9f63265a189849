// The official client doing the same: a visitor session and one product query's first page.
import { createClient, OAuthStrategy } from "@wix/sdk"
import { products } from "@wix/stores"

const client = createClient({ modules: { products }, auth: OAuthStrategy({ clientId: "my-client-id" }) })
client.products.queryProducts().descending("lastUpdated").limit(24).find().then(console.log)
