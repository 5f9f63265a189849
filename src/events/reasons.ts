/**
 * Why an event could not be taken, one tagged class per reason, shared by the events' errors: a webhook
 * token refused (`JwtError`), an envelope that does not decode (`EventDecodeError`), a webhook refused or
 * whose handler failed (`WebhookError`), a live stream that cannot go on (`LiveError`). Each error's
 * `reason` is one of these, so `Effect.catchReason("WebhookError", "BadSignature", ...)` handles one of
 * them; a reason is the same class wherever it comes from (a token's `Malformed` is the webhook's).
 */
import * as Data from "effect/Data"

/** Not what it should be: a token that is not a compact JWS, an envelope or payload without its fields, an event's data that is not JSON. */
export class Malformed extends Data.TaggedClass("Malformed")<{
  readonly message: string
  /** On the live stream: the id of the event that could not be read. */
  readonly lastEventId?: string
}> {}

/** A token signed with any algorithm but RS256 (`none`, HS*, RS384, ...), or with critical extensions. */
export class UnsupportedAlgorithm extends Data.TaggedClass("UnsupportedAlgorithm")<{ readonly message: string }> {}

/** A token whose signature does not verify with the site's key. */
export class BadSignature extends Data.TaggedClass("BadSignature")<{ readonly message: string }> {}

/**
 * Too old: a token whose `exp` has passed, or, on the live stream, a resume point whose missed events
 * the platform no longer keeps (410; read the current state and start again).
 */
export class Expired extends Data.TaggedClass("Expired")<{
  readonly message: string
  /** On the live stream: the HTTP status (410). */
  readonly status?: number
  /** On the live stream: the last event id it gave, if any. */
  readonly lastEventId?: string
}> {}

/** A token whose `nbf` is still to come. */
export class NotYetValid extends Data.TaggedClass("NotYetValid")<{ readonly message: string }> {}

/** The site's public key is not an RSA SPKI public key, or the runtime has no WebCrypto. */
export class InvalidKey extends Data.TaggedClass("InvalidKey")<{ readonly message: string }> {}

/** An event type sitefx does not know, or a webhook processor does not take. */
export class UnknownEventType extends Data.TaggedClass("UnknownEventType")<{
  readonly message: string
  readonly eventType: string
}> {}

/** A webhook handler failed (its error is the WebhookError's `cause`). */
export class HandlerFailed extends Data.TaggedClass("HandlerFailed")<{
  readonly message: string
  readonly eventType: string
}> {}

/** A webhook body over the processor's `maxBodyBytes`. */
export class TooLarge extends Data.TaggedClass("TooLarge")<{ readonly message: string }> {}

/** The live stream had no credentials, or the platform refused them (401, 403). */
export class Unauthorized extends Data.TaggedClass("Unauthorized")<{
  readonly message: string
  /** The HTTP status, when the platform answered. */
  readonly status?: number
  /** The last event id the stream gave, if any. */
  readonly lastEventId?: string
}> {}

/** The live stream was refused for another reason (another 4xx than 401, 403, 408, 410, 429). */
export class Refused extends Data.TaggedClass("Refused")<{
  readonly message: string
  readonly status: number
}> {}

/** The live stream could not reach the platform through every reconnection. */
export class Unreachable extends Data.TaggedClass("Unreachable")<{
  readonly message: string
  /** The last event id the stream gave, to resume from with a new stream. */
  readonly lastEventId?: string
}> {}

/** Why a webhook token or key was refused. */
export type JwtErrorReason = Malformed | UnsupportedAlgorithm | BadSignature | Expired | NotYetValid | InvalidKey

/** Why an envelope could not be decoded. */
export type EventDecodeErrorReason = Malformed | UnknownEventType

/** Why a webhook was refused or failed: its token, its envelope, its type, its size, or its handler. */
export type WebhookErrorReason = JwtErrorReason | EventDecodeErrorReason | HandlerFailed | TooLarge

/** Why the live stream stopped. */
export type LiveErrorReason = Unauthorized | Expired | Refused | Unreachable | Malformed
