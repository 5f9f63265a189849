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

/** A scripted answer, or `"destroy"` to drop the connection without one. */
export type Reply =
  | { readonly status?: number; readonly headers?: Record<string, string>; readonly json?: unknown; readonly text?: string }
  | "destroy"

export interface RecordingServer {
  readonly origin: string
  readonly requests: Array<Recorded>
  /** The next answers, in order; once used up, `fallback` answers. */
  script: Array<Reply>
  fallback: (req: Recorded) => Reply
}

const answerEmpty = (): Reply => ({ json: {} })

export const recordingServer = (): RecordingServer => {
  let server: Server
  let origin = ""
  const state: RecordingServer = {
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
        const text = r.text ?? (r.json === undefined ? "" : JSON.stringify(r.json))
        res.writeHead(r.status ?? 200, { ...(r.json === undefined ? {} : { "content-type": "application/json" }), ...r.headers })
        res.end(text)
      })
    })
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
