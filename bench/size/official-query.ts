// The official client doing the same: a visitor session and one data query.
import { items } from "@wix/data"
import { createClient, OAuthStrategy } from "@wix/sdk"

const client = createClient({ modules: { items }, auth: OAuthStrategy({ clientId: "my-client-id" }) })
client.items.query("Posts").limit(10).find().then(console.log)
