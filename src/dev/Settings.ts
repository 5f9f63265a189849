/**
 * The site's switches on the local platform: captcha, email verification, owner approval, MFA, the
 * access token lifetime and the store catalog's version.
 *
 * @example
 * import { Settings } from "sitefx/dev"
 * yield* Settings.update({ ownerApproval: true }) // new members wait for approval
 */
import type * as Effect from "effect/Effect"
import type { PlatformError } from "../http/PlatformError.ts"
import type { PlatformHttp } from "../http/PlatformHttp.ts"
import { SiteSettings as SiteSettingsAnswer } from "./guards/platform.ts"
import type { SiteSettings, SiteSettingsPatch } from "./wire/platform.ts"
import { DEV_PREFIX, devCall } from "./call.ts"

export type { SiteSettings, SiteSettingsPatch }

const PATH = `${DEV_PREFIX}/settings`

/** The site's settings. */
export const get: Effect.Effect<SiteSettings, PlatformError, PlatformHttp> = devCall({ method: "GET", path: PATH }, SiteSettingsAnswer)

/** Changes the settings named (the others keep their value); the settings as they are now. A bad value is a 400 and changes nothing. */
export const update = (patch: SiteSettingsPatch): Effect.Effect<SiteSettings, PlatformError, PlatformHttp> =>
  devCall({ method: "PATCH", path: PATH, payload: { ...patch }, idempotent: true }, SiteSettingsAnswer)
