/**
 * Dev endpoints (`/_sitefx/*`), mounted only in dev mode: health, reset and seed, the outbox, the
 * server clock's skew, the production profile, site settings, captcha tokens, counters, member
 * administration, `whoami`, and injected faults (added, listed, removed one by one or all). The data engine adds its own (`/_sitefx/data/*`).
 */
import * as Effect from "effect/Effect"
import * as Redacted from "effect/Redacted"
import * as HttpRouter from "effect/http/HttpRouter"
import { Callers } from "../accounts/Callers.ts"
import { Database } from "../platform/Database.ts"
import {
  AddedFault,
  CaptchaResponse,
  ClockRequest,
  ClockResponse,
  EnrollFactorRequest,
  EnrollFactorResponse,
  FaultRequest,
  FaultsResponse,
  Health,
  IdentitiesResponse,
  IdentityResponse,
  OutboxResponse,
  ProfileRequest,
  ProfileState,
  SeedRequest,
  SiteConnection,
  SiteSettings,
  SiteSettingsPatch,
  StatsResponse,
  WhoAmI
} from "../../dev/wire/platform.ts"
import { DEV_PREFIX } from "../platform/devAccess.ts"
import { Faults } from "./Faults.ts"
import { approvalChanges, blockMember } from "../identity/adminMemberRoutes.ts"
import { Codes } from "../identity/codes.ts"
import { Flows } from "../identity/Flows.ts"
import { type MemberChanges, type MemberRecord, MemberStore } from "../accounts/MemberStore.ts"
import { OneTimeTokens } from "../platform/OneTimeTokens.ts"
import { Outbox } from "../platform/Outbox.ts"
import { RefreshTokens } from "../accounts/RefreshTokens.ts"
import { invalidField, notFound, type Reject, reply, replyEmpty, unauthorized } from "../platform/responses.ts"
import { body, pathParam, query, route } from "../platform/routing.ts"
import { Seeder } from "../accounts/seed.ts"
import { isoDate, MAX_SKEW_SECONDS, ServerClock } from "../platform/ServerClock.ts"
import { Profile } from "../platform/Profile.ts"
import { Settings } from "../platform/Settings.ts"
import { Stats } from "../platform/Stats.ts"
import { generateTotpSecret } from "../identity/totp.ts"

