/**
 * A webhook's body from a Node server's request, whoever had the request first: node:http's own
 * `IncomingMessage` (read here, up to the size limit), or a framework's request whose body parser
 * already left the raw body on `request.body` (a Buffer from Express's `raw()`, a string from its
 * `text()` or from Fastify's text parser).
 *
 * The shapes are structural, not node:http's types: `sitefx/events` is a browser entry, and a type
 * import of `node:http` in its declarations fails to compile in a project without Node's types.
 */

/**
 * What the Node adapter reads of a request: node:http's `IncomingMessage` (or Express's request, which is
 * one), or any request with a method, headers and the raw body on `body` (Fastify's `request`).
 */
export interface NodeRequest {
  readonly method?: string | undefined
  readonly headers: { readonly [name: string]: string | ReadonlyArray<string> | undefined }
  /** The body a framework's parser left: a string or bytes are the raw body; anything else was parsed. */
  readonly body?: unknown
  /** False once the stream was read to its end (or destroyed). */
  readonly readable?: boolean
  on?(event: string, listener: (...args: Array<any>) => void): unknown
  removeListener?(event: string, listener: (...args: Array<any>) => void): unknown
}

/** What the Node adapter writes to: node:http's `ServerResponse` (Express's `res`, Fastify's `reply.raw`). */
export interface NodeResponse {
  writeHead(statusCode: number, headers: Record<string, string>): unknown
  end(body: string): unknown
}

/** A request's body as the adapter found it. */
export type NodeBody =
  | { readonly _tag: "Text"; readonly text: string }
  | { readonly _tag: "TooLarge" }
  /** A parser turned it into something that is neither text nor bytes: not the token as it was sent. */
  | { readonly _tag: "Parsed" }
  /** Read by something else before the adapter, and not kept. */
  | { readonly _tag: "Consumed" }
  /** The stream failed or was cut off. */
  | { readonly _tag: "Unreadable" }

const utf8 = new TextDecoder("utf-8")
const encoder = new TextEncoder()

const text = (value: string): NodeBody => ({ _tag: "Text", text: value })
const tooLarge: NodeBody = { _tag: "TooLarge" }

const header = (request: NodeRequest, name: string): string | undefined => {
  const value = request.headers[name]
  return typeof value === "string" ? value : value?.[0]
}

/** A string's UTF-8 size is at most three bytes a character, so only a string near the limit is measured. */
const textOver = (value: string, max: number) =>
  value.length > max || (value.length * 3 > max && encoder.encode(value).byteLength > max)

/** The body of `request` as text, reading no more than `max` bytes of a stream. */
export const readNodeBody = (request: NodeRequest, max: number): Promise<NodeBody> => {
  if (Number(header(request, "content-length") ?? "0") > max) return Promise.resolve(tooLarge)
  const body = request.body
  if (typeof body === "string") return Promise.resolve(textOver(body, max) ? tooLarge : text(body))
  if (body instanceof Uint8Array) return Promise.resolve(body.byteLength > max ? tooLarge : text(utf8.decode(body)))
  // a parser that did not take the body's type may still leave a value (Express 4's json() leaves {}),
  // so a stream nobody read is read whatever `body` holds
  if (request.readable !== false && request.on !== undefined && request.removeListener !== undefined) {
    return readStream(request as Required<Pick<NodeRequest, "on" | "removeListener">>, max)
  }
  if (body !== undefined && body !== null) return Promise.resolve({ _tag: "Parsed" })
  const declared = header(request, "content-length")
  const none = (declared === undefined || Number(declared) === 0) && header(request, "transfer-encoding") === undefined
  return Promise.resolve(none ? text("") : { _tag: "Consumed" })
}

const readStream = (request: Required<Pick<NodeRequest, "on" | "removeListener">>, max: number): Promise<NodeBody> =>
  new Promise((resolve) => {
    const chunks: Array<Uint8Array> = []
    let total = 0
    let settled = false
    const settle = (outcome: NodeBody) => {
      if (settled) return
      settled = true
      // the stream keeps flowing without a data listener: the rest of an oversized body is discarded
      // as it comes, and the answer goes out on a connection that stays usable; the error listener
      // stays, so that a connection cut later is not an unhandled error
      request.removeListener("data", onData)
      request.removeListener("end", onEnd)
      request.removeListener("close", onClose)
      resolve(outcome)
    }
    const onData = (chunk: Uint8Array | string) => {
      const bytes = typeof chunk === "string" ? encoder.encode(chunk) : chunk
      total += bytes.byteLength
      if (total > max) return settle(tooLarge)
      chunks.push(bytes)
    }
    const onEnd = () => {
      const all = new Uint8Array(total)
      let at = 0
      for (const chunk of chunks) {
        all.set(chunk, at)
        at += chunk.byteLength
      }
      settle(text(utf8.decode(all)))
    }
    // a request cut off before its end closes without ending
    const onClose = () => settle({ _tag: "Unreadable" })
    request.on("error", () => settle({ _tag: "Unreadable" }))
    request.on("data", onData)
    request.on("end", onEnd)
    request.on("close", onClose)
  })
