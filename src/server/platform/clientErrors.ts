/**
 * Requests Node's HTTP parser refuses before the platform sees them (headers or a URL over Node's
 * 16 KB limit, a malformed request line): Node would close the socket or answer a bare status. They get
 * the platform's answer instead: a 4xx in its error shape, with a request id, so a client sees what
 * every other refusal looks like.
 */
import { randomUUID } from "node:crypto"
import type { Server } from "node:http"
import type { Duplex } from "node:stream"
import { REQUEST_ID_HEADER, type Rule } from "../../http/wire.ts"

const HEADER_BYTES = 16 * 1024

const answers: Record<string, readonly [number, string, string]> = {
  HPE_HEADER_OVERFLOW: [431, "Request Header Fields Too Large", "The request's URL and headers pass the 16 KB the platform reads; send big payloads as a POST body"],
  HPE_REQUEST_TIMEOUT: [408, "Request Timeout", "The request did not arrive in time"]
}

const ruleOf = (status: number, message: string): Rule =>
  status === 431
    ? { kind: "bound", id: "request.headers.max-bytes", message, fields: [], limit: HEADER_BYTES }
    : status === 408
    ? { kind: "bound", id: "request.timeout", message, fields: [] }
    : { kind: "validation", id: "request.malformed", message, fields: [] }

/** Makes `server` answer requests its parser refuses in the platform's shape. */
export const withClientErrors = (server: Server): Server =>
  server.on("clientError", (error: NodeJS.ErrnoException, socket: Duplex) => {
    if (error.code === "ECONNRESET" || !socket.writable) return socket.destroy()
    const [status, reason, description] = answers[error.code ?? ""] ?? [400, "Bad Request", "The request is not valid HTTP"]
    const code = status === 431 ? "REQUEST_HEADERS_TOO_LARGE" : status === 408 ? "REQUEST_TIMEOUT" : "MALFORMED_REQUEST"
    const body = JSON.stringify({ message: description, details: { applicationError: { code, description }, rule: ruleOf(status, description) } })
    socket.end(
      `HTTP/1.1 ${status} ${reason}\r\ncontent-type: application/json\r\ncontent-length: ${Buffer.byteLength(body)}\r\n` +
        `${REQUEST_ID_HEADER}: ${randomUUID()}\r\naccess-control-allow-origin: *\r\nconnection: close\r\n\r\n${body}`
    )
  })
