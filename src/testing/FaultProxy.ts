/**
 * A TCP proxy that makes the network unreliable, for tests of code that talks to a platform (or to
 * anything over TCP on this machine). It listens on 127.0.0.1 and pipes each connection to a loopback
 * target, meeting it with the faults of its plan: a delay on every chunk each way, connections reset
 * (before anything is forwarded, or after the request and part of the answer went through), every
 * open connection cut every so often (a long-lived stream such as `Events.live` must reconnect),
 * connections that take the request and never answer (for timeouts), and a bandwidth cap. Draws come
 * from a PRNG seeded with `seed`, so a run meets the same faults in the same order of connections.
 * Closing the scope closes the listener and every connection.
 *
 * @example
 * import { FaultProxy, LocalPlatform } from "sitefx/testing"
 * const platform = yield* LocalPlatform
 * const proxy = yield* FaultProxy.start({ target: platform.url, seed: 7 })
 * yield* proxy.set({ resetRate: 0.05, latencyMs: 20, cutEveryMs: 1000 })
 * // point the client at proxy.url instead of platform.url; every run meets the same resets
 * yield* proxy.cutAll
 * const { connections, resets, cuts } = yield* proxy.stats
 */
import * as Data from "effect/Data"
import * as Effect from "effect/Effect"
import type * as Scope from "effect/Scope"
import { isIP, type Server, type Socket, createConnection, createServer } from "node:net"
import { seededRandom } from "../server/platform/seededRandom.ts"

/** What the proxy does to the connections it pipes; every fault is off when its field is absent. */
export interface FaultPlan {
  /** Milliseconds each chunk waits, each way. */
  readonly latencyMs?: number | undefined
  /** The probability a new connection is reset: before anything is forwarded, or after its request and part of the answer (an even draw). */
  readonly resetRate?: number | undefined
  /** Every open connection is cut this often, in milliseconds. */
  readonly cutEveryMs?: number | undefined
  /** The probability a new connection takes its request and never answers. */
  readonly stallRate?: number | undefined
  /** Bytes per second each way, per connection. */
  readonly bandwidth?: number | undefined
}

/** Where a proxy sends its connections, the port it listens on, the seed of its draws and the plan it starts with. */
export interface FaultProxyOptions {
  /** Where connections go: a loopback URL (`http://127.0.0.1:8787`) or `host:port`. */
  readonly target: string
  /** The port to listen on; a free one when absent. */
  readonly port?: number | undefined
  /** The seed of the proxy's draws (1 when absent). */
  readonly seed?: number | undefined
  /** The faults to start with (none when absent). */
  readonly plan?: FaultPlan | undefined
}

/** What the proxy has done so far. */
export interface FaultProxyStats {
  /** Connections accepted. */
  readonly connections: number
  /** Connections reset by `resetRate`. */
  readonly resets: number
  /** Connections cut by `cutEveryMs` or `cutAll`. */
  readonly cuts: number
  /** Connections stalled by `stallRate`. */
  readonly stalls: number
  /** Bytes forwarded to the target. */
  readonly bytesUp: number
  /** Bytes forwarded back to clients. */
  readonly bytesDown: number
}

/** A running proxy. */
export interface FaultProxy {
  /** Where clients connect: the target's scheme, 127.0.0.1 and the proxy's port. */
  readonly url: string
  readonly port: number
  /** Replaces the plan (for connections from now on; latency, bandwidth and cuts apply to open ones too). */
  readonly set: (plan: FaultPlan) => Effect.Effect<void, FaultProxyError>
  /** Cuts every open connection now. */
  readonly cutAll: Effect.Effect<void>
  readonly stats: Effect.Effect<FaultProxyStats>
}

/** A proxy that cannot start or a plan it cannot take: a target off this machine, a bad port, a rate outside [0, 1]. */
export class FaultProxyError extends Data.TaggedError("FaultProxyError")<{
  readonly reason: "NotLoopback" | "BadTarget" | "BadPlan" | "Listen"
  readonly message: string
  readonly cause?: unknown
}> {}

