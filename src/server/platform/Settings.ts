/**
 * Site settings that change how the identity flows behave (captcha, e-mail verification, owner
 * approval, MFA) and how long access tokens live. Stored in sqlite, editable through the dev endpoints.
 */
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import { Database } from "./Database.ts"
import type { SiteSettings, SiteSettingsPatch } from "../../dev/wire/platform.ts"

export interface SettingsShape {
  readonly get: () => SiteSettings
  readonly patch: (patch: SiteSettingsPatch) => SiteSettings
}

export const DEFAULT_ACCESS_TOKEN_TTL_SECONDS = 4 * 60 * 60

export class Settings extends Context.Service<Settings, SettingsShape>()("sitefx/server/Settings") {
  /** `defaults` apply to any setting the database has no value for (a new or reset database). */
  static readonly layer = (defaults: Partial<SiteSettings> = {}): Layer.Layer<Settings, never, Database> =>
    Layer.effect(
      Settings,
      Effect.gen(function*() {
        const db = yield* Database
        db.migrate("settings/1", "CREATE TABLE settings (key TEXT PRIMARY KEY, value TEXT NOT NULL)")
        const base: SiteSettings = {
          captcha: false,
          emailVerification: false,
          ownerApproval: false,
          mfaRequired: false,
          accessTokenTtlSeconds: DEFAULT_ACCESS_TOKEN_TTL_SECONDS,
          catalogVersion: "V1_CATALOG",
          ...defaults
        }
        const get = (): SiteSettings => {
          const stored: Record<string, unknown> = {}
          for (const row of db.all("SELECT key, value FROM settings")) {
            stored[String(row.key)] = JSON.parse(String(row.value))
          }
          return { ...base, ...(stored as Partial<SiteSettings>) }
        }
        return Settings.of({
          get,
          patch: (patch) =>
            db.transaction(() => {
              for (const [key, value] of Object.entries(patch)) {
                if (value === undefined) continue
                db.run(
                  "INSERT INTO settings (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value",
                  key,
                  JSON.stringify(value)
                )
              }
              return get()
            })
        })
      })
    )
}
