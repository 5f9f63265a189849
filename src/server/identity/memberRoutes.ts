/**
 * The members service: a member reads their own record. It is also the simplest protected call, which
 * clients use to exercise refresh-and-retry on a 401.
 */
import * as Effect from "effect/Effect"
import * as HttpRouter from "effect/http/HttpRouter"
import { MyMemberResponse, Paths } from "../../session/wire/index.ts"
import { Callers } from "../accounts/Callers.ts"
import { notFound, reply } from "../platform/responses.ts"
import { route } from "../platform/routing.ts"
import { Codes } from "./codes.ts"
import { MemberStore } from "../accounts/MemberStore.ts"
import { memberOf } from "./views.ts"

export const memberRoutes = HttpRouter.addAll(Effect.gen(function*() {
  const callers = yield* Callers
  const members = yield* MemberStore

  const my = Effect.gen(function*() {
    const caller = yield* callers.member
    const member = members.byId(caller.id)
    if (member === undefined) return yield* notFound("The member no longer exists", Codes.memberNotFound)
    return reply(MyMemberResponse, { member: memberOf(member) })
  })

  return [route("GET", Paths.myMember, my)]
}))
