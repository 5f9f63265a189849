/** The guards of the events' answers: the envelope, the payloads, and the webhooks API. */
export * from "./envelope.ts"
export * from "./payloads.ts"
export * from "./subscriptions.ts"
