/**
 * What the `demo` seed puts in the store's abandoned carts: four carts with fixed ids and times, one of
 * them the demo member's, one recovered. Nothing is overwritten and no event is published, so seeding
 * again changes nothing.
 */
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import { MemberStore } from "../../accounts/MemberStore.ts"
import { DEMO_MEMBER_EMAIL, Seeder } from "../../accounts/seed.ts"
import { AbandonedCartStore, type NewCart } from "./AbandonedCartStore.ts"

/** The seeded carts' ids, in the order they were abandoned. */
export const DEMO_CART_IDS = {
  recovered: "5eedca27-0000-4000-8000-000000000001",
  member: "5eedca27-0000-4000-8000-000000000002",
  visitor: "5eedca27-0000-4000-8000-000000000003",
  contact: "5eedca27-0000-4000-8000-000000000004"
} as const

const ORIGIN = "http://127.0.0.1"

const demoCarts = (memberId: string | undefined): ReadonlyArray<NewCart & { readonly recoveredTime?: string }> => [
  {
    id: DEMO_CART_IDS.recovered,
    buyerInfo: { identityType: "CONTACT", email: "linus@example.com", firstName: "Linus", lastName: "Pauling", phone: "+1 555 0100" },
    creationTime: "2026-02-20T11:42:00.000Z",
    abandonTime: "2026-02-20T12:00:00.000Z",
    recoveredTime: "2026-02-21T08:30:00.000Z",
    itemsCount: 5,
    subtotal: 142,
    total: 151.5,
    currency: "USD",
    activities: [{ activityType: "EMAIL_SENT", message: "Reminder e-mail sent", timestamp: "2026-02-20T13:00:00.000Z" }]
  },
  {
    id: DEMO_CART_IDS.member,
    buyerInfo: {
      ...(memberId === undefined ? {} : { id: memberId }),
      identityType: "MEMBER",
      email: DEMO_MEMBER_EMAIL,
      firstName: "Demo",
      lastName: "Member"
    },
    creationTime: "2026-03-02T09:58:00.000Z",
    abandonTime: "2026-03-02T10:15:00.000Z",
    itemsCount: 3,
    subtotal: 89.97,
    total: 97.17,
    currency: "USD",
    activities: [{ activityType: "SCHEDULED", message: "Reminder e-mail scheduled", timestamp: "2026-03-02T10:15:00.000Z" }]
  },
  {
    id: DEMO_CART_IDS.visitor,
    buyerInfo: { identityType: "VISITOR", email: "shopper@example.com" },
    creationTime: "2026-03-05T16:31:00.000Z",
    abandonTime: "2026-03-05T16:40:00.000Z",
    itemsCount: 1,
    subtotal: 24,
    total: 24,
    currency: "USD"
  },
  {
    id: DEMO_CART_IDS.contact,
    buyerInfo: { identityType: "CONTACT", email: "grace@example.com", firstName: "Grace", lastName: "Hopper" },
    creationTime: "2026-03-08T08:50:00.000Z",
    abandonTime: "2026-03-08T09:05:00.000Z",
    itemsCount: 2,
    couponId: "SPRING10",
    subtotal: 65,
    total: 58.5,
    currency: "EUR",
    activities: [
      { activityType: "EMAIL_SENT", message: "Reminder e-mail sent", timestamp: "2026-03-08T10:05:00.000Z" },
      { activityType: "CUSTOM_ACTIVITY", message: "Called the buyer", timestamp: "2026-03-09T14:00:00.000Z", customData: { namespace: "crm", customValue: { outcome: "no answer" } } }
    ]
  }
]

/** Registers the carts part of the seeds with the Seeder. */
export const cartsSeed: Layer.Layer<never, never, Seeder | AbandonedCartStore | MemberStore> = Layer.effectDiscard(
  Effect.gen(function*() {
    const seeder = yield* Seeder
    const carts = yield* AbandonedCartStore
    const members = yield* MemberStore
    seeder.extend((name) =>
      Effect.sync(() => {
        if (name === "demo") carts.seed(demoCarts(members.byEmail(DEMO_MEMBER_EMAIL)?.id), ORIGIN)
      })
    )
  })
)
