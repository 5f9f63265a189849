// The context of the events guide's Express route: the guide's hook, and Express as its own types
// describe the parts the route uses (its request and response are node:http's, its handlers take
// `next` third). Express is not a dependency of sitefx, so this stands in for `import express from "express"`.
import * as Effect from "effect/Effect"
import type { IncomingMessage, ServerResponse } from "node:http"
import * as Events from "sitefx/events"

type Request = IncomingMessage & { body?: any }
type Handler = (req: Request, res: ServerResponse, next: (error?: unknown) => void) => void | Promise<void>
interface ParserOptions {
  readonly type?: string
  readonly limit?: string | number
}
declare const express: {
  (): {
    use(...handlers: Array<Handler>): unknown
    post(path: string, ...handlers: Array<Handler>): unknown
    listen(port: number): unknown
  }
  json(options?: ParserOptions): Handler
  text(options?: ParserOptions): Handler
  raw(options?: ParserOptions): Handler
}

const hook = Events.Webhooks.handler({
  publicKey: process.env.SITE_PUBLIC_KEY!,
  handlers: { "wix.data.v2.data_item_created": (event) => Effect.log("new item", event.entityId) }
})

/* fragment */
