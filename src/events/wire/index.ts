/** The events' wire Schemas: the envelope and the payloads of every event type. */
export * from "./envelope.ts"
export * from "./payloads.ts"
