/**
 * The carts' dev endpoints (dev mode only): `POST /_sitefx/store/abandoned-carts` adds an abandoned
 * cart as a shopper would leave it, `POST /_sitefx/store/abandoned-carts/{id}/recover` marks one
 * recovered. Each logs its v1 event (CartAbandonedEvent, CartRecoveredEvent) in the site's event log,
 * so apps and tests can watch carts come and go.
 */
import * as Effect from "effect/Effect"
import * as HttpRouter from "effect/http/HttpRouter"
import type { CartActivity } from "../../../catalog/wire/carts.ts"
import { Callers } from "../../accounts/Callers.ts"
import type { Caller } from "../../platform/Caller.ts"
import { invalidField, Reject, reply } from "../../platform/responses.ts"
import { body, pathParam, requestOrigin, route } from "../../platform/routing.ts"
import { CatalogEngine } from "../CatalogEngine.ts"
import { AbandonedCartStore, isCurrency, type NewCart } from "./AbandonedCartStore.ts"
import { AbandonCartRequest, DevCartResponse, RecoverCartRequest, STORE_DEV_PREFIX } from "../../../dev/wire/carts.ts"

export const cartDevRoutes = HttpRouter.addAll(Effect.gen(function*() {
  const carts = yield* AbandonedCartStore
  const engine = yield* CatalogEngine
  const callers = yield* Callers
  // whoever called (usually nobody: a script or a test); a bad token does not stop a dev call
  const caller = callers.current.pipe(Effect.catch(() => Effect.succeed<Caller>({ kind: "none" })))
  return [
    route(
      "POST",
      `${STORE_DEV_PREFIX}/abandoned-carts`,
      Effect.gen(function*() {
        const checked = checkCart(yield* body(AbandonCartRequest))
        if (checked instanceof Reject) return yield* checked
        const actor = yield* caller
        const origin = yield* requestOrigin
        const stored = yield* engine.commit((emit) => carts.abandon(checked, actor, origin, emit))
        return reply(DevCartResponse, { abandonedCart: stored.cart })
      })
    ),
    route(
      "POST",
      `${STORE_DEV_PREFIX}/abandoned-carts/:id/recover`,
      Effect.gen(function*() {
        const { recoveredTime } = yield* body(RecoverCartRequest)
        const at = time(recoveredTime, "recoveredTime")
        if (at instanceof Reject) return yield* at
        const id = yield* pathParam("id")
        const actor = yield* caller
        const stored = yield* engine.commit((emit) => carts.recover(id, at, actor, emit))
        return reply(DevCartResponse, { abandonedCart: stored.cart })
      })
    )
  ]
}))

const MAX_TEXT = 200

const MAX_AMOUNT = 999_999_999.99

const MAX_ITEMS = 1_000_000

const MAX_ACTIVITIES = 100

/** An ISO time, normalized; undefined when absent; a Reject when it is not a time. */
const time = (value: string | null | undefined, field: string): string | undefined | Reject => {
  if (value === undefined || value === null) return undefined
  const millis = Date.parse(value)
  return Number.isNaN(millis) ? invalidField(field, `${field} must be an ISO date and time`, "FORMAT") : new Date(millis).toISOString()
}

const text = (value: string | null | undefined, field: string, max = MAX_TEXT): Reject | undefined =>
  value !== undefined && value !== null && value.length > max ? invalidField(field, `${field} has at most ${max} characters`, "MAX_LENGTH", { max }) : undefined

const amount = (value: number | undefined, field: string): Reject | undefined =>
  value !== undefined && !(Number.isFinite(value) && value >= 0 && value <= MAX_AMOUNT)
    ? invalidField(field, `${field} must be a number from 0 to ${MAX_AMOUNT}`, "MAX", { max: MAX_AMOUNT })
    : undefined

/** The request as a new cart, with its times normalized, or the first thing wrong with it. */
const checkCart = (r: typeof AbandonCartRequest.Type): NewCart | Reject => {
  const problems: Array<Reject | undefined> = [
    r.id !== undefined && (r.id === "" || r.id.length > 100) ? invalidField("id", "id has 1 to 100 characters", "MAX_LENGTH") : undefined,
    text(r.buyerInfo?.id, "buyerInfo.id"),
    text(r.buyerInfo?.email, "buyerInfo.email", 50),
    text(r.buyerInfo?.phone, "buyerInfo.phone"),
    text(r.buyerInfo?.firstName, "buyerInfo.firstName"),
    text(r.buyerInfo?.lastName, "buyerInfo.lastName"),
    text(r.couponId, "couponId"),
    text(r.checkoutUrl, "checkoutUrl", 2000),
    r.checkoutUrl !== undefined && !/^https?:\/\//.test(r.checkoutUrl) ? invalidField("checkoutUrl", "checkoutUrl must be an http(s) URL", "FORMAT") : undefined,
    r.itemsCount !== undefined && !(Number.isInteger(r.itemsCount) && r.itemsCount >= 0 && r.itemsCount <= MAX_ITEMS)
      ? invalidField("itemsCount", `itemsCount must be a whole number from 0 to ${MAX_ITEMS}`, "MAX", { max: MAX_ITEMS })
      : undefined,
    amount(r.subtotal, "subtotal"),
    amount(r.total, "total"),
    r.currency !== undefined && !isCurrency(r.currency) ? invalidField("currency", "currency must be an ISO 4217 code such as USD", "FORMAT") : undefined,
    (r.activities?.length ?? 0) > MAX_ACTIVITIES ? invalidField("activities", `At most ${MAX_ACTIVITIES} activities`, "MAX_SIZE", { max: MAX_ACTIVITIES }) : undefined
  ]
  const problem = problems.find((p) => p !== undefined)
  if (problem !== undefined) return problem
  const creationTime = time(r.creationTime, "creationTime")
  if (creationTime instanceof Reject) return creationTime
  const abandonTime = time(r.abandonTime, "abandonTime")
  if (abandonTime instanceof Reject) return abandonTime
  const activities: Array<CartActivity> = []
  for (const [i, a] of (r.activities ?? []).entries()) {
    const at = `activities[${i}]`
    const wrong = text(a.message, `${at}.message`, 1000) ?? text(a.customData?.namespace, `${at}.customData.namespace`, 50)
    if (wrong !== undefined) return wrong
    const timestamp = time(a.timestamp, `${at}.timestamp`)
    if (timestamp instanceof Reject) return timestamp
    activities.push({ ...a, ...(timestamp === undefined ? {} : { timestamp }) })
  }
  return {
    ...r,
    ...(creationTime === undefined ? {} : { creationTime }),
    ...(abandonTime === undefined ? {} : { abandonTime }),
    ...(r.activities === undefined ? {} : { activities })
  }
}
