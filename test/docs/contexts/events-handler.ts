// The context of the events guide's first handler: the imports and the key its reader already has.
import * as Effect from "effect/Effect"
import * as Events from "sitefx/events"

declare const publicKey: string

export const hook =
  /* fragment */
