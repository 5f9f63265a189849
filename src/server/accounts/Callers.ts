/**
 * Who is calling: the `Authorization` header resolved into a visitor, a member, an admin (an API key,
 * optionally with the visitor or member session it acts for: `<access token>,<api key>`) or nobody.
 * Every platform module asks this service, so permission rules read the same everywhere.
 */
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as HttpServerRequest from "effect/http/HttpServerRequest"
import { AccessTokens } from "./AccessTokens.ts"
import { MemberStore } from "./MemberStore.ts"
import type { AdminCaller, Caller, MemberCaller, SessionCaller } from "../platform/Caller.ts"
import { CurrentRequestNote } from "../platform/requestNote.ts"
import { forbidden, type Reject, unauthorized } from "../platform/responses.ts"
import { SiteRegistry } from "../platform/SiteRegistry.ts"

export interface CallersShape {
  /** Resolves a header value; an invalid or expired token is a 401, a blocked member a 403. */
  readonly resolve: (authorization: string | undefined, siteId?: string) => Effect.Effect<Caller, Reject>
  /** The caller of the current request. */
  readonly current: Effect.Effect<Caller, Reject, HttpServerRequest.HttpServerRequest>
  /** A visitor or member (also the session an admin call carries); 401 otherwise. */
  readonly session: Effect.Effect<SessionCaller, Reject, HttpServerRequest.HttpServerRequest>
  /** A member; 401 without a session, 403 for a visitor. */
  readonly member: Effect.Effect<MemberCaller, Reject, HttpServerRequest.HttpServerRequest>
  /** An API key; 401 without one, 403 for visitors and members. */
  readonly admin: Effect.Effect<AdminCaller, Reject, HttpServerRequest.HttpServerRequest>
}

/** The service a platform route asks who is calling, and to require a session, a member or an API key. */
export class Callers extends Context.Service<Callers, CallersShape>()("sitefx/server/Callers") {
  static readonly layer: Layer.Layer<Callers, never, AccessTokens | MemberStore | SiteRegistry> = Layer.effect(
    Callers,
    Effect.gen(function*() {
      const tokens = yield* AccessTokens
      const members = yield* MemberStore
      const site = yield* SiteRegistry

      const sessionOf = (token: string): Effect.Effect<SessionCaller, Reject> => {
        const verified = tokens.verify(token)
        if (!verified.ok) {
          return Effect.fail(
            verified.reason === "expired"
              ? unauthorized("The access token has expired", "EXPIRED_TOKEN").because({ kind: "authentication", id: "auth.token.expired" })
              : unauthorized("The access token is not valid", "INVALID_TOKEN").because({ kind: "authentication", id: "auth.token.invalid" })
          )
        }
        const { claims } = verified
        if (claims.role === "member") {
          const member = members.byId(claims.sub)
          if (member === undefined) {
            return Effect.fail(unauthorized("The member no longer exists", "INVALID_TOKEN").because({ kind: "authentication", id: "auth.member.gone" }))
          }
          if (member.status === "BLOCKED") {
            return Effect.fail(forbidden("The member is blocked", "MEMBER_BLOCKED").because({ kind: "permission", id: "identity.member.blocked", caller: "member" }))
          }
        }
        return Effect.succeed({ kind: claims.role, id: claims.sub, clientId: claims.clientId, tokenId: claims.jti })
      }

      const adminOf = (key: string, siteId: string | undefined): Effect.Effect<AdminCaller | undefined, Reject> => {
        const record = site.apiKey(key)
        if (record === undefined) return Effect.succeed(undefined)
        const ownSite = site.siteId()
        if (siteId !== undefined && ownSite !== undefined && siteId !== ownSite) {
          return Effect.fail(
            forbidden("The API key does not belong to this site", "WRONG_SITE").because({ kind: "permission", id: "auth.api-key.wrong-site", caller: "admin" })
          )
        }
        return Effect.succeed({ kind: "admin", keyId: record.id, session: undefined })
      }

      const resolve = (authorization: string | undefined, siteId?: string): Effect.Effect<Caller, Reject> =>
        Effect.gen(function*() {
          const value = (authorization ?? "").trim().replace(/^Bearer\s+/i, "")
          if (value === "") return { kind: "none" } as const
          const comma = value.lastIndexOf(",")
          if (comma >= 0) {
            const admin = yield* adminOf(value.slice(comma + 1).trim(), siteId)
            if (admin === undefined) {
              return yield* unauthorized("The API key is not valid", "INVALID_API_KEY").because({ kind: "authentication", id: "auth.api-key.invalid" })
            }
            // the key authorizes the call; the session part only says on whose behalf, so a stale one is ignored
            const token = value.slice(0, comma).trim()
            const session = token === "" ? undefined : yield* Effect.option(sessionOf(token))
            return { ...admin, session: session?._tag === "Some" ? session.value : undefined }
          }
          const admin = yield* adminOf(value, siteId)
          if (admin !== undefined) return admin
          return yield* sessionOf(value)
        })

      // resolved once per request: the request's note keeps the caller for later asks and for the request log
      const current = Effect.flatMap(CurrentRequestNote, (note): Effect.Effect<Caller, Reject, HttpServerRequest.HttpServerRequest> => {
        if (note?.caller !== undefined) return Effect.succeed(note.caller)
        const resolved = Effect.flatMap(HttpServerRequest.HttpServerRequest, (request) =>
          resolve(request.headers["authorization"], request.headers["wix-site-id"]))
        return note === undefined ? resolved : resolved.pipe(
          Effect.tap((caller) =>
            Effect.sync(() => {
              note.caller = caller
            })
          ),
          Effect.tapError(() =>
            Effect.sync(() => {
              note.unresolved = true
            })
          )
        )
      })

      const needsSession = (caller: "none" | "admin") =>
        unauthorized("A visitor or member access token is required").because({ kind: "authentication", id: "auth.session.required", caller })

      const session = Effect.flatMap(current, (caller): Effect.Effect<SessionCaller, Reject> => {
        switch (caller.kind) {
          case "visitor":
          case "member":
            return Effect.succeed(caller)
          case "admin":
            return caller.session === undefined ? Effect.fail(needsSession("admin")) : Effect.succeed(caller.session)
          case "none":
            return Effect.fail(needsSession("none"))
        }
      })

      const member = Effect.flatMap(session, (caller): Effect.Effect<MemberCaller, Reject> =>
        caller.kind === "member"
          ? Effect.succeed({ ...caller, kind: "member" })
          : Effect.fail(
            forbidden("Only a logged-in member may do this").because({ kind: "permission", id: "auth.member.required", required: "SITE_MEMBER", caller: caller.kind })
          ))

      const admin = Effect.flatMap(current, (caller): Effect.Effect<AdminCaller, Reject> =>
        caller.kind === "admin"
          ? Effect.succeed(caller)
          : caller.kind === "none"
          ? Effect.fail(unauthorized("An API key is required").because({ kind: "authentication", id: "auth.api-key.required", required: "ADMIN", caller: "none" }))
          : Effect.fail(forbidden("An API key is required").because({ kind: "permission", id: "auth.api-key.required", required: "ADMIN", caller: caller.kind })))

      return Callers.of({ resolve, current, session, member, admin })
    })
  )
}
