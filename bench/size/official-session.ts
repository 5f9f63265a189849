// The official client doing the same: a visitor session.
import { createClient, OAuthStrategy } from "@wix/sdk"

const client = createClient({ auth: OAuthStrategy({ clientId: "my-client-id" }) })
client.auth.generateVisitorTokens().then((tokens) => console.log(client.auth.loggedIn(), tokens))
