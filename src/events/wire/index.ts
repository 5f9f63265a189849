/** The events' wire Schemas: the envelope, the payloads of every event type, and webhook subscriptions. */
export * from "./envelope.ts"
export * from "./payloads.ts"
export * from "./subscriptions.ts"