export const platformRoutes = HttpRouter.addAll(Effect.gen(function*() {
  const db = yield* Database
  const seeder = yield* Seeder
  const outbox = yield* Outbox
  const clock = yield* ServerClock
  const settings = yield* Settings
  const stats = yield* Stats
  const tokens = yield* OneTimeTokens
  const members = yield* MemberStore
  const flows = yield* Flows
  const refreshTokens = yield* RefreshTokens
  const callers = yield* Callers
  const faults = yield* Faults
  const profile = yield* Profile

  const clockNow = () => reply(ClockResponse, { skewSeconds: clock.skewSeconds(), now: isoDate(clock.millis()) })

  const memberParam = Effect.flatMap(pathParam("id"), (id): Effect.Effect<MemberRecord, Reject> => {
    const member = members.byId(id)
    return member === undefined ? Effect.fail(notFound("No member has this id", Codes.memberNotFound)) : Effect.succeed(member)
  })

  const changeMember = (change: (member: MemberRecord) => MemberChanges) =>
    Effect.gen(function*() {
      const member = yield* memberParam
      const updated = members.update(member.id, change(member))
      return reply(IdentityResponse, { identity: flows.identity(updated) })
    })

  return [
    route("GET", `${DEV_PREFIX}/health`, Effect.sync(() => reply(Health, { ok: true }))),
    // so that scripts and examples find the site without a key copied by hand; the dev guard keeps pages of
    // other origins from reading it
    route(
      "GET",
      `${DEV_PREFIX}/site`,
      Effect.sync(() => {
        const site = seeder.site()
        return reply(SiteConnection, { clientId: site.clientId, siteId: site.siteId, apiKey: Redacted.value(site.apiKey) })
      })
    ),
    route(
      "POST",
      `${DEV_PREFIX}/reset`,
      Effect.sync(() => {
        db.reset()
        return reply(Health, { ok: true })
      })
    ),
    route(
      "POST",
      `${DEV_PREFIX}/seed`,
      Effect.gen(function*() {
        const request = yield* body(SeedRequest)
        yield* seeder.seed(request.seed)
        return reply(Health, { ok: true })
      })
    ),
    route(
      "GET",
      `${DEV_PREFIX}/outbox`,
      Effect.map(query, (params) => reply(OutboxResponse, { messages: outbox.list(params.get("to") ?? undefined) }))
    ),
    route("GET", `${DEV_PREFIX}/clock`, Effect.sync(clockNow)),
    route("GET", `${DEV_PREFIX}/faults`, Effect.sync(() => reply(FaultsResponse, { faults: faults.list() }))),
    route(
      "POST",
      `${DEV_PREFIX}/faults`,
      Effect.gen(function*() {
        const fault = faults.add(yield* body(FaultRequest))
        return reply(AddedFault, { ok: true, fault })
      })
    ),
    route(
      "DELETE",
      `${DEV_PREFIX}/faults`,
      Effect.sync(() => {
        faults.clear()
        return replyEmpty()
      })
    ),
    route(
      "DELETE",
      `${DEV_PREFIX}/faults/:id`,
      Effect.gen(function*() {
        const id = yield* pathParam("id")
        if (!faults.remove(id)) return yield* notFound(`No pending fault has the id ${id}`, "FAULT_NOT_FOUND")
        return replyEmpty()
      })
    ),
    route(
      "POST",
      `${DEV_PREFIX}/clock`,
      Effect.gen(function*() {
        const request = yield* body(ClockRequest)
        if (Math.abs(request.skewSeconds) > MAX_SKEW_SECONDS) {
          return yield* invalidField("skewSeconds", `skewSeconds must be from -${MAX_SKEW_SECONDS} to ${MAX_SKEW_SECONDS} (a thousand years)`, "MAX")
        }
        // the listeners (carts abandoned by the new time) have run when the answer leaves
        yield* clock.setSkewSeconds(request.skewSeconds)
        return clockNow()
      })
    ),
    route("GET", `${DEV_PREFIX}/profile`, Effect.sync(() => reply(ProfileState, profile.get()))),
    route(
      "POST",
      `${DEV_PREFIX}/profile`,
      Effect.gen(function*() {
        const request = yield* body(ProfileRequest)
        return reply(ProfileState, profile.set(request))
      })
    ),
    route("GET", `${DEV_PREFIX}/settings`, Effect.sync(() => reply(SiteSettings, settings.get()))),
    route(
      "PATCH",
      `${DEV_PREFIX}/settings`,
      Effect.gen(function*() {
        const patch = yield* body(SiteSettingsPatch)
        return reply(SiteSettings, settings.patch(patch))
      })
    ),
    route(
      "POST",
      `${DEV_PREFIX}/captcha`,
      Effect.sync(() => reply(CaptchaResponse, { token: tokens.issue("captcha", "captcha", CAPTCHA_SECONDS, {}) }))
    ),
    route("GET", `${DEV_PREFIX}/stats`, Effect.sync(() => reply(StatsResponse, stats.snapshot()))),
    route(
      "GET",
      `${DEV_PREFIX}/members`,
      Effect.map(query, (params) => {
        const email = params.get("email")
        const found = email === null ? members.list() : [members.byEmail(email)].filter((m) => m !== undefined)
        return reply(IdentitiesResponse, { identities: found.map(flows.identity) })
      })
    ),
    route("POST", `${DEV_PREFIX}/members/:id/approve`, changeMember(approvalChanges)),
    route(
      "POST",
      `${DEV_PREFIX}/members/:id/block`,
      Effect.map(memberParam, (member) => reply(IdentityResponse, { identity: flows.identity(blockMember(members, refreshTokens, member)) }))
    ),
    route("POST", `${DEV_PREFIX}/members/:id/require-reset`, changeMember(() => ({ mustReset: true }))),
    route(
      "POST",
      `${DEV_PREFIX}/members/:id/factors`,
      Effect.gen(function*() {
        const member = yield* memberParam
        const request = yield* body(EnrollFactorRequest)
        if (request.type === "SMS" && (request.phone ?? "").trim() === "") {
          return yield* invalidField("phone", "An SMS factor needs a phone number", "REQUIRED_FIELD")
        }
        const secret = request.type === "TOTP" ? generateTotpSecret() : undefined
        const factor = members.addFactor(member.id, {
          type: request.type,
          ...(secret === undefined ? {} : { secret }),
          ...(request.type === "SMS" && request.phone !== undefined ? { phone: request.phone.trim() } : {})
        })
        return reply(EnrollFactorResponse, { factorId: factor.id, ...(secret === undefined ? {} : { secret }) })
      })
    ),
    route(
      "DELETE",
      `${DEV_PREFIX}/members/:id/factors/:factorId`,
      Effect.gen(function*() {
        const member = yield* memberParam
        const removed = members.removeFactor(member.id, yield* pathParam("factorId"))
        return removed ? replyEmpty() : yield* notFound("The member has no such factor")
      })
    ),
    route(
      "GET",
      `${DEV_PREFIX}/whoami`,
      Effect.gen(function*() {
        const caller = yield* callers.current
        switch (caller.kind) {
          case "none":
            return yield* unauthorized().because({ kind: "authentication", id: "auth.credentials.required", caller: "none" })
          case "admin":
            return reply(WhoAmI, { kind: "admin", id: caller.keyId, role: "admin", clientId: caller.session?.clientId ?? null })
          default:
            return reply(WhoAmI, { kind: caller.kind, id: caller.id, role: caller.kind, clientId: caller.clientId })
        }
      })
    )
  ]
}))

const CAPTCHA_SECONDS = 10 * 60
