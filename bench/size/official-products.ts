// The official client doing the same: a visitor session, one data query and one product query.
import { items } from "@wix/data"
import { createClient, OAuthStrategy } from "@wix/sdk"
import { products } from "@wix/stores"

const client = createClient({ modules: { items, products }, auth: OAuthStrategy({ clientId: "my-client-id" }) })
client.items.query("Posts").limit(10).find().then(console.log)
client.products.queryProducts().gt("priceData.price", 20).limit(24).find().then(console.log)
