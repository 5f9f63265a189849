/**
 * A node:http server on 127.0.0.1 that records every request and answers from a script, for tests that
 * look at exactly what crossed the wire. Register it once per test file; it starts before the file's
 * tests, forgets requests and script before each test, and closes afterwards.
 */
import { afterAll, beforeAll, beforeEach } from "@effect/vitest"
import { createServer, type IncomingHttpHeaders, type Server } from "node:http"
import type { AddressInfo } from "node:net"

export interface Recorded {
  readonly method: string
  readonly url: string
  readonly headers: IncomingHttpHeaders
  readonly body: string
  readonly at: number
}

/**
 * A scripted answer; `"destroy"` drops the connection without one, `"stall"` never answers, and
 * `stallAfter` sends the status, the headers and that much of the body, then nothing more.
 */
export type Reply =
  | { readonly status?: number; readonly headers?: Record<string, string>; readonly json?: unknown; readonly text?: string; readonly stallAfter?: string }
  | "destroy"
  | "stall"

export interface RecordingServer {
  readonly origin: string
  readonly requests: Array<Recorded>
  /** The next answers, in order; once used up, `fallback` answers. */
  script: Array<Reply>
  fallback: (req: Recorded) => Reply
  /** Connections the server has seen close (by either side), since the file started. */
  readonly closed: () => number
}

const answerEmpty = (): Reply => ({ json: {} })

export const recordingServer = (): RecordingServer => {
  let server: Server
  let origin = ""
  let closed = 0
  const state: RecordingServer = {
    closed: () => closed,
    get origin() {
      return origin
    },
    requests: [],
    script: [],
    fallback: answerEmpty
  }
  beforeAll(async () => {
    server = createServer((req, res) => {
      const chunks: Array<Buffer> = []
      req.on("data", (c: Buffer) => chunks.push(c))
      req.on("end", () => {
        const recorded: Recorded = {
          method: req.method ?? "",
          url: req.url ?? "",
          headers: req.headers,
          body: Buffer.concat(chunks).toString("utf8"),
          at: Date.now()
        }
        state.requests.push(recorded)
        const r = state.script.shift() ?? state.fallback(recorded)
        if (r === "destroy") {
          req.socket.destroy()
          return
        }
        if (r === "stall") return
        if (r.stallAfter !== undefined) {
          res.writeHead(r.status ?? 200, { "content-type": "application/json", "content-length": String(r.stallAfter.length * 2), ...r.headers })
          res.write(r.stallAfter)
          return
        }
        const text = r.text ?? (r.json === undefined ? "" : JSON.stringify(r.json))
        res.writeHead(r.status ?? 200, { ...(r.json === undefined ? {} : { "content-type": "application/json" }), ...r.headers })
        res.end(text)
      })
    })
    server.on("connection", (socket) => socket.on("close", () => closed++))
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
    origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  })
  afterAll(async () => {
    server.closeAllConnections()
    await new Promise<void>((resolve) => server.close(() => resolve()))
  })
  beforeEach(() => {
    state.requests.length = 0
    state.script = []
    state.fallback = answerEmpty
  })
  return state
}
