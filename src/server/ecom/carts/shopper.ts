/**
 * Who owns the current cart of a call: the session's visitor or member (an API key acting for a
 * session: that session's). A call without a session has no current cart: 401. Custom line items are
 * refused: they are the store owner's to add, and the local platform prices from its catalog only.
 */
import * as Effect from "effect/Effect"
import type * as HttpServerRequest from "effect/http/HttpServerRequest"
import { Callers } from "../../accounts/Callers.ts"
import type { Caller } from "../../platform/Caller.ts"
import { forbidden, type Reject } from "../../platform/responses.ts"
import { requestOrigin } from "../../platform/routing.ts"
import type { Owner } from "./CartStore.ts"

export interface Shopper {
  readonly owner: Owner
  /** Who made the call, as its events name them. */
  readonly actor: Caller
  /** Where the call reached the platform: recorded with the cart for its checkout link once abandoned. */
  readonly origin: string
}

export const shopper: Effect.Effect<Effect.Effect<Shopper, Reject, HttpServerRequest.HttpServerRequest>, never, Callers> = Callers.useSync(
  (callers) =>
    Effect.gen(function*() {
      const session = yield* callers.session
      const actor = yield* callers.current
      return { owner: { kind: session.kind, id: session.id }, actor, origin: yield* requestOrigin }
    })
)

/** Refuses custom items: only catalog items go in a shopper's cart here. */
export const noCustomItems = (items: ReadonlyArray<unknown> | undefined, field: string): Effect.Effect<void, Reject> =>
  items === undefined || items.length === 0
    ? Effect.void
    : Effect.fail(
      forbidden(`${field}: custom line items need the store owner's permission to manage eCommerce`).because({
        kind: "permission",
        id: "ecom.cart.custom-items",
        required: "ADMIN"
      })
    )
