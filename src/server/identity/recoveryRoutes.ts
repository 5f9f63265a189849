/**
 * The recovery service: password-reset e-mails, activation e-mails, and recovering an account with the
 * one-time token either of them carries.
 */
import * as Effect from "effect/Effect"
import * as HttpRouter from "effect/http/HttpRouter"
import {
  ActivationEmailRequest,
  Paths,
  RecoverRequest,
  SendRecoveryEmailRequest,
  StateMachineResponse
} from "../../session/wire/index.ts"
import { Callers } from "../accounts/Callers.ts"
import { OneTimeTokens } from "../platform/OneTimeTokens.ts"
import { urlAllowed } from "../platform/origins.ts"
import { Outbox } from "../platform/Outbox.ts"
import { hashPassword, passwordProblem } from "../accounts/passwords.ts"
import { RefreshTokens } from "../accounts/RefreshTokens.ts"
import { badRequest, forbidden, invalidField, notFound, type Reject, reply, replyEmpty } from "../platform/responses.ts"
import { body, route } from "../platform/routing.ts"
import { SiteRegistry } from "../platform/SiteRegistry.ts"
import { Codes } from "./codes.ts"
import { Flows } from "./Flows.ts"
import { isEmail, MemberStore } from "../accounts/MemberStore.ts"

export const recoveryRoutes = HttpRouter.addAll(Effect.gen(function*() {
  const callers = yield* Callers
  const members = yield* MemberStore
  const flows = yield* Flows
  const tokens = yield* OneTimeTokens
  const outbox = yield* Outbox
  const site = yield* SiteRegistry
  const refreshTokens = yield* RefreshTokens

  /** A redirect must go to an origin of the named client (or the site's default client). */
  const checkRedirect = (
    field: string,
    redirect: { readonly url?: string; readonly clientId?: string } | undefined
  ): Effect.Effect<string | undefined, Reject> => {
    if (redirect === undefined || redirect.url === undefined || redirect.url === "") return Effect.succeed(undefined)
    const client = redirect.clientId === undefined ? site.defaultClient() : site.client(redirect.clientId)
    if (client === undefined) return Effect.fail(invalidField(`${field}.clientId`, "Unknown client id"))
    if (!urlAllowed(client.allowedOrigins, redirect.url)) {
      return Effect.fail(invalidField(`${field}.url`, "The redirect URL's origin is not allowed for this client"))
    }
    return Effect.succeed(redirect.url)
  }

  const texts = {
    RECOVERY: {
      subject: "Reset your password",
      withToken: "Use this recovery token to set a new password:",
      withLink: "Set a new password here:"
    },
    ACTIVATION: {
      subject: "Activate your account",
      withToken: "Use this activation token to choose your password:",
      withLink: "Activate your account and choose a password here:"
    }
  } as const

  /** Issues a one-time recovery token and mails it, as a link when the caller named a redirect URL. */
  const mailToken = (member: { readonly id: string; readonly email: string }, kind: keyof typeof texts, seconds: number, url: string | undefined) => {
    const token = tokens.issue("recovery", member.id, seconds, { kind })
    const link = url === undefined ? undefined : withToken(url, token)
    const text = texts[kind]
    return outbox.send({
      to: member.email,
      kind,
      subject: text.subject,
      body: link === undefined ? `${text.withToken} ${token}` : `${text.withLink} ${link}`,
      token,
      ...(link === undefined ? {} : { link })
    })
  }

  const sendEmail = Effect.gen(function*() {
    yield* callers.session
    const request = yield* body(SendRecoveryEmailRequest)
    if (!isEmail(request.email.trim())) return yield* invalidField("email", "Email address is not valid", "FORMAT", { type: "EMAIL" })
    const url = yield* checkRedirect("redirect", request.redirect)
    const member = members.byEmail(request.email)
    // the same answer whether or not a member has this e-mail
    if (member === undefined || member.status === "BLOCKED") return replyEmpty()
    yield* mailToken(member, "RECOVERY", RECOVERY_SECONDS, url)
    return replyEmpty()
  })

  const activationEmail = Effect.gen(function*() {
    yield* callers.session
    const request = yield* body(ActivationEmailRequest)
    const url = yield* checkRedirect("emailOptions.redirect", request.emailOptions?.redirect)
    const member = members.byId(request.identityId)
    if (member === undefined) return yield* notFound("No member has this id", Codes.memberNotFound)
    yield* mailToken(member, "ACTIVATION", ACTIVATION_SECONDS, url)
    return replyEmpty()
  })

  const recover = Effect.gen(function*() {
    yield* callers.session
    const request = yield* body(RecoverRequest)
    const password = request.password ?? ""
    const problem = passwordProblem(password)
    if (problem !== undefined) return yield* invalidField("password", problem, "MIN_LENGTH", { minLength: 6 })
    const pending = tokens.peek("recovery", request.recoveryToken)
    const member = pending === undefined ? undefined : members.byId(pending.subject)
    if (member === undefined) return yield* badRequest(Codes.invalidRecoveryToken, "The recovery token is unknown, used or expired")
    if (member.status === "BLOCKED") return yield* forbidden("This member is blocked", Codes.memberBlocked).because({ kind: "permission", id: "identity.member.blocked" })
    const passwordHash = yield* hashPassword(password)
    if (tokens.consume("recovery", request.recoveryToken) === undefined) {
      return yield* badRequest(Codes.invalidRecoveryToken, "The recovery token is unknown, used or expired")
    }
    const recovered = members.update(member.id, {
      passwordHash,
      mustReset: false,
      status: "ACTIVE",
      reasons: [],
      emailVerified: true
    })
    refreshTokens.revoke("member", member.id)
    return reply(StateMachineResponse, flows.success(recovered))
  })

  return [
    route("POST", Paths.sendRecoveryEmail, sendEmail),
    route("POST", Paths.activationEmail, activationEmail),
    route("POST", Paths.recover, recover)
  ]
}))

const RECOVERY_SECONDS = 60 * 60

const ACTIVATION_SECONDS = 7 * 24 * 60 * 60

/** `url` with `recoveryToken` added to its query. */
const withToken = (url: string, token: string): string => {
  const link = new URL(url)
  link.searchParams.set("recoveryToken", token)
  return link.toString()
}