const isLoopback = (host: string): boolean => {
  const bare = host.startsWith("[") && host.endsWith("]") ? host.slice(1, -1) : host
  if (bare === "localhost") return true
  if (isIP(bare) === 4) return bare.startsWith("127.")
  if (isIP(bare) === 6) return bare === "::1" || bare === "0:0:0:0:0:0:0:1" || bare.startsWith("::ffff:127.")
  return false
}

interface Target {
  readonly scheme: string
  readonly host: string
  readonly port: number
}

const parseTarget = (target: string): Effect.Effect<Target, FaultProxyError> => {
  let url: URL
  try {
    url = new URL(/^[a-z][a-z0-9+.-]*:\/\//i.test(target) ? target : `tcp://${target}`)
  } catch (cause) {
    return Effect.fail(new FaultProxyError({ reason: "BadTarget", message: `The target ${target} is not a URL or host:port`, cause }))
  }
  const port = url.port === "" ? (url.protocol === "https:" ? 443 : url.protocol === "http:" ? 80 : NaN) : Number(url.port)
  if (!Number.isInteger(port) || port < 1 || port > 65535) {
    return Effect.fail(new FaultProxyError({ reason: "BadTarget", message: `The target ${target} has no port` }))
  }
  if (!isLoopback(url.hostname)) {
    return Effect.fail(new FaultProxyError({ reason: "NotLoopback", message: `The target ${url.hostname} is not a loopback address: the fault proxy only reaches this machine` }))
  }
  const host = url.hostname.startsWith("[") ? url.hostname.slice(1, -1) : url.hostname
  return Effect.succeed({ scheme: url.protocol === "tcp:" ? "http:" : url.protocol, host, port })
}

const planProblem = (plan: FaultPlan): string | undefined => {
  for (const key of ["resetRate", "stallRate"] as const) {
    const rate = plan[key]
    if (rate !== undefined && !(rate >= 0 && rate <= 1)) return `${key} is a probability from 0 to 1`
  }
  for (const key of ["latencyMs", "cutEveryMs", "bandwidth"] as const) {
    const value = plan[key]
    if (value !== undefined && !(Number.isFinite(value) && value >= 0)) return `${key} is a number from 0`
  }
  if (plan.cutEveryMs !== undefined && plan.cutEveryMs > 0 && plan.cutEveryMs < 10) return "cutEveryMs is at least 10"
  return undefined
}

const checkedPlan = (plan: FaultPlan): Effect.Effect<FaultPlan, FaultProxyError> => {
  const problem = planProblem(plan)
  return problem === undefined ? Effect.succeed(plan) : Effect.fail(new FaultProxyError({ reason: "BadPlan", message: problem }))
}

/** One piped connection: the client's socket, the target's once connected, and how to cut both. */
interface Pipe {
  readonly client: Socket
  upstream: Socket | undefined
}

const hardClose = (socket: Socket | undefined) => {
  if (socket === undefined || socket.destroyed) return
  if (typeof socket.resetAndDestroy === "function") socket.resetAndDestroy()
  else socket.destroy()
}

/**
 * Starts a proxy to a loopback `target`, closed with the scope. A target off this machine is a
 * `NotLoopback` error; a port already taken is a `Listen` error.
 */
export const start = (options: FaultProxyOptions): Effect.Effect<FaultProxy, FaultProxyError, Scope.Scope> =>
  Effect.gen(function*() {
    const target = yield* parseTarget(options.target)
    let plan = yield* checkedPlan(options.plan ?? {})
    const draw = seededRandom(options.seed ?? 1)
    const open = new Set<Pipe>()
    const counts = { connections: 0, resets: 0, cuts: 0, stalls: 0, bytesUp: 0, bytesDown: 0 }
    let cutTimer: ReturnType<typeof setInterval> | undefined

    const cut = (pipe: Pipe) => {
      if (!open.delete(pipe)) return
      counts.cuts += 1
      hardClose(pipe.client)
      hardClose(pipe.upstream)
    }
    const cutAllNow = () => {
      for (const pipe of [...open]) cut(pipe)
    }
    const schedule = () => {
      if (cutTimer !== undefined) clearInterval(cutTimer)
      cutTimer = plan.cutEveryMs !== undefined && plan.cutEveryMs > 0 ? setInterval(cutAllNow, plan.cutEveryMs) : undefined
      cutTimer?.unref()
    }

    /** Sends chunks to `to` in order, each after the plan's latency and the bandwidth's pace; its end comes after them. */
    const sender = (to: Socket, counted: "bytesUp" | "bytesDown") => {
      let freeAt = 0
      const later = (length: number, send: () => void) => {
        const now = Date.now()
        const pace = plan.bandwidth !== undefined && plan.bandwidth > 0 ? (length / plan.bandwidth) * 1000 : 0
        const due = Math.max(now + (plan.latencyMs ?? 0), freeAt + pace)
        freeAt = due
        if (due <= now) send()
        else setTimeout(send, due - now)
      }
      return {
        write: (chunk: Buffer, then?: () => void) =>
          later(chunk.length, () => {
            if (to.destroyed) return
            counts[counted] += chunk.length
            to.write(chunk, then === undefined ? undefined : () => then())
          }),
        end: () =>
          later(0, () => {
            if (!to.destroyed) to.end()
          })
      }
    }

    const pipeConnection = (client: Socket, resetAfter: boolean) => {
      const upstream = createConnection({ host: target.host, port: target.port, allowHalfOpen: true })
      const pipe: Pipe = { client, upstream }
      open.add(pipe)
      const up = sender(upstream, "bytesUp")
      const down = sender(client, "bytesDown")
      let requested = false
      client.on("data", (chunk: Buffer) => {
        requested = true
        up.write(chunk)
      })
      upstream.on("data", (chunk: Buffer) => {
        if (!resetAfter || !requested) return down.write(chunk)
        // part of the answer gets through, then the connection is reset
        upstream.pause()
        down.write(chunk.subarray(0, Math.max(1, Math.floor(chunk.length / 2))), () => {
          open.delete(pipe)
          hardClose(client)
          upstream.destroy()
        })
      })
      // an orderly end follows the data still queued; a failure on one side resets the other at once
      client.on("end", up.end)
      upstream.on("end", down.end)
      client.on("close", (failed: boolean) => {
        if (failed) hardClose(upstream)
        if (upstream.destroyed) open.delete(pipe)
      })
      upstream.on("error", () => hardClose(client))
      upstream.on("close", (failed: boolean) => {
        if (failed) hardClose(client)
        if (client.destroyed) open.delete(pipe)
      })
    }

    const accept = (client: Socket) => {
      counts.connections += 1
      client.on("error", () => {})
      const stall = draw() < (plan.stallRate ?? 0)
      const reset = draw() < (plan.resetRate ?? 0)
      const resetAfter = draw() < 0.5
      if (stall) {
        counts.stalls += 1
        const pipe: Pipe = { client, upstream: undefined }
        open.add(pipe)
        client.on("data", () => {})
        client.on("close", () => open.delete(pipe))
        return
      }
      if (reset) {
        counts.resets += 1
        if (!resetAfter) return hardClose(client)
      }
      pipeConnection(client, reset && resetAfter)
    }

    const server: Server = createServer({ allowHalfOpen: true }, accept)
    const port = yield* Effect.acquireRelease(
      Effect.callback<number, FaultProxyError>((resume) => {
        const failed = (cause: Error) =>
          resume(Effect.fail(new FaultProxyError({ reason: "Listen", message: `The fault proxy could not listen: ${cause.message}`, cause })))
        server.once("error", failed)
        server.listen({ host: "127.0.0.1", port: options.port ?? 0 }, () => {
          server.off("error", failed)
          const address = server.address()
          resume(Effect.succeed(typeof address === "object" && address !== null ? address.port : 0))
        })
      }),
      () =>
        Effect.callback<void>((resume) => {
          if (cutTimer !== undefined) clearInterval(cutTimer)
          for (const pipe of open) {
            hardClose(pipe.client)
            hardClose(pipe.upstream)
          }
          open.clear()
          server.close(() => resume(Effect.void))
        })
    )
    schedule()

    return {
      url: `${target.scheme}//127.0.0.1:${port}`,
      port,
      set: (next) =>
        Effect.map(checkedPlan(next), (checked) => {
          plan = checked
          schedule()
        }),
      cutAll: Effect.sync(cutAllNow),
      stats: Effect.sync(() => ({ ...counts }))
    } satisfies FaultProxy
  })
