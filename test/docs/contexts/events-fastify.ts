// The context of the events guide's Fastify route: the guide's hook, and Fastify as its own types
// describe the parts the route uses (a request with the parsed body and node:http's request as `raw`,
// a reply with node:http's response as `raw`). Fastify is not a dependency of sitefx, so this stands in
// for `import Fastify from "fastify"`.
import * as Effect from "effect/Effect"
import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from "node:http"
import * as Events from "sitefx/events"

interface FastifyRequest {
  readonly method: string
  readonly headers: IncomingHttpHeaders
  readonly body: unknown
  readonly raw: IncomingMessage
}
interface FastifyReply {
  readonly raw: ServerResponse
  hijack(): FastifyReply
}
declare const Fastify: (options?: { readonly bodyLimit?: number }) => {
  post(path: string, handler: (request: FastifyRequest, reply: FastifyReply) => unknown): unknown
  listen(options: { readonly port: number; readonly host?: string }): Promise<string>
}

const hook = Events.Webhooks.handler({
  publicKey: process.env.SITE_PUBLIC_KEY!,
  handlers: { "wix.data.v2.data_item_created": (event) => Effect.log("new item", event.entityId) }
})

/* fragment */
