// The site's events, delivered as signed webhooks (here by the local platform's --webhook).
import * as Effect from "effect/Effect"
import { connection } from "next/server"
import { DataEventTypes, Webhooks } from "sitefx/events"

const received: Array<string> = ((globalThis as { receivedEvents?: Array<string> }).receivedEvents ??= [])

const processor = Webhooks.handler({
  publicKey: process.env.SITE_PUBLIC_KEY ?? "",
  handlers: {
    [DataEventTypes.itemCreated]: (event) => Effect.sync(() => void received.push(`${event.entityFqdn} ${event.entityId}`))
  }
})

export const POST = Webhooks.toFetchHandler(processor)

// what arrived, for a look in the browser
export async function GET() {
  await connection()
  return Response.json({ received })
}
